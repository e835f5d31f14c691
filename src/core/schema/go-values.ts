// The error texts of the Go value parsers kube-apiserver runs while decoding a
// request body into built-in types: time.Parse (metav1.Time / MicroTime),
// resource.ParseQuantity and base64 ([]byte fields). Only the errors are
// modelled; the values stay the strings the client sent.

/** Go's time.RFC3339 and metav1's RFC3339Micro layouts. */
export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

function quote(s: string): string {
  return JSON.stringify(s);
}

function cannotParse(layout: string, value: string, rest: string, element: string): string {
  return `parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(rest)} as ${quote(element)}`;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * The error time.Parse returns for `value` in RFC3339 (or RFC3339Micro when
 * `micro`), or undefined when it parses. Follows the layout element by
 * element like Go does, so the element named in the error is Go's.
 */
export function rfc3339ParseError(value: string, micro = false): string | undefined {
  const layout = micro ? RFC3339_MICRO : RFC3339;
  let rest = value;
  const digits = (n: number): number | undefined => {
    if (rest.length < n) return undefined;
    for (let i = 0; i < n; i++) if (rest[i]! < '0' || rest[i]! > '9') return undefined;
    const v = Number(rest.slice(0, n));
    rest = rest.slice(n);
    return v;
  };
  // 1 or 2 digits (Go's getnum with fixed=false).
  const looseDigits = (): number | undefined => {
    if (!(rest[0]! >= '0' && rest[0]! <= '9')) return undefined;
    const n = rest[1] !== undefined && rest[1] >= '0' && rest[1] <= '9' ? 2 : 1;
    return digits(n);
  };
  const literal = (text: string): boolean => {
    if (!rest.startsWith(text)) return false;
    rest = rest.slice(text.length);
    return true;
  };
  const range = (what: string) => `parsing time ${quote(value)}: ${what} out of range`;

  const year = digits(4);
  if (year === undefined) return cannotParse(layout, value, rest, '2006');
  if (!literal('-')) return cannotParse(layout, value, rest, '-');
  let at = rest;
  const month = digits(2);
  if (month === undefined) return cannotParse(layout, value, at, '01');
  if (month < 1 || month > 12) return range('month');
  if (!literal('-')) return cannotParse(layout, value, rest, '-');
  at = rest;
  const day = digits(2);
  if (day === undefined) return cannotParse(layout, value, at, '02');
  if (day > 31) return range('day');
  if (!literal('T')) return cannotParse(layout, value, rest, 'T');
  at = rest;
  const hour = looseDigits();
  if (hour === undefined) return cannotParse(layout, value, at, '15');
  if (hour > 23) return range('hour');
  if (!literal(':')) return cannotParse(layout, value, rest, ':');
  at = rest;
  const minute = digits(2);
  if (minute === undefined) return cannotParse(layout, value, at, '04');
  if (minute > 59) return range('minute');
  if (!literal(':')) return cannotParse(layout, value, rest, ':');
  at = rest;
  const second = digits(2);
  if (second === undefined) return cannotParse(layout, value, at, '05');
  if (second > 59) return range('second');
  if (micro) {
    at = rest;
    if (rest.length < 7 || (rest[0] !== '.' && rest[0] !== ',') || !/^[0-9]{6}/.test(rest.slice(1))) {
      return cannotParse(layout, value, at, '.000000');
    }
    rest = rest.slice(7);
  } else if ((rest[0] === '.' || rest[0] === ',') && rest[1] !== undefined && rest[1] >= '0' && rest[1] <= '9') {
    // A fractional second is accepted after the seconds even when the layout has none.
    let i = 1;
    while (i < rest.length && rest[i]! >= '0' && rest[i]! <= '9') i++;
    rest = rest.slice(i);
  }
  at = rest;
  if (rest[0] === 'Z') {
    rest = rest.slice(1);
  } else {
    if (rest.length < 6 || (rest[0] !== '+' && rest[0] !== '-') || rest[3] !== ':') return cannotParse(layout, value, at, 'Z07:00');
    const zh = rest.slice(1, 3);
    const zm = rest.slice(4, 6);
    if (!/^[0-9]{2}$/.test(zh) || !/^[0-9]{2}$/.test(zm)) return cannotParse(layout, value, at, 'Z07:00');
    if (Number(zh) > 24) return range('time zone offset hour');
    if (Number(zm) > 60) return range('time zone offset minute');
    rest = rest.slice(6);
  }
  if (rest.length > 0) return `parsing time ${quote(value)}: extra text: ${quote(rest)}`;
  if (day < 1 || day > daysIn(month, year)) return `parsing time ${quote(value)}: day out of range`;
  return undefined;
}

const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const QUANTITY_SUFFIXES = new Set(['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E']);

/** The error resource.ParseQuantity returns for `text`, or undefined when it parses. */
export function quantityParseError(text: string): string | undefined {
  const m = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/.exec(text);
  if (!m) return QUANTITY_FORMAT_ERROR;
  const numeric = m[1]!.replace(/^[+-]/, '');
  if (numeric === '.' || (numeric.match(/\./g)?.length ?? 0) > 1) return 'unable to parse numeric part of quantity';
  const suffix = m[2]!;
  if (QUANTITY_SUFFIXES.has(suffix)) return undefined;
  if (/^[eE][+-]?[0-9]+$/.test(suffix)) return undefined;
  return "unable to parse quantity's suffix";
}

const BASE64 = /[A-Za-z0-9+/]/;

/** The error encoding/base64's StdEncoding.Decode returns for `text`, or undefined. */
export function base64DecodeError(text: string): string | undefined {
  // Newlines are skipped by the decoder; positions count them.
  const chars: { c: string; at: number }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n' || c === '\r') continue;
    chars.push({ c, at: i });
  }
  for (let q = 0; q < chars.length; q += 4) {
    const quantum = chars.slice(q, q + 4);
    for (let j = 0; j < quantum.length; j++) {
      const { c, at } = quantum[j]!;
      if (c === '=') {
        // Padding is only valid in the last quantum, at positions 2 or 3, and must complete it.
        const last = q + 4 >= chars.length;
        const validPad = last && quantum.length === 4 && (j === 3 || (j === 2 && quantum[3]!.c === '='));
        if (!validPad) return `illegal base64 data at input byte ${at}`;
        break;
      }
      if (!BASE64.test(c)) return `illegal base64 data at input byte ${at}`;
    }
    // An unpadded final quantum is corrupt from its first character on.
    if (quantum.length < 4) return `illegal base64 data at input byte ${quantum[0]!.at}`;
  }
  return undefined;
}
