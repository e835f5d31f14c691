// How Go prints the JSON values kube-apiserver's patch code works on, for the
// error texts it returns verbatim: fmt's %v and %s of map[string]interface{} /
// []interface{} trees (strategicpatch errors such as
// "map: map[image:nginx] does not contain declared merge key: name"),
// reflect type names (mergepatch.ErrBadArgType) and encoding/json's output.
//
// JSON numbers are plain JS numbers here: integral values print as Go's int64
// (the decoders kube uses keep integers as int64), others as float64.

import { isPlainObject, RawScalar } from './go-json';

const TWO_63 = 2 ** 63;

function isInt64(n: number): boolean {
  return Number.isInteger(n) && n >= -TWO_63 && n < TWO_63;
}

/** fmt's %v of a float64 (strconv 'g', shortest): exponent form when the exponent is < -4 or >= 6, e.g. 1e+06. */
export function goFloatG(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  // JS gives the shortest round-trip digits too; re-lay them out Go's way.
  const [mantissa, expPart] = Math.abs(f).toExponential().split('e');
  const digits = mantissa!.replace('.', '');
  const exp = Number(expPart);
  const sign = f < 0 ? '-' : '';
  if (exp < -4 || exp >= 6) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const e = Math.abs(exp);
    return `${sign}${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

/** fmt's %v of a number decoded by kube's JSON readers (int64 when integral, float64 otherwise). */
export function goNumber(n: number): string {
  return isInt64(n) ? BigInt(n).toString() : goFloatG(n);
}

/** Go sorts map keys byte-wise (UTF-8), which is code-point order. */
export function goCompareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

export function goSortedKeys(obj: Record<string, unknown>): string[] {
  return Object.keys(obj).sort(goCompareStrings);
}

/**
 * fmt.Sprintf("%v") / ("%s") of a decoded JSON value: `map[a:1 b:[x y]]`,
 * `<nil>`; with %s a non-string scalar prints as `%!s(int64=1)`.
 */
export function goSprint(value: unknown, verb: 'v' | 's' = 'v', nested = false): string {
  if (value instanceof RawScalar) return goSprint(value.value, verb, nested);
  // fmt prints a nil inside a map or slice as <nil> whatever the verb.
  if (value === null || value === undefined) return verb === 'v' || nested ? '<nil>' : '%!s(<nil>)';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    const text = goNumber(value);
    return verb === 'v' ? text : `%!s(${isInt64(value) ? 'int64' : 'float64'}=${text})`;
  }
  if (typeof value === 'boolean') return verb === 'v' ? String(value) : `%!s(bool=${value})`;
  if (Array.isArray(value)) return `[${value.map((v) => goSprint(v, verb, true)).join(' ')}]`;
  if (isPlainObject(value)) {
    return `map[${goSortedKeys(value)
      .map((k) => `${k}:${goSprint(value[k], verb, true)}`)
      .join(' ')}]`;
  }
  return String(value);
}

/** reflect.TypeOf(v).String() for a decoded JSON value; fmt's %s of a nil Type for null. */
export function goTypeName(value: unknown): string {
  if (value instanceof RawScalar) return goTypeName(value.value);
  if (value === null || value === undefined) return '%!s(<nil>)';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return isInt64(value) ? 'int64' : 'float64';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return '[]interface {}';
  return 'map[string]interface {}';
}

const HEX = '0123456789abcdef';

/** encoding/json's string encoding (HTML-safe, as kube-apiserver's encoder writes it). */
export function goJsonString(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) {
      switch (c) {
        case 0x22:
          esc = '\\"';
          break;
        case 0x5c:
          esc = '\\\\';
          break;
        case 0x0a:
          esc = '\\n';
          break;
        case 0x0d:
          esc = '\\r';
          break;
        case 0x09:
          esc = '\\t';
          break;
        case 0x08:
          esc = '\\b';
          break;
        case 0x0c:
          esc = '\\f';
          break;
        default:
          esc = `\\u00${HEX[c >> 4]}${HEX[c & 0xf]}`;
      }
    } else if (c === 0x2028 || c === 0x2029) {
      esc = c === 0x2028 ? '\\u2028' : '\\u2029';
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A lone surrogate is invalid UTF-8 for Go: it writes U+FFFD.
      const pair = c < 0xdc00 && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
      if (pair) {
        i++;
        continue;
      }
      esc = '\\ufffd';
    }
    if (esc !== undefined) {
      out += s.slice(start, i) + esc;
      start = i + 1;
    }
  }
  return out + s.slice(start) + '"';
}

/** A JSON number as encoding/json writes a float64 (and an int64 when integral). */
export function goJsonNumber(n: number): string {
  if (isInt64(n) && Math.abs(n) < 1e21) return BigInt(n).toString();
  // Same thresholds as JS for float64 (1e-6, 1e21) and the same exponent layout.
  return JSON.stringify(n);
}

/**
 * json.Marshal of a decoded tree: compact, map keys sorted, HTML-safe strings.
 * RawScalars are written from their source text, as a json.RawMessage is.
 */
export function goJsonMarshal(value: unknown): string {
  if (value instanceof RawScalar) return typeof value.value === 'string' ? htmlEscapeRaw(value.raw) : value.raw;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goJsonString(value);
  if (typeof value === 'number') return goJsonNumber(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(goJsonMarshal).join(',')}]`;
  if (isPlainObject(value)) {
    return `{${goSortedKeys(value)
      .map((k) => `${goJsonString(k)}:${goJsonMarshal(value[k])}`)
      .join(',')}}`;
  }
  return 'null';
}

/** json.Compact with HTML escaping, as json.Marshal applies it to a RawMessage string. */
function htmlEscapeRaw(raw: string): string {
  return raw.replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
