// What an unquoted YAML scalar means to go-yaml v2, the YAML 1.1 reader
// behind sigs.k8s.io/yaml that kube-apiserver decodes YAML bodies with (and
// whose rules decide which strings its YAML output must quote):
// - y/Y/yes/Yes/YES/on/On/ON/true/True/TRUE are true, the n/no/off/false
//   families false; ~, null, Null, NULL and the empty scalar are null;
// - integers in Go syntax after removing "_": 0x hex, 0o and leading-0 octal,
//   0b binary, with a sign; out of int64 range they try uint64, then float;
// - floats like 1.5, .5, 1e3, +.5, and .inf/.nan spelled in YAML;
// - timestamps (2006-01-02, with a time and zone) stay strings when decoded,
//   but are still "not a string" when deciding whether to quote on output;
// - "<<" is the merge key.
// Base-60 numbers (1:20) are strings on input but quoted on output.

export type Resolved =
  | { readonly tag: 'str' }
  | { readonly tag: 'null' }
  | { readonly tag: 'bool'; readonly value: boolean }
  | { readonly tag: 'int'; readonly value: bigint }
  | { readonly tag: 'float'; readonly value: number }
  | { readonly tag: 'timestamp' }
  | { readonly tag: 'merge' };

const STR: Resolved = { tag: 'str' };
const NULL: Resolved = { tag: 'null' };

const MAP: ReadonlyMap<string, Resolved> = new Map<string, Resolved>([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'].map((s): [string, Resolved] => [s, { tag: 'bool', value: true }]),
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map((s): [string, Resolved] => [s, { tag: 'bool', value: false }]),
  ...['', '~', 'null', 'Null', 'NULL'].map((s): [string, Resolved] => [s, NULL]),
  ...['.nan', '.NaN', '.NAN'].map((s): [string, Resolved] => [s, { tag: 'float', value: NaN }]),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((s): [string, Resolved] => [s, { tag: 'float', value: Infinity }]),
  ...['-.inf', '-.Inf', '-.INF'].map((s): [string, Resolved] => [s, { tag: 'float', value: -Infinity }]),
  ['<<', { tag: 'merge' }],
]);

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** The resolve table's hint for the first byte: S(ign), D(igit), M(ap), '.', or none. */
function hint(s: string): string {
  if (s === '') return 'N';
  const c = s[0]!;
  if (c === '+' || c === '-') return 'S';
  if (c >= '0' && c <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(c)) return 'M';
  if (c === '.') return '.';
  return '';
}

/** strconv.ParseInt / ParseUint with base 0 (Go literal syntax); undefined when not an integer. */
function parseGoInt(s: string, signed: boolean): bigint | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  if (m[1] && !signed) return undefined;
  const body = m[2]!;
  let n: bigint;
  if (/^0[oO]/.test(body)) n = BigInt(`0o${body.slice(2)}`);
  else if (/^0[xXbB]/.test(body)) n = BigInt(body.toLowerCase());
  else if (body.length > 1 && body[0] === '0') n = BigInt(`0o${body.slice(1)}`);
  else n = BigInt(body);
  if (m[1] === '-') n = -n;
  if (signed ? n < -(2n ** 63n) || n > 2n ** 63n - 1n : n > 2n ** 64n - 1n) return undefined;
  return n;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const TIMESTAMP = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:([Tt ])(\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** go-yaml's parseTimestamp: the layouts 2006-1-2T15:4:5.999999999Z07:00 (T or t), "2006-1-2 15:4:5.999999999" and 2006-1-2. */
export function isYamlTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (!m) return false;
  const [, y, mo, d, sep, h, mi, se, zone] = m;
  // The zone is required after T/t and not allowed after a space.
  if (sep && (sep === ' ') !== (zone === undefined)) return false;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (day > (month === 2 && leap ? 29 : DAYS[month - 1]!)) return false;
  if (sep && (Number(h) > 23 || Number(mi) > 59 || Number(se) > 59)) return false;
  // Go accepts offsets up to 24 hours and 60 minutes.
  if (zone && zone !== 'Z' && (Number(zone.slice(1, 3)) > 24 || Number(zone.slice(4)) > 60)) return false;
  return true;
}

/** resolve("", s): the type an unquoted scalar has. */
export function resolvePlain(s: string): Resolved {
  const h = hint(s);
  if (!h) return STR;
  const known = MAP.get(s);
  if (known) return known;
  if (h === '.') return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s) ? { tag: 'float', value: Number(s) } : STR;
  if (h === 'D' || h === 'S') {
    if (isYamlTimestamp(s)) return { tag: 'timestamp' };
    const plain = s.replace(/_/g, '');
    const int = parseGoInt(plain, true) ?? parseGoInt(plain, false);
    if (int !== undefined) return { tag: 'int', value: int };
    // A decimal integer beyond 64 bits matches the float pattern and becomes a float64.
    if (YAML_STYLE_FLOAT.test(plain)) return { tag: 'float', value: Number(plain) };
    // What is left and still too big (a long hex literal) go-yaml keeps as a big.Int.
    const hex = /^([+-]?)0[xX]([0-9a-fA-F]+)$/.exec(plain);
    if (hex) return { tag: 'int', value: (hex[1] === '-' ? -1n : 1n) * BigInt(`0x${hex[2]}`) };
  }
  return STR;
}

/** isBase60Float: quoted on output for other YAML 1.1 readers. */
export function isBase60Float(s: string): boolean {
  return s !== '' && /^[-+0-9]/.test(s) && s.includes(':') && BASE60_FLOAT.test(s);
}

/** Whether go-yaml must quote the string so that it reads back as a string. */
export function resolvesToNonString(s: string): boolean {
  return resolvePlain(s).tag !== 'str' || isBase60Float(s);
}
