// Merging an applied configuration into the live object (smd typed/merge.go
// with the "right-hand side wins" rule):
//
// - scalars, atomic lists and atomic maps: the applied value replaces the live one;
// - granular maps and structs: merged key by key, live keys kept;
// - list-maps and sets: merged item by item, live items kept, and the order
//   follows the applied list where it names items the live list has too;
// - when both sides are empty or null the applied side wins, so an explicit
//   null or empty value is kept as sent.
//
// Duplicate items in the live list (possible after an update) are not merged
// into: an applied item with the same key replaces all of them.

import { elementString, equalElements, type PathElement } from '../fieldpath/element';
import { deduceAtom, entryAtom, sameForms, type Atom, type ListAtom, type MapAtom } from '../schema/atom';
import { setOwn } from '../../util/set-own';
import { isObject } from '../value/compare';
import { ElementMap } from './element-map';
import type { ValidationError } from './errors';
import { ListItemError, listItemElement } from './list-items';
import { isEmptyMap, zipMaps } from './map-entries';
import { scalarProblem } from './validate';

/** Marks "no value" (the field is left out), as opposed to an explicit null. */
export const NONE: unique symbol = Symbol('none');
/** A merge result: a value, or NONE. */
export type MergeOut = unknown;

/** Merges rhs into lhs; either may be undefined (absent). Returns NONE when nothing results. */
export function mergeValues(lhs: unknown, rhs: unknown, atom: Atom, errs: ValidationError[], path = ''): MergeOut {
  if (lhs === undefined && rhs === undefined) {
    errs.push({ path, message: 'at least one of lhs and rhs must be provided' });
    return NONE;
  }
  const alhs = deduceAtom(atom, lhs);
  const arhs = deduceAtom(atom, rhs);
  if (sameForms(alhs, arhs)) return handle(arhs, lhs, rhs, errs, path);
  // Different forms (a deduced value changing type): both are walked, the applied form gives the result.
  handle(alhs, lhs, rhs, errs, path);
  return handle(arhs, lhs, rhs, errs, path);
}

function leaf(lhs: unknown, rhs: unknown): MergeOut {
  if (rhs !== undefined) return rhs;
  if (lhs !== undefined) return lhs;
  return NONE;
}

function handle(a: Atom, lhs: unknown, rhs: unknown, errs: ValidationError[], path: string): MergeOut {
  if (a.map) return mergeMap(a.map, lhs, rhs, errs, path);
  if (a.scalar) {
    const l = scalarProblem(a.scalar, lhs, 'lhs: ');
    const r = scalarProblem(a.scalar, rhs, 'rhs: ');
    if (l || r) {
      if (l) errs.push({ path, message: l });
      if (r) errs.push({ path, message: r });
      return NONE;
    }
    return leaf(lhs, rhs);
  }
  if (a.list) return mergeList(a.list, lhs, rhs, errs, path);
  errs.push({ path, message: 'schema error: invalid atom: inlined' });
  return NONE;
}

function mergeMap(t: MapAtom, lhs: unknown, rhs: unknown, errs: ValidationError[], path: string): MergeOut {
  const l = isObject(lhs) ? lhs : undefined;
  const r = isObject(rhs) ? rhs : undefined;
  const emptyPromoteToLeaf = (!l || isEmptyMap(l)) && (!r || isEmptyMap(r));
  if (t.atomic || emptyPromoteToLeaf) return leaf(lhs, rhs);
  const out: Record<string, unknown> = {};
  let any = false;
  const visit = (key: string, lv: unknown, rv: unknown) => {
    const childAtom = entryAtom(t, key);
    if (!childAtom) {
      errs.push({ path: `${path}.${key}`, message: 'field not declared in schema' });
      return;
    }
    const v = mergeValues(lv, rv, childAtom, errs, `${path}.${key}`);
    if (v !== NONE) {
      setOwn(out, key, v);
      any = true;
    }
  };
  zipMaps(l, r, visit);
  return any ? out : NONE;
}

interface Indexed {
  readonly pes: PathElement[];
  /** First occurrence of each element; null when the element repeats (duplicates are not merged into). */
  readonly observed: ElementMap<unknown>;
}

function index(list: ListAtom, items: unknown[], allowDuplicates: boolean, errs: ValidationError[], path: string): Indexed {
  const pes: PathElement[] = [];
  const observed = new ElementMap<unknown>();
  for (let i = 0; i < items.length; i++) {
    let pe: PathElement;
    try {
      pe = listItemElement(list, items[i]);
    } catch (e) {
      if (!(e instanceof ListItemError)) throw e;
      errs.push({ path, message: `element ${i}: ${e.message}` });
      continue;
    }
    if (observed.has(pe)) {
      if (!allowDuplicates) {
        errs.push({ path, message: `duplicate entries for key ${elementString(pe)}` });
        continue;
      }
      observed.set(pe, null);
    } else observed.set(pe, items[i]);
    pes.push(pe);
  }
  return { pes, observed };
}

function mergeList(t: ListAtom, lhs: unknown, rhs: unknown, errs: ValidationError[], path: string): MergeOut {
  const l = Array.isArray(lhs) ? lhs : undefined;
  const r = Array.isArray(rhs) ? rhs : undefined;
  const emptyPromoteToLeaf = (!l || l.length === 0) && (!r || r.length === 0);
  if (t.atomic || emptyPromoteToLeaf) return leaf(lhs, rhs);

  const before = errs.length;
  const rhsIx = index(t, r ?? [], false, errs, path);
  const lhsIx = index(t, l ?? [], true, errs, path);
  if (errs.length > before) return NONE;

  const elem = t.elem();
  const out: unknown[] = [];
  const emit = (pe: PathElement, lv: unknown, rv: unknown) => {
    const v = mergeValues(lv, rv, elem, errs, path + elementString(pe));
    if (v !== NONE) out.push(v);
  };

  // Items both sides have are emitted in the applied list's order.
  const shared = rhsIx.pes.filter((pe) => lhsIx.observed.has(pe));
  let sharedAt = 0;
  let nextShared: PathElement | undefined = shared[sharedAt++];
  const mergedRHS = new ElementMap<true>();
  const lhsPEs = lhsIx.pes;
  const rhsPEs = rhsIx.pes;
  let lI = 0;
  let rI = 0;
  while (lI < lhsPEs.length || rI < rhsPEs.length) {
    if (lI < lhsPEs.length && rI < rhsPEs.length) {
      const pe = lhsPEs[lI]!;
      if (equalElements(pe, rhsPEs[rI]!)) {
        mergedRHS.set(pe, true);
        emit(pe, lhsIx.observed.get(pe), rhsIx.observed.get(pe));
        lI++;
        rI++;
        nextShared = shared[sharedAt++];
        continue;
      }
      if (rhsIx.observed.has(pe) && nextShared !== undefined && !equalElements(nextShared, pe)) {
        // A shared item, but not the one due in this round.
        lI++;
        continue;
      }
    }
    if (lI < lhsPEs.length) {
      const pe = lhsPEs[lI]!;
      if (!rhsIx.observed.has(pe)) {
        emit(pe, l![lI], undefined);
        lI++;
        continue;
      }
      if (mergedRHS.has(pe)) {
        lI++;
        continue;
      }
    }
    if (rI < rhsPEs.length) {
      const pe = rhsPEs[rI]!;
      mergedRHS.set(pe, true);
      emit(pe, lhsIx.observed.get(pe), rhsIx.observed.get(pe));
      rI++;
      if (nextShared !== undefined && equalElements(nextShared, pe)) nextShared = shared[sharedAt++];
    }
  }
  return out.length > 0 ? out : NONE;
}

