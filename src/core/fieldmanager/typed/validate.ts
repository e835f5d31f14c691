// Typed validation (smd's validatingObjectWalker, run when an object becomes
// a TypedValue): every value must fit its schema, list-map items need their
// keys, and keys may repeat only where duplicates are allowed (the live and
// updated objects of an update; never in an applied configuration).

import { elementString, equalElements, indexElement, type PathElement } from '../fieldpath/element';
import { deduceAtom, entryAtom, type Atom, type ListAtom, type MapAtom, type ScalarType } from '../schema/atom';
import { isObject } from '../value/compare';
import { smdValuePlain, smdValueSyntax, goTypeName } from '../value/go-format';
import type { ValidationError } from './errors';
import { ListItemError, listItemElement } from './list-items';

export interface ValidateOptions {
  readonly allowDuplicates: boolean;
}

export function validateTyped(value: unknown, atom: Atom, options: ValidateOptions): ValidationError[] {
  const errs: ValidationError[] = [];
  walk(value, atom, '', errs, options.allowDuplicates);
  return errs;
}

/** validateScalar's message for a value that is not of the scalar type, or undefined. */
export function scalarProblem(t: ScalarType, v: unknown, prefix = ''): string | undefined {
  if (v === undefined || v === null) return undefined;
  switch (t) {
    case 'numeric':
      return typeof v === 'number' ? undefined : `${prefix}expected numeric (int or float), got ${goTypeName(v)}`;
    case 'string':
      return typeof v === 'string' ? undefined : `${prefix}expected string, got ${smdValueSyntax(v)}`;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `${prefix}expected boolean, got ${smdValuePlain(v)}`;
    default:
      return typeof v === 'object' ? `${prefix}expected any scalar, got ${smdValuePlain(v)}` : undefined;
  }
}

function walk(value: unknown, atom: Atom, path: string, errs: ValidationError[], dup: boolean): void {
  const a = deduceAtom(atom, value);
  if (a.map) return walkMap(value, a.map, path, errs, dup);
  if (a.scalar) {
    const problem = scalarProblem(a.scalar, value);
    if (problem) errs.push({ path, message: problem });
    return;
  }
  if (a.list) return walkList(value, a.list, path, errs, dup);
  errs.push({ path, message: 'schema error: invalid atom: inlined' });
}

function walkList(value: unknown, list: ListAtom, path: string, errs: ValidationError[], dup: boolean): void {
  if (value === null || value === undefined) return;
  if (!Array.isArray(value)) {
    errs.push({ path, message: `expected list, got ${smdValuePlain(value)}` });
    return;
  }
  const associative = !list.atomic;
  const seen: PathElement[] = [];
  const elem = list.elem();
  for (let i = 0; i < value.length; i++) {
    const child = value[i];
    let pe: PathElement;
    if (!associative) pe = indexElement(i);
    else {
      try {
        pe = listItemElement(list, child);
      } catch (e) {
        if (!(e instanceof ListItemError)) throw e;
        errs.push({ path, message: `element ${i}: ${e.message}` });
        return;
      }
      if (!dup && seen.some((s) => equalElements(s, pe))) errs.push({ path, message: `duplicate entries for key ${elementString(pe)}` });
      seen.push(pe);
    }
    walk(child, elem, path + elementString(pe), errs, dup);
  }
}

function walkMap(value: unknown, map: MapAtom, path: string, errs: ValidationError[], dup: boolean): void {
  if (value === null || value === undefined) return;
  if (!isObject(value)) {
    errs.push({ path, message: `expected map, got ${smdValuePlain(value)}` });
    return;
  }
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const child = value[key];
    if (child === undefined) continue;
    const childAtom = entryAtom(map, key);
    if (!childAtom) {
      // smd stops at the first undeclared field of a map.
      errs.push({ path: `${path}.${key}`, message: 'field not declared in schema' });
      return;
    }
    walk(child, childAtom, `${path}.${key}`, errs, dup);
  }
}
