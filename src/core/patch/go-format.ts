// How Go prints the JSON values kube-apiserver's patch code works on, for the
// error texts it returns verbatim: fmt's %v and %s of map[string]interface{} /
// []interface{} trees (strategicpatch errors such as
// "map: map[image:nginx] does not contain declared merge key: name"),
// reflect type names (mergepatch.ErrBadArgType) and encoding/json's output.
//
// JSON numbers are plain JS numbers here: integral values print as Go's int64
// (the decoders kube uses keep integers as int64), others as float64.

import { formatFloatG } from '../util/go/format-float';
import { goJsonString } from '../util/go/json-string';
import { printGoTree, type GoTreePrinter } from '../util/go/print-tree';
import { goSortedKeys } from '../util/go/strings';
import { isPlainObject, RawScalar } from './go-json';

/** protobuf's encoder sorts map keys with this (Go's byte order). */
export { compareGoStrings as goCompareStrings } from '../util/go/strings';

const TWO_63 = 2 ** 63;

function isInt64(n: number): boolean {
  return Number.isInteger(n) && n >= -TWO_63 && n < TWO_63;
}

/** fmt's %v of a number decoded by kube's JSON readers (int64 when integral, float64 otherwise). */
export function goNumber(n: number): string {
  return isInt64(n) ? BigInt(n).toString() : formatFloatG(n);
}

/**
 * fmt.Sprintf("%v") / ("%s") of a decoded JSON value: `map[a:1 b:[x y]]`,
 * `<nil>`; with %s a non-string scalar prints as `%!s(int64=1)`.
 */
export function goSprint(value: unknown, verb: 'v' | 's' = 'v', nested = false): string {
  return printGoTree(value, verb === 'v' ? SPRINT_V : SPRINT_S, nested);
}

function sprintPrinter(verb: 'v' | 's'): GoTreePrinter {
  return {
    scalar(value, nested) {
      // fmt prints a nil inside a map or slice as <nil> whatever the verb.
      if (value === null || value === undefined) return verb === 'v' || nested ? '<nil>' : '%!s(<nil>)';
      if (typeof value === 'string') return value;
      if (typeof value === 'number') {
        const text = goNumber(value);
        return verb === 'v' ? text : `%!s(${isInt64(value) ? 'int64' : 'float64'}=${text})`;
      }
      if (typeof value === 'boolean') return verb === 'v' ? String(value) : `%!s(bool=${value})`;
      return String(value);
    },
    list: (items) => `[${items.join(' ')}]`,
    map: (entries) => `map[${entries.map(([k, text]) => `${k}:${text}`).join(' ')}]`,
    unwrap: (value) => (value instanceof RawScalar ? value.value : value),
  };
}

const SPRINT_V = sprintPrinter('v');
const SPRINT_S = sprintPrinter('s');

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
