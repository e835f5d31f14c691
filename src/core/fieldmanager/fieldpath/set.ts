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
    return new FieldSet(mergeMembers(this.members, other.members, 'union'), unionChildren(this.children, other.children));
  }

  intersection(other: FieldSet): FieldSet {
    const members = mergeMembers(this.members, other.members, 'intersection');
    const children: Child[] = [];
    let i = 0;
    let j = 0;
    while (i < this.children.length && j < other.children.length) {
      const c = compareElements(this.children[i]!.pe, other.children[j]!.pe);
      if (c < 0) i++;
      else if (c > 0) j++;
      else {
        const res = this.children[i]!.set.intersection(other.children[j]!.set);
        if (!res.isEmpty()) children.push({ pe: this.children[i]!.pe, set: res });
        i++;
        j++;
      }
    }
    return new FieldSet(members, children);
  }

  /**
   * Members of this set that are not members of `other`. Children are
   * compared with other's children only: removing a parent path does not
   * remove the paths below it (see recursiveDifference for that).
   */
  difference(other: FieldSet): FieldSet {
    if (other.members.length === 0 && other.children.length === 0) return this;
    const members = mergeMembers(this.members, other.members, 'difference');
    const children: Child[] = [];
    let i = 0;
    let j = 0;
    while (i < this.children.length && j < other.children.length) {
      const c = compareElements(this.children[i]!.pe, other.children[j]!.pe);
      if (c < 0) children.push(this.children[i++]!);
      else if (c > 0) j++;
      else {
        const diff = this.children[i]!.set.difference(other.children[j]!.set);
        if (!diff.isEmpty()) children.push({ pe: this.children[i]!.pe, set: diff });
        i++;
        j++;
      }
    }
    while (i < this.children.length) children.push(this.children[i++]!);
    return new FieldSet(members, children);
  }

  /** Like difference, but a member of `other` also removes everything below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    if (other.members.length === 0 && other.children.length === 0) return this;
    const members = mergeMembers(this.members, other.members, 'difference');
    const children: Child[] = [];
    let i = 0;
    let j = 0;
    while (i < this.children.length && j < other.children.length) {
      const mine = this.children[i]!;
      const c = compareElements(mine.pe, other.children[j]!.pe);
      if (c < 0) {
        if (!other.hasMember(mine.pe)) children.push(mine);
        i++;
      } else if (c > 0) j++;
      else {
        if (!other.hasMember(mine.pe)) {
          const diff = mine.set.recursiveDifference(other.children[j]!.set);
          if (!diff.isEmpty()) children.push({ pe: mine.pe, set: diff });
        }
        i++;
        j++;
      }
    }
    for (; i < this.children.length; i++) {
      const mine = this.children[i]!;
      if (!other.hasMember(mine.pe)) children.push(mine);
    }
    return new FieldSet(members, children);
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

function unionChildren(a: Child[], b: Child[]): Child[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out: Child[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = compareElements(a[i]!.pe, b[j]!.pe);
    if (c < 0) out.push(a[i++]!);
    else if (c > 0) out.push(b[j++]!);
    else {
      out.push({ pe: a[i]!.pe, set: a[i]!.set.union(b[j]!.set) });
      i++;
      j++;
    }
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}
