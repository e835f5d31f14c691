// The key pairs the typed compare and merge walks visit (smd treats a key
// holding no value as absent).

import { describe, expect, it } from 'vitest';
import { isEmptyMap, zipMaps } from './map-entries';

describe('zipMaps', () => {
  it('visits lhs keys in order with both values, then the keys only rhs has', () => {
    const seen: unknown[] = [];
    zipMaps({ b: 1, a: 2, u: undefined }, { a: 3, c: 4, u: 5 }, (k, l, r) => seen.push([k, l, r]));
    expect(seen).toEqual([
      ['b', 1, undefined],
      ['a', 2, 3],
      ['c', undefined, 4],
      ['u', undefined, 5],
    ]);
  });

  it('takes a missing side as empty and ignores inherited keys', () => {
    const seen: string[] = [];
    zipMaps(undefined, Object.assign(Object.create({ inherited: 1 }), { own: 1 }), (k) => seen.push(k));
    zipMaps({ x: null }, undefined, (k) => seen.push(k));
    expect(seen).toEqual(['own', 'x']);
  });
});

describe('isEmptyMap', () => {
  it('counts only present own members', () => {
    expect(isEmptyMap({})).toBe(true);
    expect(isEmptyMap({ a: undefined })).toBe(true);
    expect(isEmptyMap({ a: null })).toBe(false);
  });
});
