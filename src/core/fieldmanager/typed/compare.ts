// Comparing two versions of an object (smd typed/compare.go): the fields
// the right-hand side added, modified or removed. Leaves (scalars, atomic
// lists and maps, and empty or null containers) are compared by value;
// containers that appear or disappear are recorded themselves too, which is
// where the `.` of an Update entry's list items comes from.
//
// Items repeated in a list-map are compared as a block: changed duplicates
// are "modified", duplicates that appear or disappear are added or removed.

import { elementString, fieldElement, type PathElement } from '../fieldpath/element';
import { FieldSet } from '../fieldpath/set';
import { deduceAtom, entryAtom, sameForms, type Atom, type ListAtom, type MapAtom } from '../schema/atom';
import { equalValues, isObject } from '../value/compare';
import { ElementMap } from './element-map';
import type { ValidationError } from './errors';
import { ListItemError, listItemElement } from './list-items';
import { isEmptyMap, zipMaps } from './map-entries';
import { scalarProblem } from './validate';

export interface Comparison {
  readonly removed: FieldSet;
  readonly modified: FieldSet;
  readonly added: FieldSet;
}

export function isSame(c: Comparison): boolean {
  return c.removed.isEmpty() && c.modified.isEmpty() && c.added.isEmpty();
}

/** Comparison.ExcludeFields: drops the ignored paths and everything below them. */
export function excludeFields(c: Comparison, ignored: FieldSet | undefined): Comparison {
  if (!ignored || ignored.isEmpty()) return c;
  return {
    removed: c.removed.recursiveDifference(ignored),
    modified: c.modified.recursiveDifference(ignored),
    added: c.added.recursiveDifference(ignored),
  };
}

export function compareTyped(lhs: unknown, rhs: unknown, atom: Atom, errs: ValidationError[]): Comparison {
  const walker = new Walker(errs);
  walker.compare(lhs, rhs, atom);
  return { removed: walker.removed, modified: walker.modified, added: walker.added };
}

class Walker {
  readonly removed = new FieldSet();
  readonly modified = new FieldSet();
  readonly added = new FieldSet();
  private readonly path: PathElement[] = [];

  constructor(private readonly errs: ValidationError[]) {}

  private where(): string {
    return this.path.map(elementString).join('');
  }

  compare(lhs: unknown, rhs: unknown, atom: Atom): void {
    if (lhs === undefined && rhs === undefined) {
      this.errs.push({ path: this.where(), message: 'at least one of lhs and rhs must be provided' });
      return;
    }
    const alhs = deduceAtom(atom, lhs);
    const arhs = deduceAtom(atom, rhs);
    let inLeaf: boolean;
    if (rhs === undefined) inLeaf = this.handle(alhs, lhs, rhs);
    else if (lhs === undefined || sameForms(alhs, arhs)) inLeaf = this.handle(arhs, lhs, rhs);
    else {
      this.handle(alhs, lhs, rhs);
      inLeaf = this.handle(arhs, lhs, rhs);
    }
    if (!inLeaf) {
      if (lhs === undefined) this.added.insert(this.path);
      else if (rhs === undefined) this.removed.insert(this.path);
    }
  }

  /** Returns true when the node was compared as a leaf. */
  private handle(a: Atom, lhs: unknown, rhs: unknown): boolean {
    if (a.map) return this.map(a.map, lhs, rhs);
    if (a.scalar) {
      const l = scalarProblem(a.scalar, lhs, 'lhs: ');
      const r = scalarProblem(a.scalar, rhs, 'rhs: ');
      if (l && r) {
        this.errs.push({ path: this.where(), message: l }, { path: this.where(), message: r });
        return false;
      }
      this.leaf(lhs, rhs);
      return true;
    }
    if (a.list) return this.list(a.list, lhs, rhs);
    this.errs.push({ path: this.where(), message: 'schema error: invalid atom: inlined' });
    return false;
  }

  private leaf(lhs: unknown, rhs: unknown): void {
    if (lhs === undefined) this.added.insert(this.path);
    else if (rhs === undefined) this.removed.insert(this.path);
    else if (!equalValues(lhs, rhs)) this.modified.insert(this.path);
  }

  private map(t: MapAtom, lhs: unknown, rhs: unknown): boolean {
    const l = isObject(lhs) ? lhs : undefined;
    const r = isObject(rhs) ? rhs : undefined;
    const empty = (!l || isEmptyMap(l)) && (!r || isEmptyMap(r));
    if (t.atomic || empty) {
      this.leaf(lhs, rhs);
      return true;
    }
    const visit = (key: string, lv: unknown, rv: unknown) => {
      const childAtom = entryAtom(t, key);
      this.path.push(fieldElement(key));
      if (!childAtom) this.errs.push({ path: this.where(), message: 'field not declared in schema' });
      else this.compare(lv, rv, childAtom);
      this.path.pop();
    };
    zipMaps(l, r, visit);
    return false;
  }

  private list(t: ListAtom, lhs: unknown, rhs: unknown): boolean {
    const l = Array.isArray(lhs) ? lhs : undefined;
    const r = Array.isArray(rhs) ? rhs : undefined;
    const empty = (!l || l.length === 0) && (!r || r.length === 0);
    if (t.atomic || empty) {
      this.leaf(lhs, rhs);
      return true;
    }
    const all: PathElement[] = [];
    const lValues = this.group(t, l ?? [], all, undefined);
    const rValues = this.group(t, r ?? [], all, lValues);
    const elem = t.elem();
    for (const pe of all) {
      const lList = lValues.get(pe) ?? [];
      const rList = rValues.get(pe) ?? [];
      this.path.push(pe);
      if (lList.length <= 1 && rList.length <= 1) {
        this.compare(lList[0], rList[0], elem);
      } else if (lList.length >= 2 && rList.length >= 2) {
        if (lList.length !== rList.length || lList.some((v, i) => !equalValues(v, rList[i]))) this.modified.insert(this.path);
      } else if (lList.length >= 2) {
        if (rList.length !== 0) this.compare(undefined, rList[0], elem);
        this.removed.insert(this.path);
      } else {
        if (lList.length !== 0) this.compare(lList[0], undefined, elem);
        this.added.insert(this.path);
      }
      this.path.pop();
    }
    return false;
  }

  /** Groups items by element; new elements are appended to `all` unless `seen` has them. */
  private group(t: ListAtom, items: unknown[], all: PathElement[], seen: ElementMap<unknown[]> | undefined): ElementMap<unknown[]> {
    const out = new ElementMap<unknown[]>();
    for (let i = 0; i < items.length; i++) {
      let pe: PathElement;
      try {
        pe = listItemElement(t, items[i]);
      } catch (e) {
        if (!(e instanceof ListItemError)) throw e;
        this.errs.push({ path: this.where(), message: `element ${i}: ${e.message}` });
        continue;
      }
      const list = out.get(pe);
      if (list) list.push(items[i]);
      else {
        out.set(pe, [items[i]]);
        if (!seen || !seen.has(pe)) all.push(pe);
      }
    }
    return out;
  }
}
