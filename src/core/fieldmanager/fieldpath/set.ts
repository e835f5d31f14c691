// A set of field paths as smd's fieldpath.Set: a tree whose nodes list the
// path elements that are members (owned) and the children that hold deeper
// members. A path element may be both a member and a child (a list-map
// element owned as a whole and field by field: `.` in fieldsV1).
//
// Pure set algebra. Sets are treated as values: operations return new sets
// and share unchanged subtrees; only `insert` mutates (used while building).

import { compareElements, equalElements, type Path, type PathElement } from './element';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

function search<T>(items: readonly T[], pe: PathElement, get: (t: T) => PathElement): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareElements(get(items[mid]!), pe) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const selfElement = (pe: PathElement): PathElement => pe;
const childElement = (c: Child): PathElement => c.pe;

export class FieldSet {
  /** Sorted, unique. */
  members: PathElement[];
  /** Sorted by element, unique, never holding an empty set. */
  children: Child[];

  constructor(members: PathElement[] = [], children: Child[] = []) {
    this.members = members;
    this.children = children;
  }

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds a path (its parents are not added). The empty path means "the whole object" and is never tracked. */
  insert(path: Path): void {
    if (path.length === 0) return;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.descend(path[i]!);
    node.insertMember(path[path.length - 1]!);
  }

  insertMember(pe: PathElement): void {
    const at = search(this.members, pe, selfElement);
    if (at < this.members.length && equalElements(this.members[at]!, pe)) return;
    this.members.splice(at, 0, pe);
  }

  /** The child set at `pe`, created when missing. A created child must receive a member before the set is used. */
  descend(pe: PathElement): FieldSet {
    const at = search(this.children, pe, childElement);
    if (at < this.children.length && equalElements(this.children[at]!.pe, pe)) return this.children[at]!.set;
    const set = new FieldSet();
    this.children.splice(at, 0, { pe, set });
    return set;
  }

  hasMember(pe: PathElement): boolean {
    const at = search(this.members, pe, selfElement);
    return at < this.members.length && equalElements(this.members[at]!, pe);
  }

  child(pe: PathElement): FieldSet | undefined {
    const at = search(this.children, pe, childElement);
    return at < this.children.length && equalElements(this.children[at]!.pe, pe) ? this.children[at]!.set : undefined;
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1; i++) {
      node = node.child(path[i]!);
      if (!node) return false;
    }
    return node.hasMember(path[path.length - 1]!);
  }

  /** The subset below `pe`, without the prefix (empty when none). */
  withPrefix(pe: PathElement): FieldSet {
    return this.child(pe) ?? EMPTY;
  }

  isEmpty(): boolean {
    if (this.members.length > 0) return false;
    for (const c of this.children) if (!c.set.isEmpty()) return false;
    return true;
  }

  size(): number {
    let n = this.members.length;
    for (const c of this.children) n += c.set.size();
    return n;
  }

  union(other: FieldSet): FieldSet {
    if (other.members.length === 0 && other.children.length === 0) return this;
    if (this.members.length === 0 && this.children.length === 0) return other;
    return new FieldSet(mergeMembers(this.members, other.members, 'union'), combineChildren(this.children, other.children, 'union', other));
  }

  intersection(other: FieldSet): FieldSet {
    const members = mergeMembers(this.members, other.members, 'intersection');
    return new FieldSet(members, combineChildren(this.children, other.children, 'intersection', other));
  }

  /**
   * Members of this set that are not members of `other`. Children are
   * compared with other's children only: removing a parent path does not
   * remove the paths below it (see recursiveDifference for that).
   */
  difference(other: FieldSet): FieldSet {
    if (other.members.length === 0 && other.children.length === 0) return this;
    const members = mergeMembers(this.members, other.members, 'difference');
    return new FieldSet(members, combineChildren(this.children, other.children, 'difference', other));
  }

  /** Like difference, but a member of `other` also removes everything below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    if (other.members.length === 0 && other.children.length === 0) return this;
    const members = mergeMembers(this.members, other.members, 'difference');
    return new FieldSet(members, combineChildren(this.children, other.children, 'recursiveDifference', other));
  }

  equals(other: FieldSet): boolean {
    if (this.members.length !== other.members.length || this.children.length !== other.children.length) return false;
    for (let i = 0; i < this.members.length; i++) if (!equalElements(this.members[i]!, other.members[i]!)) return false;
    for (let i = 0; i < this.children.length; i++) {
      if (!equalElements(this.children[i]!.pe, other.children[i]!.pe)) return false;
      if (!this.children[i]!.set.equals(other.children[i]!.set)) return false;
    }
    return true;
  }

  /** Calls f for every member path, members of a node before its children (smd's Iterate order). */
  iterate(f: (path: Path) => void, prefix: PathElement[] = []): void {
    for (const pe of this.members) f([...prefix, pe]);
    for (const c of this.children) {
      prefix.push(c.pe);
      c.set.iterate(f, prefix);
      prefix.pop();
    }
  }

  paths(): Path[] {
    const out: Path[] = [];
    this.iterate((p) => out.push(p));
    return out;
  }
}

export const EMPTY = new FieldSet();

type SetOperation = 'union' | 'intersection' | 'difference' | 'recursiveDifference';

/**
 * The children of a set operation: both sorted lists walked together. A
 * child only `a` has stays for union and difference (for a recursive
 * difference unless its element is a member of `other`); one only `b` has
 * stays for union; a shared element gets the operation applied to both sets,
 * and children never hold an empty set.
 */
function combineChildren(a: Child[], b: Child[], op: SetOperation, other: FieldSet): Child[] {
  if (op === 'union') {
    if (b.length === 0) return a;
    if (a.length === 0) return b;
  }
  const out: Child[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const c = compareElements(x.pe, b[j]!.pe);
    if (c < 0) {
      if (op === 'union' || op === 'difference' || (op === 'recursiveDifference' && !other.hasMember(x.pe))) out.push(x);
      i++;
    } else if (c > 0) {
      if (op === 'union') out.push(b[j]!);
      j++;
    } else {
      const y = b[j]!;
      if (op === 'union') out.push({ pe: x.pe, set: x.set.union(y.set) });
      else if (op !== 'recursiveDifference' || !other.hasMember(x.pe)) {
        const set = op === 'intersection' ? x.set.intersection(y.set) : op === 'difference' ? x.set.difference(y.set) : x.set.recursiveDifference(y.set);
        if (!set.isEmpty()) out.push({ pe: x.pe, set });
      }
      i++;
      j++;
    }
  }
  if (op !== 'intersection') {
    for (; i < a.length; i++) if (op !== 'recursiveDifference' || !other.hasMember(a[i]!.pe)) out.push(a[i]!);
  }
  if (op === 'union') while (j < b.length) out.push(b[j++]!);
  return out;
}

function mergeMembers(a: PathElement[], b: PathElement[], op: 'union' | 'intersection' | 'difference'): PathElement[] {
  if (op === 'union') {
    if (b.length === 0) return a;
    if (a.length === 0) return b;
  } else if (op === 'difference' && b.length === 0) return a;
  const out: PathElement[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = compareElements(a[i]!, b[j]!);
    if (c < 0) {
      if (op !== 'intersection') out.push(a[i]!);
      i++;
    } else if (c > 0) {
      if (op === 'union') out.push(b[j]!);
      j++;
    } else {
      if (op !== 'difference') out.push(a[i]!);
      i++;
      j++;
    }
  }
  if (op !== 'intersection') while (i < a.length) out.push(a[i++]!);
  if (op === 'union') while (j < b.length) out.push(b[j++]!);
  return out;
}
