// After a merge, kube-apiserver converts the result back into the Go type of
// a built-in kind. An explicit null for an optional field becomes the zero
// value, which is not written back: the field disappears (and defaulting may
// then set it, e.g. replicas: 1). Required fields keep their null. Nulls
// that pruning left where a map or list lost its last entry go the same way.
//
// Custom resources keep their nulls here; their CRD defaulting and pruning
// handle them.

import { isRef, type SchemaNode, type SchemaTable } from '../../schema/types';
import { isObject } from '../value/compare';

/** Removes, in place, null values of optional struct fields, following the schema. */
export function dropOptionalNulls(value: unknown, node: SchemaNode, table: SchemaTable, depth = 0): void {
  if (depth > 64 || value === null || typeof value !== 'object') return;
  const def = isRef(node) ? table.resolve(node) : node;
  if (Array.isArray(value)) {
    if (def.type === 'array') for (const item of value) dropOptionalNulls(item, def.items, table, depth + 1);
    return;
  }
  if (def.type !== 'object') return;
  const obj = value as Record<string, unknown>;
  const props = def.properties;
  const required = def.required;
  // ObjectMeta.creationTimestamp is a metav1.Time value, not a pointer: Go writes it as null.
  const keepTimestamp = props !== undefined && 'creationTimestamp' in props && 'managedFields' in props;
  for (const key of Object.keys(obj)) {
    const prop = props?.[key];
    const child = obj[key];
    if (prop) {
      if (child === null) {
        if (!required?.includes(key) && !(keepTimestamp && key === 'creationTimestamp')) delete obj[key];
      } else dropOptionalNulls(child, prop, table, depth + 1);
    } else if (def.additionalProperties && isObject(child)) dropOptionalNulls(child, def.additionalProperties, table, depth + 1);
    else if (def.additionalProperties && Array.isArray(child)) dropOptionalNulls(child, def.additionalProperties, table, depth + 1);
  }
}
