// ToFieldSet: the fields a value sets (smd typed/tofieldset.go). Scalars,
// atomic lists and atomic maps are leaves; every list-map or set item is a
// member itself (`.`) and so is every map entry that is not a named struct
// field, and every named field whose value is null or an empty map (smd
// 4.4's visitMapItems). An empty or null struct sets nothing below itself.

import { fieldElement, type PathElement } from '../fieldpath/element';
import { FieldSet } from '../fieldpath/set';
import { deduceAtom, entryAtom, type Atom } from '../schema/atom';
import { isObject } from '../value/compare';
import { listItemElement } from './list-items';

/** The set of paths under `value` (relative to it). Assumes the value was validated. */
export function toFieldSet(value: unknown, atom: Atom): FieldSet {
  return subtree(value, atom) ?? new FieldSet();
}

/** The set below a value, or undefined when it sets nothing below itself. */
function subtree(value: unknown, atom: Atom): FieldSet | undefined {
  const a = deduceAtom(atom, value);
  if (a.map) {
    if (a.map.atomic || !isObject(value)) return undefined;
    const members: PathElement[] = [];
    const children: { pe: PathElement; set: FieldSet }[] = [];
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      const child = value[key];
      if (child === undefined) continue;
      const pe = fieldElement(key);
      const named = a.map.field(key) !== undefined;
      const childAtom = entryAtom(a.map, key);
      if (!childAtom) continue;
      const sub = subtree(child, childAtom);
      if (sub) children.push({ pe, set: sub });
      // smd's visitMapItems: a map entry is its own path when it is not a named field, and so is a named
      // field whose value is null or an empty map (`config: {}` is owned as f:config, not dropped).
      if (!named || child === null || isEmptyMap(child) || isLeaf(child, childAtom)) members.push(pe);
    }
    return build(members, children);
  }
  if (a.scalar) return undefined;
  if (a.list) {
    if (a.list.atomic || !Array.isArray(value)) return undefined;
    const elem = a.list.elem();
    const members: PathElement[] = [];
    const children: { pe: PathElement; set: FieldSet }[] = [];
    for (const item of value) {
      const pe = listItemElement(a.list, item);
      members.push(pe);
      const sub = subtree(item, elem);
      if (sub) children.push({ pe, set: sub });
    }
    return build(members, children);
  }
  return undefined;
}

function isEmptyMap(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key) && value[key] !== undefined) return false;
  return true;
}

/** Values that ToFieldSet records as their own path: scalars, atomic lists and atomic maps. */
function isLeaf(value: unknown, atom: Atom): boolean {
  const a = deduceAtom(atom, value);
  if (a.map) return a.map.atomic;
  if (a.scalar) return true;
  if (a.list) return a.list.atomic;
  return false;
}

function build(members: PathElement[], children: { pe: PathElement; set: FieldSet }[]): FieldSet | undefined {
  if (members.length === 0 && children.length === 0) return undefined;
  const set = new FieldSet();
  for (const pe of members) set.insertMember(pe);
  for (const c of children) {
    const target = set.descend(c.pe);
    if (target.members.length === 0 && target.children.length === 0) {
      target.members = c.set.members;
      target.children = c.set.children;
    } else {
      const u = target.union(c.set);
      target.members = u.members;
      target.children = u.children;
    }
  }
  return set;
}
