// Path elements: one step from a value to a child (smd fieldpath.PathElement).
//
//   field  .name         a struct field or a map key          serialized f:name
//   key    [name="x"]    an element of a list-map, by its keys k:{"name":"x"}
//   value  [=80]         an element of a set, by its value    v:80
//   index  [3]           an element of a non-associative list i:3
//
// Elements are ordered field < key < value < index, then by content; that
// order is the order of keys in a managed-fields entry's fieldsV1.

import { goJsonString } from '../../util/go/json-string';
import { compareGoStrings } from '../../util/go/strings';
import { compareValues, equalValues, isObject } from '../value/compare';
import { goJsonValue, valueToString } from '../value/go-format';

export const FIELD = 0;
export const KEY = 1;
export const VALUE = 2;
export const INDEX = 3;

/** One key field of a list-map element; a key's fields are sorted by name. */
export interface KeyField {
  readonly name: string;
  readonly value: unknown;
}

export type PathElement =
  | { readonly t: typeof FIELD; readonly name: string }
  | { readonly t: typeof KEY; readonly key: readonly KeyField[] }
  | { readonly t: typeof VALUE; readonly value: unknown }
  | { readonly t: typeof INDEX; readonly index: number };

export type Path = readonly PathElement[];

export function fieldElement(name: string): PathElement {
  return { t: FIELD, name };
}

/** A key element; fields are sorted by name as smd's FieldList.Sort does. */
export function keyElement(fields: readonly KeyField[]): PathElement {
  const key = fields.length > 1 ? [...fields].sort((a, b) => compareGoStrings(a.name, b.name)) : fields;
  return { t: KEY, key };
}

export function valueElement(value: unknown): PathElement {
  return { t: VALUE, value };
}

export function indexElement(index: number): PathElement {
  return { t: INDEX, index };
}

function compareKeys(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareGoStrings(a[i]!.name, b[i]!.name);
    if (c !== 0) return c;
    const d = compareValues(a[i]!.value, b[i]!.value);
    if (d !== 0) return d;
  }
}

export function compareElements(a: PathElement, b: PathElement): number {
  if (a.t !== b.t) return a.t < b.t ? -1 : 1;
  switch (a.t) {
    case FIELD: {
      const x = a.name;
      const y = (b as { name: string }).name;
      if (x === y) return 0;
      return compareGoStrings(x, y);
    }
    case KEY:
      return compareKeys(a.key, (b as { key: readonly KeyField[] }).key);
    case VALUE:
      return compareValues(a.value, (b as { value: unknown }).value);
    default: {
      const y = (b as { index: number }).index;
      return a.index < y ? -1 : a.index > y ? 1 : 0;
    }
  }
}

export function equalElements(a: PathElement, b: PathElement): boolean {
  if (a.t !== b.t) return false;
  switch (a.t) {
    case FIELD:
      return a.name === (b as { name: string }).name;
    case KEY: {
      const bk = (b as { key: readonly KeyField[] }).key;
      if (a.key.length !== bk.length) return false;
      for (let i = 0; i < bk.length; i++) {
        if (a.key[i]!.name !== bk[i]!.name || !equalValues(a.key[i]!.value, bk[i]!.value)) return false;
      }
      return true;
    }
    case VALUE:
      return equalValues(a.value, (b as { value: unknown }).value);
    default:
      return a.index === (b as { index: number }).index;
  }
}

/** PathElement.String(): `.name`, `[name="x",port=80]`, `[=value]`, `[3]`. */
export function elementString(pe: PathElement): string {
  switch (pe.t) {
    case FIELD:
      return '.' + pe.name;
    case KEY:
      return '[' + pe.key.map((f) => `${f.name}=${valueToString(f.value)}`).join(',') + ']';
    case VALUE:
      return `[=${valueToString(pe.value)}]`;
    default:
      return `[${pe.index}]`;
  }
}

/** Path.String(): the field path kube-apiserver prints in conflicts, e.g. `.spec.template.spec.containers[name="a"].image`. */
export function pathString(path: Path): string {
  let out = '';
  for (const pe of path) out += elementString(pe);
  return out;
}

/**
 * The fieldsV1 key of an element. Key and value contents are JSON written
 * the way smd writes them: key names plain, values with HTML characters
 * escaped and map keys sorted.
 */
export function serializeElement(pe: PathElement): string {
  switch (pe.t) {
    case FIELD:
      return 'f:' + pe.name;
    case KEY:
      return 'k:{' + pe.key.map((f) => goJsonString(f.name, 'json-iterator-plain') + ':' + goJsonValue(f.value)).join(',') + '}';
    case VALUE:
      return 'v:' + goJsonValue(pe.value);
    default:
      return 'i:' + pe.index;
  }
}

/** Thrown for a fieldsV1 key smd cannot parse (an unknown prefix is not an error: it is skipped). */
export class PathElementSyntaxError extends Error {}

/** DeserializePathElement; returns undefined for an element type this version does not know. */
export function deserializeElement(s: string): PathElement | undefined {
  if (s.length < 2) throw new PathElementSyntaxError('key must be 2 characters long:');
  if (s[1] !== ':') throw new PathElementSyntaxError(`missing colon: ${s}`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return fieldElement(body);
    case 'v':
      return valueElement(parseJson(body));
    case 'k': {
      const parsed = parseJson(body);
      if (!isObject(parsed)) throw new PathElementSyntaxError(`ReadObjectCB: expect { or n, but found ${body[0] ?? ''}`);
      return keyElement(Object.keys(parsed).map((name) => ({ name, value: parsed[name] })));
    }
    case 'i': {
      if (!/^[+-]?\d+$/.test(body)) throw new PathElementSyntaxError(`strconv.Atoi: parsing ${JSON.stringify(body)}: invalid syntax`);
      return indexElement(Number(body));
    }
    default:
      return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new PathElementSyntaxError(e instanceof Error ? e.message : String(e));
  }
}
