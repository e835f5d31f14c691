// Enough of robfig/cron's standard parser (the one CronJob validation uses)
// to accept what kube accepts and report its messages for the usual mistakes.

const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const FIELDS: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];

function parseInt10(expr: string, bounds: Bounds): number {
  const named = bounds.names?.[expr.toLowerCase()];
  if (named !== undefined) return named;
  if (!/^\d+$/.test(expr)) throw new Error(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`);
  return Number(expr);
}

function checkRange(expr: string, bounds: Bounds): void {
  const [rangePart, stepPart, extra] = expr.split('/');
  if (extra !== undefined) throw new Error(`too many slashes: ${expr}`);
  let start: number;
  let end: number;
  if (rangePart === '*' || rangePart === '?') {
    start = bounds.min;
    end = bounds.max;
  } else {
    const lowHigh = rangePart!.split('-');
    if (lowHigh.length > 2) throw new Error(`too many hyphens: ${expr}`);
    start = parseInt10(lowHigh[0]!, bounds);
    end = lowHigh.length === 2 ? parseInt10(lowHigh[1]!, bounds) : start;
  }
  if (stepPart !== undefined) {
    const step = parseInt10(stepPart, bounds);
    if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
  }
  if (start < bounds.min) throw new Error(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max) throw new Error(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
}

/** undefined when the schedule parses, else robfig/cron's error text. */
export function cronScheduleError(schedule: string): string | undefined {
  const spec = schedule.trim();
  if (spec.length === 0) return 'empty spec string';
  if (spec.startsWith('@')) {
    if (DESCRIPTORS.has(spec) || spec.startsWith('@every ')) return undefined;
    return `unrecognized descriptor: ${spec}`;
  }
  const fields = spec.split(/\s+/);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  try {
    fields.forEach((f, i) => {
      for (const part of f.split(',')) checkRange(part, FIELDS[i]!);
    });
  } catch (e) {
    return (e as Error).message;
  }
  return undefined;
}
