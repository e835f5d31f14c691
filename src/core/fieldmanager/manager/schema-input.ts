// The schema a field manager works with, as the API layer hands it over,
// and the merge view (atoms) built from it once per schema.

import { getBuiltinSchemaTable } from '../../schema/builtin-table';
import { isRef, type SchemaNode, type SchemaTable } from '../../schema/types';
import { AtomResolver, DEDUCED, type Atom, type FieldDef, type MapAtom } from '../schema/atom';

export interface FieldManagerSchema {
  /** The kind's root schema (for built-ins a ref to its definition). */
  readonly root: SchemaNode;
  readonly table: SchemaTable;
  /**
   * A custom resource merged without a schema: every map granular, every list
   * atomic (kube's deduced type converter).
   */
  readonly unstructuredCustomResource?: boolean;
  /**
   * A custom resource with a structural schema. Its metadata is typed as
   * ObjectMeta (as kube-apiserver's CRD models are), and nulls in the merged
   * object are left for the CRD's defaulting and pruning.
   */
  readonly customResource?: boolean;
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const STRING: Atom = { scalar: 'string' };

const resolvers = new WeakMap<SchemaTable, AtomResolver>();
const roots = new WeakMap<object, Atom>();

export function resolverFor(table: SchemaTable): AtomResolver {
  let r = resolvers.get(table);
  if (!r) {
    r = new AtomResolver(table);
    resolvers.set(table, r);
  }
  return r;
}

function objectMetaAtom(table: SchemaTable): Atom {
  if (table.definitions[OBJECT_META]) return resolverFor(table).atomOf({ ref: OBJECT_META });
  const builtin = getBuiltinSchemaTable();
  return resolverFor(builtin).atomOf({ ref: OBJECT_META });
}

/** The root atom of a schema input (cached per root node). */
export function rootAtom(schema: FieldManagerSchema): Atom {
  if (schema.unstructuredCustomResource) return DEDUCED;
  const key = schema.root as object;
  const cached = roots.get(key);
  if (cached && !schema.customResource) return cached;
  let atom = resolverFor(schema.table).atomOf(schema.root);
  if (schema.customResource && atom.map) atom = { map: withResourceEnvelope(atom.map, objectMetaAtom(schema.table)) };
  if (!schema.customResource) roots.set(key, atom);
  return atom;
}

/** A custom resource root with apiVersion and kind as strings and metadata as ObjectMeta. */
function withResourceEnvelope(map: MapAtom, meta: Atom): MapAtom {
  const envelope = new Map<string, FieldDef>([
    ['apiVersion', { atom: () => STRING, default: undefined }],
    ['kind', { atom: () => STRING, default: undefined }],
    ['metadata', { atom: () => meta, default: undefined }],
  ]);
  return {
    atomic: map.atomic,
    field: (name) => envelope.get(name) ?? map.field(name),
    hasFields: true,
    elem: () => map.elem(),
    untypedDeduced: false,
  };
}

export function resolvedRoot(schema: FieldManagerSchema): Exclude<SchemaNode, { ref: string }> {
  return isRef(schema.root) ? schema.table.resolve(schema.root) : schema.root;
}
