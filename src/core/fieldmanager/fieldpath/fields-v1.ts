// FieldsV1, the serialized form of a field set in metadata.managedFields:
// a nested object keyed by serialized path elements, `{}` for a member
// without children and "." for "this element itself" when it also has
// children. Keys come in path-element order with "." first, exactly as
// kube-apiserver writes them.

import { compareElements as compare, deserializeElement, PathElementSyntaxError, serializeElement } from './element';
import { FieldSet } from './set';

export type FieldsV1 = { [key: string]: FieldsV1 };

/** Set.ToJSON as a JS object (key insertion order = Go's byte order). */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  return emit(set, false);
}

function emit(set: FieldSet, includeSelf: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  const { members, children } = set;
  if (includeSelf && (members.length > 0 || children.length > 0)) out['.'] = {};
  let mi = 0;
  let ci = 0;
  while (mi < members.length || ci < children.length) {
    const m = members[mi];
    const c = children[ci];
    if (m !== undefined && c !== undefined) {
      const order = compare(m, c.pe);
      if (order < 0) {
        out[serializeElement(m)] = {};
        mi++;
      } else if (order > 0) {
        out[serializeElement(c.pe)] = emit(c.set, false);
        ci++;
      } else {
        out[serializeElement(c.pe)] = emit(c.set, true);
        mi++;
        ci++;
      }
    } else if (m !== undefined) {
      out[serializeElement(m)] = {};
      mi++;
    } else {
      out[serializeElement(c!.pe)] = emit(c!.set, false);
      ci++;
    }
  }
  return out;
}

/** A fieldsV1 document that is not a valid field set (kube's "error decoding set: …"). */
export class FieldsV1Error extends Error {}

/** Set.FromJSON. Unknown element types are dropped, as smd drops them. */
export function fromFieldsV1(fields: unknown): FieldSet {
  if (fields === null || fields === undefined) return new FieldSet();
  if (typeof fields !== 'object' || Array.isArray(fields)) throw new FieldsV1Error(`ReadMapCB: expect { or n, but found ${JSON.stringify(fields)}`);
  return read(fields as Record<string, unknown>).children ?? new FieldSet();
}

function read(node: Record<string, unknown>): { children: FieldSet | undefined; isMember: boolean } {
  let children: FieldSet | undefined;
  let isMember = false;
  for (const key of Object.keys(node)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    let pe;
    try {
      pe = deserializeElement(key);
    } catch (e) {
      if (e instanceof PathElementSyntaxError) throw new FieldsV1Error(`parsing key as path element: ${e.message}`);
      throw e;
    }
    if (pe === undefined) continue;
    const value = node[key];
    let sub: { children: FieldSet | undefined; isMember: boolean };
    if (value === null) sub = { children: undefined, isMember: true };
    else if (typeof value !== 'object' || Array.isArray(value)) throw new FieldsV1Error(`ReadMapCB: expect { or n, but found ${JSON.stringify(value)}`);
    else sub = read(value as Record<string, unknown>);
    if (sub.isMember) (children ??= new FieldSet()).insertMember(pe);
    if (sub.children) {
      const target = (children ??= new FieldSet()).descend(pe);
      const union = target.union(sub.children);
      target.members = union.members;
      target.children = union.children;
    }
  }
  if (!children) isMember = true;
  return { children, isMember };
}
