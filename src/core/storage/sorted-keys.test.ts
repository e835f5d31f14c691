// SortedKeys hands out its keys in ascending order whatever the mix of
// additions and removals between two reads (a few: spliced in place; many:
// merged in one pass). Range reads, paging and `remaining` all rest on it.

import { describe, expect, it } from 'vitest';
import { SortedKeys, prefixSlice } from './sorted-keys';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('SortedKeys', () => {
  it('matches a sorted reference after random additions and removals, read after each batch of 1 to 100 changes', () => {
    const next = random(42);
    const keys = new SortedKeys();
    const reference = new Set<string>();
    for (let round = 0; round < 400; round++) {
      const changes = 1 + Math.floor(next() * (round % 5 === 0 ? 100 : 4));
      for (let c = 0; c < changes; c++) {
        const key = `/registry/k/${Math.floor(next() * 300)}`;
        if (reference.has(key)) {
          keys.delete(key);
          reference.delete(key);
        } else {
          keys.add(key);
          reference.add(key);
        }
      }
      expect(keys.keys()).toEqual([...reference].sort());
      expect(keys.size).toBe(reference.size);
    }
  });

  it('a key removed and added again before a read is present once', () => {
    const keys = new SortedKeys();
    keys.add('/b');
    keys.add('/a');
    keys.keys();
    keys.delete('/a');
    keys.add('/a');
    keys.add('/c');
    expect(keys.keys()).toEqual(['/a', '/b', '/c']);
  });

  it('prefixSlice gives the keys under a prefix after a write (rule: a range sees every write before it)', () => {
    const keys = new SortedKeys();
    for (let i = 0; i < 50; i++) keys.add(`/registry/configmaps/ns/${String(i).padStart(2, '0')}`);
    keys.add('/registry/secrets/ns/s');
    keys.keys();
    keys.add('/registry/configmaps/ns/10a');
    const all = keys.keys();
    const [start, end] = prefixSlice(all, '/registry/configmaps/ns/', '/registry/configmaps/ns/10');
    expect(all[start]).toBe('/registry/configmaps/ns/10a');
    expect(end - start).toBe(40);
  });
});
