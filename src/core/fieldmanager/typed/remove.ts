// RemoveItems (smd typed/remove.go): a copy of a value without the members
// of a field set. A member removes the whole field or item; a child set
// recurses. A map or list left with nothing becomes null, as in smd (the
// typed conversion that follows turns such nulls into absent fields).

import { fieldElement } from '../fieldpath/element';
import type { FieldSet } from '../fieldpath/set';
import { deduceAtom, entryAtom, type Atom } from '../schema/atom';
import { setOwn } from '../../util/set-own';
import { isObject } from '../value/compare';
import { listItemElement } from './list-items';

export function removeItems(value: unknown, toRemove: FieldSet, atom: Atom): unknown {
  const a = deduceAtom(atom, value);
  if (a.map) {
    if (!isObject(value)) return null;
    let empty = true;
    for (const _ in value) {
      empty = false;
      break;
    }
    if (empty || a.map.atomic) return null;
    const out: Record<string, unknown> = {};
    let any = false;
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key) || value[key] === undefined) continue;
      const pe = fieldElement(key);
      if (toRemove.hasMember(pe)) continue;
      let v: unknown = value[key];
      const sub = toRemove.child(pe);
      if (sub && !sub.isEmpty()) {
        const childAtom = entryAtom(a.map, key);
        if (childAtom) v = removeItems(v, sub, childAtom);
      }
      setOwn(out, key, v);
      any = true;
    }
    return any ? out : null;
  }
  if (a.scalar) return value;
  if (a.list) {
    if (!Array.isArray(value) || value.length === 0 || a.list.atomic) return null;
    const elem = a.list.elem();
    const out: unknown[] = [];
    for (let item of value) {
      const pe = listItemElement(a.list, item);
      if (toRemove.hasMember(pe)) continue;
      const sub = toRemove.child(pe);
      if (sub && !sub.isEmpty()) item = removeItems(item, sub, elem);
      out.push(item);
    }
    return out.length > 0 ? out : null;
  }
  return null;
}
