// A map keyed by path element. Elements are keyed by their serialized form,
// which is canonical: key fields are sorted, values are JSON with sorted map
// keys, and numbers compare numerically in both.

import { serializeElement, type PathElement } from '../fieldpath/element';

export class ElementMap<V> {
  private readonly map = new Map<string, V>();

  private static key(pe: PathElement): string {
    return pe.t === 0 ? 'f:' + pe.name : serializeElement(pe);
  }

  get(pe: PathElement): V | undefined {
    return this.map.get(ElementMap.key(pe));
  }

  has(pe: PathElement): boolean {
    return this.map.has(ElementMap.key(pe));
  }

  set(pe: PathElement, value: V): void {
    this.map.set(ElementMap.key(pe), value);
  }
}
