// EnsureNamedFieldsAreMembers: a set in which every struct field that has
// owned fields below it is also a member itself. Pruning uses it so that a
// struct nobody owns anything in anymore is removed as a whole rather than
// left behind empty. Map keys and list items are members already.

import { FIELD, KEY, type PathElement } from '../fieldpath/element';
import { FieldSet } from '../fieldpath/set';
import type { Atom } from '../schema/atom';

export function ensureNamedFieldsAreMembers(set: FieldSet, atom: Atom | undefined): FieldSet {
  if (set.children.length === 0) return set;
  const named: PathElement[] = [];
  for (const c of set.children) {
    if (c.pe.t === FIELD && atom?.map?.field(c.pe.name)) named.push(c.pe);
  }
  let members = set.members;
  if (named.length > 0) {
    const s = new FieldSet([...set.members]);
    for (const pe of named) s.insertMember(pe);
    members = s.members;
  }
  const children = set.children.map((c) => ({ pe: c.pe, set: ensureNamedFieldsAreMembers(c.set, childAtom(atom, c.pe)) }));
  return new FieldSet(members, children);
}

function childAtom(atom: Atom | undefined, pe: PathElement): Atom | undefined {
  if (!atom) return undefined;
  if (pe.t === FIELD && atom.map) {
    const f = atom.map.field(pe.name);
    return f ? f.atom() : atom.map.elem();
  }
  if (pe.t === KEY && atom.list) return atom.list.elem();
  return undefined;
}
