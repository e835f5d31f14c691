// The shared walk behind fmt's %v / %#v of decoded JSON and smd's value.ToString.

import { describe, expect, it } from 'vitest';
import { printGoTree, type GoTreePrinter } from './print-tree';

const plain: GoTreePrinter = {
  scalar: (v, nested) => (v === null ? (nested ? '<nil>' : 'top-nil') : String(v)),
  list: (items) => `[${items.join(' ')}]`,
  map: (entries) => `map[${entries.map(([k, t]) => `${k}:${t}`).join(' ')}]`,
};

describe('printGoTree', () => {
  it('visits maps in Go key order (bytes), lists in order, and tells scalars whether they are nested', () => {
    expect(printGoTree({ b: [1, null], '10': 'x', a: {} }, plain)).toBe('map[10:x a:map[] b:[1 <nil>]]');
    expect(printGoTree(null, plain)).toBe('top-nil');
  });

  it('unwraps wrapped scalars at every level before printing', () => {
    class Box {
      constructor(readonly value: unknown) {}
    }
    const unwrapping: GoTreePrinter = { ...plain, unwrap: (v) => (v instanceof Box ? v.value : v) };
    expect(printGoTree([new Box(1), { k: new Box('v') }], unwrapping)).toBe('[1 map[k:v]]');
  });
});
