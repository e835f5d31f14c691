// Total order and equality of JSON values, as structured-merge-diff's value
// package defines them. The order decides how set members (`v:`) and list-map
// keys (`k:`) are sorted in a field set, and therefore the byte order of
// metadata.managedFields.
//
// Go distinguishes int64 from float64 but compares them numerically, so plain
// JS numbers give the same answers. Types rank: numbers < strings < booleans
// < lists < maps < null.

import { compareGoStrings } from '../../util/go/strings';

/** A JSON value as decoded from a request body or stored object. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function rank(v: unknown): number {
  switch (typeof v) {
    case 'number':
      return 0;
    case 'string':
      return 1;
    case 'boolean':
      return 2;
    case 'object':
      if (v === null) return 5;
      return Array.isArray(v) ? 3 : 4;
    default:
      return 5;
  }
}

/** value.Compare: -1, 0 or 1. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return compareGoStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const la = a as unknown[];
      const lb = b as unknown[];
      for (let i = 0; ; i++) {
        if (i >= la.length && i >= lb.length) return 0;
        if (i >= la.length) return -1;
        if (i >= lb.length) return 1;
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
    }
    case 4:
      return compareMaps(a as Record<string, unknown>, b as Record<string, unknown>);
    default:
      return 0;
  }
}

/** MapCompare: keys zipped in sorted order; a missing key sorts after a present one. */
function compareMaps(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length === 0 && kb.length === 0) return 0;
  const keys = [...new Set([...ka, ...kb])].sort(compareGoStrings);
  let i = 0;
  for (const key of keys) {
    let c: number;
    if (i === ka.length) c = -1;
    else if (i === kb.length) c = 1;
    else if (!Object.hasOwn(a, key)) c = 1;
    else if (!Object.hasOwn(b, key)) c = -1;
    else c = compareValues(a[key], b[key]);
    i++;
    if (c !== 0) return c;
  }
  return 0;
}

/** value.Equals: deep equality, numbers compared numerically, map key order ignored. */
export function equalValues(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equalValues(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let count = 0;
  for (const key in ra) {
    if (!Object.prototype.hasOwnProperty.call(ra, key)) continue;
    count++;
    if (!Object.prototype.hasOwnProperty.call(rb, key)) return false;
    if (!equalValues(ra[key], rb[key])) return false;
  }
  let countB = 0;
  for (const key in rb) if (Object.prototype.hasOwnProperty.call(rb, key)) countB++;
  return count === countB;
}
