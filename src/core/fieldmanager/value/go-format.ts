// How Go prints and encodes the values that end up in managed fields and in
// the texts of server-side apply errors:
//
// - the JSON inside `k:{…}` and `v:…` path elements (json-iterator configured
//   like encoding/json: HTML characters escaped in values, map keys sorted);
// - value.ToString (strconv.Quote for strings), used in `[name="x"]` paths;
// - fmt's %v / %#v / %T of smd values, used in typed validation errors.
//
// The Go primitives (strconv.Quote, FormatFloat, JSON string escaping, map
// order) are shared with the other modules in ../../util/go.

import { formatFloatG } from '../../util/go/format-float';
import { goJsonString } from '../../util/go/json-string';
import { printGoTree, type GoTreePrinter } from '../../util/go/print-tree';
import { goQuote } from '../../util/go/quote';
import { compareGoStrings } from '../../util/go/strings';
import { isObject } from './compare';

/** encoding/json's rendering of a float64 (shortest repr; exponent below 1e-6 and from 1e21). */
export function goJsonNumber(n: number): string {
  if (Object.is(n, -0)) return '-0';
  return String(n);
}

/**
 * Marshal of a decoded JSON value, map keys sorted, HTML characters escaped:
 * json-iterator's by default (managedFields), or encoding/json's, which writes
 * \b and \f as such (the unstructured encoder behind the last-applied annotation).
 */
export function goJsonValue(v: unknown, writer: 'json-iterator' | 'encoding/json' = 'json-iterator'): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return goJsonString(v, writer);
    case 'number':
      return goJsonNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (Array.isArray(v)) return '[' + v.map((x) => goJsonValue(x, writer)).join(',') + ']';
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj).sort(compareGoStrings);
  return '{' + keys.map((k) => goJsonString(k, writer) + ':' + goJsonValue(obj[k], writer)).join(',') + '}';
}

/** fmt's %v of a number held in an interface: int64 when integral, float64 otherwise. */
function goNumber(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63 ? String(n) : formatFloatG(n);
}

/** The scalars every printer below writes alike: numbers and booleans. */
function goScalar(v: unknown, nil: string, str: (s: string) => string): string {
  if (v === null || v === undefined) return nil;
  switch (typeof v) {
    case 'number':
      return goNumber(v);
    case 'string':
      return str(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  return String(v);
}

const identity = (s: string): string => s;

/** value.ToString: `"x"`, `80`, `[1,"a"]`, `a=1b="x"`. */
const TO_STRING: GoTreePrinter = {
  scalar: (v) => goScalar(v, 'null', goQuote),
  list: (items) => '[' + items.join(',') + ']',
  map: (entries) => entries.map(([k, text]) => `${k}=${text}`).join(''),
};

/** fmt's %v: `<nil>`, `x`, `[1 a]`, `map[a:1 b:x]`. */
const PLAIN: GoTreePrinter = {
  scalar: (v) => goScalar(v, '<nil>', identity),
  list: (items) => '[' + items.join(' ') + ']',
  map: (entries) => 'map[' + entries.map(([k, text]) => `${k}:${text}`).join(' ') + ']',
};

/** fmt's %#v: `interface {}(nil)`, `"x"`, `[]interface {}{1, "a"}`, `map[string]interface {}{"a":1}`. */
const SYNTAX: GoTreePrinter = {
  scalar: (v) => goScalar(v, 'interface {}(nil)', goQuote),
  list: (items) => '[]interface {}{' + items.join(', ') + '}',
  map: (entries) => 'map[string]interface {}{' + entries.map(([k, text]) => `${goQuote(k)}:${text}`).join(', ') + '}',
};

/** value.ToString: the rendering of keys and set members in field paths (`[name="x"]`, `[=80]`). */
export function valueToString(v: unknown): string {
  return printGoTree(v, TO_STRING);
}

/** fmt's %v of an unstructured Go value. */
export function goPlain(v: unknown): string {
  return printGoTree(v, PLAIN);
}

/** fmt's %#v of an unstructured Go value. */
export function goSyntax(v: unknown): string {
  return printGoTree(v, SYNTAX);
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
