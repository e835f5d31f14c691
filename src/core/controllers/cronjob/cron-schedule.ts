// CronJob schedules as kube-controller-manager reads them (robfig/cron v3's
// standard parser): five fields (minute hour day-of-month month
// day-of-week) with *, ?, lists, ranges, steps and month/day names; the
// descriptors @yearly/@annually, @monthly, @weekly, @daily/@midnight,
// @hourly and @every <duration>; an optional TZ= or CRON_TZ= prefix. next()
// is robfig's search for the next matching second after a time, in the
// schedule's zone (a day-of-month and a day-of-week both restricted match
// either), giving up after five years.

import { loadZone, UTC, type Zone } from './zoned-time';

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } };
const DOW: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

/** The values a field matches, and whether it was written as * or ? (robfig's starBit). */
interface FieldSet {
  readonly values: ReadonlySet<number>;
  readonly star: boolean;
}

export interface Schedule {
  /** The first time after `ms` the schedule fires (whole seconds), or undefined when none within five years. */
  next(ms: number): number | undefined;
}

export class ScheduleError extends Error {}

function parseIntStrict(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr)) throw new ScheduleError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`);
  const n = Number(expr);
  if (n < 0) throw new ScheduleError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, b: Bounds): number {
  const named = b.names?.[expr.toLowerCase()];
  return named !== undefined ? named : parseIntStrict(expr);
}

function range(expr: string, b: Bounds, into: Set<number>): boolean {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  const singleDigit = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
    star = true;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, b);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, b);
    else throw new ScheduleError(`too many hyphens: ${expr}`);
  }
  let step: number;
  if (rangeAndStep.length === 1) step = 1;
  else if (rangeAndStep.length === 2) {
    step = parseIntStrict(rangeAndStep[1]!);
    // "N/step" means "N-max/step".
    if (singleDigit) end = b.max;
    if (step > 1) star = false;
  } else throw new ScheduleError(`too many slashes: ${expr}`);
  if (start < b.min) throw new ScheduleError(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new ScheduleError(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new ScheduleError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new ScheduleError(`step of range should be a positive number: ${expr}`);
  for (let v = start; v <= end; v += step) into.add(v);
  return star;
}

function field(text: string, b: Bounds): FieldSet {
  const values = new Set<number>();
  let star = false;
  for (const part of text.split(',')) if (range(part, b, values)) star = true;
  return { values, star };
}

const all = (b: Bounds): FieldSet => field('*', b);
const only = (v: number): FieldSet => ({ values: new Set([v]), star: false });

interface Spec {
  minute: FieldSet;
  hour: FieldSet;
  dom: FieldSet;
  month: FieldSet;
  dow: FieldSet;
}

const DESCRIPTORS: Record<string, () => Spec> = {
  '@yearly': () => ({ minute: only(0), hour: only(0), dom: only(1), month: only(1), dow: all(DOW) }),
  '@annually': () => DESCRIPTORS['@yearly']!(),
  '@monthly': () => ({ minute: only(0), hour: only(0), dom: only(1), month: all(MONTHS), dow: all(DOW) }),
  '@weekly': () => ({ minute: only(0), hour: only(0), dom: all(DOM), month: all(MONTHS), dow: only(0) }),
  '@daily': () => ({ minute: only(0), hour: only(0), dom: all(DOM), month: all(MONTHS), dow: all(DOW) }),
  '@midnight': () => DESCRIPTORS['@daily']!(),
  '@hourly': () => ({ minute: only(0), hour: all(HOURS), dom: all(DOM), month: all(MONTHS), dow: all(DOW) }),
};

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go's time.ParseDuration, in milliseconds. */
export function parseGoDuration(text: string): number {
  const fail = () => new ScheduleError(`time: invalid duration ${JSON.stringify(text)}`);
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s[0] === '-' ? -1 : 1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw fail();
  let total = 0;
  const re = /^(\d*\.?\d*)([a-zµμ]+)/;
  while (s.length > 0) {
    const m = re.exec(s);
    if (!m || m[1] === '' || m[1] === '.') throw fail();
    const unit = UNITS[m[2]!];
    if (unit === undefined) throw new ScheduleError(`time: unknown unit ${JSON.stringify(m[2])} in duration ${JSON.stringify(text)}`);
    total += Number(m[1]) * unit;
    s = s.slice(m[0].length);
  }
  return sign * total;
}

function specSchedule(spec: Spec, zone: Zone): Schedule {
  const dayMatches = (f: { day: number; weekday: number }) => {
    const domMatch = spec.dom.values.has(f.day);
    const dowMatch = spec.dow.values.has(f.weekday);
    return spec.dom.star || spec.dow.star ? domMatch && dowMatch : domMatch || dowMatch;
  };
  return {
    next(from) {
      let t = Math.floor(from / 1000) * 1000 + 1000;
      let added = false;
      const yearLimit = zone.fields(t).year + 5;
      // robfig's search: each field is advanced until it matches; a wrap-around starts over from the month.
      wrap: for (;;) {
        let f = zone.fields(t);
        if (f.year > yearLimit) return undefined;
        while (!spec.month.values.has(f.month)) {
          if (!added) {
            added = true;
            t = zone.date(f.year, f.month, 1, 0, 0, 0);
            f = zone.fields(t);
          }
          t = zone.date(f.year, f.month + 1, f.day, f.hour, f.minute, f.second);
          f = zone.fields(t);
          if (f.month === 1) continue wrap;
        }
        while (!dayMatches(f)) {
          if (!added) {
            added = true;
            t = zone.date(f.year, f.month, f.day, 0, 0, 0);
            f = zone.fields(t);
          }
          t = zone.date(f.year, f.month, f.day + 1, f.hour, f.minute, f.second);
          f = zone.fields(t);
          // Midnight may not exist (DST): move back to it, or on to the next one.
          if (f.hour !== 0) {
            t += (f.hour > 12 ? 24 - f.hour : -f.hour) * 3_600_000;
            f = zone.fields(t);
          }
          if (f.day === 1) continue wrap;
        }
        while (!spec.hour.values.has(f.hour)) {
          if (!added) {
            added = true;
            t = zone.date(f.year, f.month, f.day, f.hour, 0, 0);
          }
          t += 3_600_000;
          f = zone.fields(t);
          if (f.hour === 0) continue wrap;
        }
        while (!spec.minute.values.has(f.minute)) {
          if (!added) {
            added = true;
            t = Math.floor(t / 60_000) * 60_000;
          }
          t += 60_000;
          f = zone.fields(t);
          if (f.minute === 0) continue wrap;
        }
        // The standard parser's seconds field is always 0.
        while (f.second !== 0) {
          if (!added) {
            added = true;
            t = Math.floor(t / 1000) * 1000;
          }
          t += 1000;
          f = zone.fields(t);
          if (f.second === 0) continue wrap;
        }
        return t;
      }
    },
  };
}

/** cron.ParseStandard. Throws ScheduleError with robfig's message. */
export function parseSchedule(text: string): Schedule {
  let spec = text.trim();
  if (spec.length === 0) throw new ScheduleError('empty spec string');
  let zone = UTC;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    const eq = spec.indexOf('=');
    const name = space < 0 ? spec.slice(eq + 1) : spec.slice(eq + 1, space);
    const z = loadZone(name);
    if (!z) throw new ScheduleError(`provided bad location ${name}: unknown time zone ${name}`);
    zone = z;
    spec = space < 0 ? '' : spec.slice(space).trim();
  }
  if (spec.startsWith('@')) {
    const descriptor = DESCRIPTORS[spec];
    if (descriptor) return specSchedule(descriptor(), zone);
    if (spec.startsWith('@every ')) {
      const raw = spec.slice('@every '.length);
      let ms: number;
      try {
        ms = parseGoDuration(raw);
      } catch (e) {
        throw new ScheduleError(`failed to parse duration ${spec}: ${(e as Error).message}`);
      }
      // cron.Every: at least a second, whole seconds.
      const delay = ms < 1000 ? 1000 : ms - (ms % 1000);
      return { next: (from) => Math.floor(from / 1000) * 1000 + delay };
    }
    throw new ScheduleError(`unrecognized descriptor: ${spec}`);
  }
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) throw new ScheduleError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  return specSchedule(
    { minute: field(fields[0]!, MINUTES), hour: field(fields[1]!, HOURS), dom: field(fields[2]!, DOM), month: field(fields[3]!, MONTHS), dow: field(fields[4]!, DOW) },
    zone,
  );
}
