// ReconcileFieldSetWithSchema: adapts a manager's field set to a schema whose
// topology changed since the set was recorded (a CRD update, a new marker).
//
// - granular → atomic (list, map or struct): a manager that owned fields
//   inside now owns the whole value, so later changes by others conflict;
// - atomic → granular: the manager keeps owning the value's path and no
//   inner ownership is invented (no conflicts inside).
//
// Deduced maps (no schema) are left alone.

import { FieldSet } from '../fieldpath/set';
import { FIELD, type Path, type PathElement } from '../fieldpath/element';
import type { Atom } from '../schema/atom';

/** The reconciled set, or undefined when nothing changes. */
export function reconcileFieldSet(set: FieldSet, root: Atom): FieldSet | undefined {
  const collapse: Path[] = [];
  walk(set, root, [], false, collapse);
  if (collapse.length === 0) return undefined;
  const paths = FieldSet.of(...collapse);
  return set.recursiveDifference(paths).union(paths);
}

function walk(set: FieldSet | undefined, atom: Atom, path: PathElement[], isAtomic: boolean, out: Path[]): void {
  // The atom's forms are taken in smd's order (map, scalar, list), without looking at values.
  if (atom.map) {
    const map = atom.map;
    if (map.untypedDeduced) return;
    if (!isAtomic && map.atomic) {
      if (set && set.size() > 0) out.push([...path]);
      return;
    }
    if (set) {
      visit(set, path, out, (pe) => {
        if (pe.t !== FIELD) return map.elem();
        const f = map.field(pe.name);
        return f ? f.atom() : map.elem();
      });
    }
    return;
  }
  if (atom.scalar) return;
  if (atom.list) {
    const list = atom.list;
    if (!isAtomic && list.atomic) {
      out.push([...path]);
      return;
    }
    if (set) visit(set, path, out, () => list.elem());
  }
}

function visit(set: FieldSet, path: PathElement[], out: Path[], typeOf: (pe: PathElement) => Atom | undefined): void {
  const handle = (pe: PathElement, isMember: boolean) => {
    const t = typeOf(pe);
    if (!t) return;
    const child = set.child(pe);
    path.push(pe);
    walk(child, t, path, isMember && !child, out);
    path.pop();
  };
  for (const c of set.children) if (!set.hasMember(c.pe)) handle(c.pe, false);
  for (const pe of set.members) handle(pe, true);
}
