// How Go prints and encodes the values that end up in managed fields and in
// the texts of server-side apply errors:
//
// - the JSON inside `k:{…}` and `v:…` path elements (json-iterator configured
//   like encoding/json: HTML characters escaped in values, map keys sorted);
// - value.ToString (strconv.Quote for strings), used in `[name="x"]` paths;
// - fmt's %v / %#v / %T of smd values, used in typed validation errors.

import { compareStrings, isObject } from './compare';

const HEX = '0123456789abcdef';

function isSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdfff;
}

/** A JSON string literal as encoding/json (escapeHTML) or json-iterator's plain WriteString writes it. */
export function goJsonString(s: string, escapeHTML: boolean): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x20) {
      if (c === 0x0a) esc = '\\n';
      else if (c === 0x0d) esc = '\\r';
      else if (c === 0x09) esc = '\\t';
      else esc = '\\u00' + HEX[c >> 4] + HEX[c & 0xf];
    } else if (c === 0x22) esc = '\\"';
    else if (c === 0x5c) esc = '\\\\';
    else if (escapeHTML && (c === 0x3c || c === 0x3e || c === 0x26)) esc = '\\u00' + HEX[c >> 4] + HEX[c & 0xf];
    else if (escapeHTML && (c === 0x2028 || c === 0x2029)) esc = c === 0x2028 ? '\\u2028' : '\\u2029';
    else if (isSurrogate(c)) {
      // A valid pair passes through; a lone surrogate is invalid UTF-8 to Go, written as U+FFFD.
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      esc = escapeHTML ? '\\ufffd' : '\ufffd';
    }
    if (esc !== undefined) {
      out += s.slice(start, i) + esc;
      start = i + 1;
    }
  }
  return out + s.slice(start) + '"';
}

/** encoding/json's rendering of a float64 (shortest repr; exponent below 1e-6 and from 1e21). */
export function goJsonNumber(n: number): string {
  if (Object.is(n, -0)) return '-0';
  return String(n);
}

/** json.Marshal of a decoded JSON value: map keys sorted, HTML characters escaped. */
export function goJsonValue(v: unknown, escapeHTML = true): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return goJsonString(v, escapeHTML);
    case 'number':
      return goJsonNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (Array.isArray(v)) return '[' + v.map((x) => goJsonValue(x, escapeHTML)).join(',') + ']';
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj).sort(compareStrings);
  return '{' + keys.map((k) => goJsonString(k, escapeHTML) + ':' + goJsonValue(obj[k], escapeHTML)).join(',') + '}';
}

// Printable per Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

export function isGoPrintable(ch: string): boolean {
  return PRINTABLE.test(ch);
}

/** strconv.Quote (fmt's %q of a string). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const r = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (r >= 0xd800 && r <= 0xdfff) out += '\\ufffd';
    else if (isGoPrintable(ch)) out += ch;
    else if (r === 7) out += '\\a';
    else if (r === 8) out += '\\b';
    else if (r === 12) out += '\\f';
    else if (r === 10) out += '\\n';
    else if (r === 13) out += '\\r';
    else if (r === 9) out += '\\t';
    else if (r === 11) out += '\\v';
    else if (r < 0x20 || r === 0x7f) out += '\\x' + HEX[r >> 4] + HEX[r & 0xf];
    else if (r < 0x10000) out += '\\u' + r.toString(16).padStart(4, '0');
    else out += '\\U' + r.toString(16).padStart(8, '0');
  }
  return out + '"';
}

/** strconv.FormatFloat(f, 'g', -1, 64), which fmt's %v uses for a float64. */
export function goFormatFloat(f: number): string {
  if (!Number.isFinite(f)) return Number.isNaN(f) ? 'NaN' : f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, expText] = f.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  // Go switches to exponent form when the exponent is < -4 or >= 6 (its precision for "shortest").
  if (exp < -4 || exp >= 6) {
    const abs = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${abs < 10 ? '0' + abs : abs}`;
  }
  return String(f);
}

/** fmt's %v of a number held in an interface: int64 when integral, float64 otherwise. */
function goNumber(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63 ? String(n) : goFormatFloat(n);
}

/** value.ToString: the rendering of keys and set members in field paths (`[name="x"]`, `[=80]`). */
export function valueToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'number':
      return goNumber(v);
    case 'string':
      return goQuote(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (Array.isArray(v)) return '[' + v.map(valueToString).join(',') + ']';
  const obj = v as Record<string, unknown>;
  return Object.keys(obj)
    .sort(compareStrings)
    .map((k) => `${k}=${valueToString(obj[k])}`)
    .join('');
}

/** fmt's %v of an unstructured Go value. */
export function goPlain(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  switch (typeof v) {
    case 'number':
      return goNumber(v);
    case 'string':
      return v;
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (Array.isArray(v)) return '[' + v.map(goPlain).join(' ') + ']';
  const obj = v as Record<string, unknown>;
  return (
    'map[' +
    Object.keys(obj)
      .sort(compareStrings)
      .map((k) => `${k}:${goPlain(obj[k])}`)
      .join(' ') +
    ']'
  );
}

/** fmt's %#v of an unstructured Go value. */
export function goSyntax(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  switch (typeof v) {
    case 'number':
      return goNumber(v);
    case 'string':
      return goQuote(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (Array.isArray(v)) return '[]interface {}{' + v.map(goSyntax).join(', ') + '}';
  const obj = v as Record<string, unknown>;
  return (
    'map[string]interface {}{' +
    Object.keys(obj)
      .sort(compareStrings)
      .map((k) => `${goQuote(k)}:${goSyntax(obj[k])}`)
      .join(', ') +
    '}'
  );
}

/** fmt's %T of an unstructured Go value. */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) ? 'int64' : 'float64';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
  }
  return Array.isArray(v) ? '[]interface {}' : isObject(v) ? 'map[string]interface {}' : 'interface {}';
}

/** %v of an smd value.Value (a pointer to valueUnstructured): `&{…}`. */
export function smdValuePlain(v: unknown): string {
  return `&{${goPlain(v)}}`;
}

/** %#v of an smd value.Value. */
export function smdValueSyntax(v: unknown): string {
  return `&value.valueUnstructured{Value:${goSyntax(v)}}`;
}
