// `date`: the cluster's time (ShellIO.now) as busybox and coreutils print
// it, in UTC (containers have no zone configured): the default
// `Sat Nov 28 17:42:17 UTC 2026`, `+FORMAT` with strftime's conversions,
// `-I`/`--iso-8601`, `-R`/`--rfc-email`, `--rfc-3339`, `-d`/`--date` for a
// given time (`@1700000000`, ISO forms).

import type { CommandContext } from '../command';
import { parseOptions } from './options';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export const DEFAULT_DATE_FORMAT = '%a %b %e %H:%M:%S %Z %Y';

function pad(value: number, width: number, fill = '0'): string {
  return String(value).padStart(width, fill);
}

function dayOfYear(date: Date): number {
  const start = Date.UTC(date.getUTCFullYear(), 0, 1);
  return Math.floor((date.getTime() - start) / 86_400_000) + 1;
}

/** ISO 8601 week number and its year. */
function isoWeek(date: Date): { week: number; year: number } {
  const day = (date.getUTCDay() + 6) % 7; // Monday = 0
  const thursday = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - day + 3));
  const year = thursday.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(year, 0, 4));
  const week = 1 + Math.round((thursday.getTime() - firstThursday.getTime()) / 86_400_000 / 7 - ((firstThursday.getUTCDay() + 6) % 7 - 3) / 7);
  return { week, year };
}

/** strftime in UTC; `ms` is the time in ms since the epoch (sub-millisecond digits of %N are 0). */
export function formatDate(ms: number, format: string): string {
  const date = new Date(ms);
  const h = date.getUTCHours();
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c !== '%' || i + 1 >= format.length) {
      out += c;
      continue;
    }
    // Flags and width: %-d (no padding), %_d (spaces), %3N (digits of %N)
    let j = i + 1;
    let flag = '';
    if ('-_0^#'.includes(format[j]!)) flag = format[j++]!;
    let width = '';
    while (/[0-9]/.test(format[j] ?? '')) width += format[j++];
    if (format[j] === ':' && format[j + 1] === 'z') {
      out += '+00:00';
      i = j + 1;
      continue;
    }
    const conversion = format[j];
    i = j;
    const num = (value: number, digits: number, fill = '0'): string => {
      if (flag === '-') return String(value);
      if (flag === '_') return pad(value, digits, ' ');
      return pad(value, digits, fill);
    };
    switch (conversion) {
      case 'a': out += DAYS[date.getUTCDay()]!.slice(0, 3); break;
      case 'A': out += DAYS[date.getUTCDay()]; break;
      case 'b':
      case 'h': out += MONTHS[date.getUTCMonth()]!.slice(0, 3); break;
      case 'B': out += MONTHS[date.getUTCMonth()]; break;
      case 'c': out += formatDate(ms, '%a %b %e %H:%M:%S %Y'); break;
      case 'C': out += num(Math.floor(date.getUTCFullYear() / 100), 2); break;
      case 'd': out += num(date.getUTCDate(), 2); break;
      case 'D': out += formatDate(ms, '%m/%d/%y'); break;
      case 'e': out += num(date.getUTCDate(), 2, ' '); break;
      case 'F': out += formatDate(ms, '%Y-%m-%d'); break;
      case 'g': out += num(isoWeek(date).year % 100, 2); break;
      case 'G': out += isoWeek(date).year; break;
      case 'H': out += num(h, 2); break;
      case 'I': out += num(h % 12 || 12, 2); break;
      case 'j': out += num(dayOfYear(date), 3); break;
      case 'k': out += num(h, 2, ' '); break;
      case 'l': out += num(h % 12 || 12, 2, ' '); break;
      case 'm': out += num(date.getUTCMonth() + 1, 2); break;
      case 'M': out += num(date.getUTCMinutes(), 2); break;
      case 'n': out += '\n'; break;
      case 'N': {
        const nanos = pad(Math.floor(((ms % 1000) + 1000) % 1000) * 1_000_000, 9);
        out += width ? nanos.slice(0, Number(width)) : nanos;
        break;
      }
      case 'p': out += h < 12 ? 'AM' : 'PM'; break;
      case 'P': out += h < 12 ? 'am' : 'pm'; break;
      case 'r': out += formatDate(ms, '%I:%M:%S %p'); break;
      case 'R': out += formatDate(ms, '%H:%M'); break;
      case 's': out += Math.floor(ms / 1000); break;
      case 'S': out += num(date.getUTCSeconds(), 2); break;
      case 't': out += '\t'; break;
      case 'T': out += formatDate(ms, '%H:%M:%S'); break;
      case 'u': out += date.getUTCDay() || 7; break;
      case 'U': out += num(Math.floor((dayOfYear(date) - 1 - date.getUTCDay() + 7) / 7), 2); break;
      case 'V': out += num(isoWeek(date).week, 2); break;
      case 'w': out += date.getUTCDay(); break;
      case 'W': out += num(Math.floor((dayOfYear(date) - 1 - ((date.getUTCDay() + 6) % 7) + 7) / 7), 2); break;
      case 'x': out += formatDate(ms, '%m/%d/%y'); break;
      case 'X': out += formatDate(ms, '%H:%M:%S'); break;
      case 'y': out += num(date.getUTCFullYear() % 100, 2); break;
      case 'Y': out += date.getUTCFullYear(); break;
      case 'z': out += '+0000'; break;
      case 'Z': out += 'UTC'; break;
      case '%': out += '%'; break;
      default: out += '%' + flag + width + (conversion ?? '');
    }
  }
  return out;
}

/** A time `date -d` accepts: `@seconds`, `now`, ISO dates and times (UTC unless a zone is given). */
export function parseDateString(text: string, now: number): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'now') return now;
  const epoch = /^@(-?[0-9]+(?:\.[0-9]+)?)$/.exec(trimmed);
  if (epoch) return Math.round(Number(epoch[1]) * 1000);
  const iso = /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]+))?)?)?\s*(Z|UTC|[+-][0-9]{2}:?[0-9]{2})?$/.exec(trimmed);
  if (iso) {
    const [, y, mo, d, hh = '0', mm = '0', ss = '0', frac = '', zone] = iso;
    let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(hh), Number(mm), Number(ss), Number((frac + '000').slice(0, 3)));
    if (zone && zone !== 'Z' && zone !== 'UTC') {
      const sign = zone.startsWith('-') ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
    }
    return ms;
  }
  const relative = /^([+-]?[0-9]+)\s*(second|sec|minute|min|hour|day|week)s?(\s+ago)?$/.exec(trimmed);
  if (relative) {
    const unit = { second: 1, sec: 1, minute: 60, min: 60, hour: 3600, day: 86400, week: 604800 }[relative[2] as 'second'];
    const sign = relative[3] ? -1 : 1;
    return now + sign * Number(relative[1]) * unit * 1000;
  }
  return undefined;
}

export async function date(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, {
    flags: 'uR',
    values: 'dr',
    long: { utc: 'u', universal: 'u', date: 'd', 'rfc-email': 'R', 'rfc-2822': 'R', reference: 'r' },
  });
  // -I takes an optional attached value, which getopt-style parsing cannot express: handled first.
  let iso: string | undefined;
  let rfc3339: string | undefined;
  const args: string[] = [];
  for (const arg of ctx.args) {
    const isoMatch = /^(?:-I|--iso-8601)(?:=?(date|hours|minutes|seconds|ns))?$/.exec(arg);
    const rfcMatch = /^--rfc-3339=(date|seconds|ns)$/.exec(arg);
    if (isoMatch) iso = isoMatch[1] ?? 'date';
    else if (rfcMatch) rfc3339 = rfcMatch[1];
    else args.push(arg);
  }
  const options = iso !== undefined || rfc3339 !== undefined ? parseOptions(args, { flags: 'uR', values: 'd', long: { utc: 'u', date: 'd' } }) : parsed;
  if (options.error) {
    await ctx.err(`date: ${options.error}\n`);
    return 1;
  }
  let ms = ctx.io.now();
  const given = options.flags.get('d');
  if (given !== undefined) {
    const parsedTime = parseDateString(given, ms);
    if (parsedTime === undefined) {
      await ctx.err(`date: invalid date '${given}'\n`);
      return 1;
    }
    ms = parsedTime;
  }
  let format = DEFAULT_DATE_FORMAT;
  const operand = options.operands[0];
  if (operand !== undefined) {
    if (!operand.startsWith('+')) {
      // Setting the clock: a container has no CAP_SYS_TIME.
      await ctx.err(`date: can't set date: Operation not permitted\n`);
      return 1;
    }
    format = operand.slice(1);
  } else if (iso !== undefined) {
    format = { date: '%Y-%m-%d', hours: '%Y-%m-%dT%H%:z', minutes: '%Y-%m-%dT%H:%M%:z', seconds: '%Y-%m-%dT%H:%M:%S%:z', ns: '%Y-%m-%dT%H:%M:%S,%N%:z' }[iso]!;
  } else if (rfc3339 !== undefined) {
    format = { date: '%Y-%m-%d', seconds: '%Y-%m-%d %H:%M:%S%:z', ns: '%Y-%m-%d %H:%M:%S.%N%:z' }[rfc3339]!;
  } else if (options.flags.has('R')) {
    format = '%a, %d %b %Y %H:%M:%S %z';
  }
  await ctx.out(formatDate(ms, format) + '\n');
  return 0;
}
