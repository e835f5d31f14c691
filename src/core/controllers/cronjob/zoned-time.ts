// Wall-clock time in an IANA time zone without a time zone database of our
// own: the host's Intl.DateTimeFormat tells the local fields of an instant,
// and from them its UTC offset. A local date and time becomes an instant the
// way Go's time.Date does it (the offset at the local time read as UTC,
// corrected once when that lands across a transition), so that a CronJob's
// schedule steps over a DST gap or overlap as kube-controller-manager's does.

export interface LocalFields {
  readonly year: number;
  /** 1-12 */
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** 0 (Sunday) - 6 */
  readonly weekday: number;
}

export interface Zone {
  readonly name: string;
  fields(ms: number): LocalFields;
  /** The instant of a local date and time; fields out of range carry over (month 13, day 0, …). */
  date(year: number, month: number, day: number, hour: number, minute: number, second: number): number;
  /** RFC 3339 of an instant in this zone: "2024-12-11T13:05:00+01:00", or with Z for UTC. */
  rfc3339(ms: number): string;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

function utcFields(ms: number): LocalFields {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), weekday: d.getUTCDay() };
}

/** Date.UTC with a full year (Date.UTC maps years 0-99 to 1900-1999). */
function utcOf(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return d.getTime();
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

function format(f: LocalFields, offsetMs: number): string {
  const base = `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}T${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}`;
  if (offsetMs === 0) return `${base}Z`;
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  return `${base}${offsetMs < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

export const UTC: Zone = {
  name: 'UTC',
  fields: utcFields,
  date: utcOf,
  rfc3339: (ms) => format(utcFields(ms), 0),
};

const cache = new Map<string, Zone | undefined>();

/** The zone of an IANA name ('' and 'UTC' are UTC), or undefined when the host does not know it. */
export function loadZone(name: string): Zone | undefined {
  if (name === '' || name === 'UTC') return UTC;
  if (cache.has(name)) return cache.get(name);
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      era: 'short',
    });
  } catch {
    cache.set(name, undefined);
    return undefined;
  }
  const fields = (ms: number): LocalFields => {
    const parts: Record<string, string> = {};
    for (const p of formatter.formatToParts(new Date(Math.floor(ms / 1000) * 1000))) parts[p.type] = p.value;
    const year = Number(parts.year) * (parts.era === 'BC' || parts.era === 'B' ? -1 : 1);
    return { year, month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour) % 24, minute: Number(parts.minute), second: Number(parts.second), weekday: WEEKDAYS[parts.weekday ?? ''] ?? 0 };
  };
  const offset = (ms: number): number => {
    const whole = Math.floor(ms / 1000) * 1000;
    const f = fields(whole);
    return utcOf(f.year, f.month, f.day, f.hour, f.minute, f.second) - whole;
  };
  const zone: Zone = {
    name,
    fields,
    date(year, month, day, hour, minute, second) {
      const local = utcOf(year, month, day, hour, minute, second);
      const first = offset(local);
      const guess = local - first;
      const second_ = offset(guess);
      return local - second_;
    },
    rfc3339: (ms) => format(fields(ms), offset(ms)),
  };
  cache.set(name, zone);
  return zone;
}
