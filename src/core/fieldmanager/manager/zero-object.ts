// The "empty object" kube-apiserver's field manager compares a created object
// with (runtime.ObjectCreater.New for the kind, as the typed converter sees
// it). For built-in kinds the Go zero value is not empty: structs that are
// not pointers are always present ({}), required pointers, lists and maps
// are null, and ObjectMeta always carries creationTimestamp: null. Which
// parts exist decides where an update's ownership shows `.` entries.
//
// The OpenAPI documents record these facts: a non-pointer struct field has
// `default: {}`, a field without omitempty is `required`. A custom resource's
// empty object has only apiVersion and kind.

import type { KubeObject } from '../../kinds/types';
import { isRef, type SchemaNode, type SchemaTable } from '../../schema/types';
import { isObject } from '../value/compare';
import type { FieldManagerSchema } from './schema-input';

export function zeroObject(schema: FieldManagerSchema, apiVersion: string, kind: string | undefined): KubeObject {
  const head: KubeObject = { apiVersion };
  if (kind !== undefined) head.kind = kind;
  if (schema.customResource || schema.unstructuredCustomResource) return head;
  const body = zeroStruct(schema.root, schema.table, 0) ?? {};
  delete body.apiVersion;
  delete body.kind;
  return { ...head, ...body };
}

function zeroStruct(node: SchemaNode, table: SchemaTable, depth: number): Record<string, unknown> | undefined {
  if (depth > 16) return {};
  const def = isRef(node) ? table.resolve(node) : node;
  if (def.type !== 'object' || !def.properties) return {};
  const out: Record<string, unknown> = {};
  const required = new Set(def.required ?? []);
  const props = def.properties;
  const isObjectMeta = 'managedFields' in props && 'creationTimestamp' in props && 'ownerReferences' in props;
  for (const name of Object.keys(props)) {
    const prop = props[name]!;
    const propDefault = (prop as { default?: unknown }).default;
    const resolved = isRef(prop) ? table.resolve(prop) : prop;
    if (isObject(propDefault) && Object.keys(propDefault).length === 0 && resolved.type === 'object' && resolved.properties) {
      // A struct value (not a pointer): present even when empty.
      out[name] = zeroStruct(prop, table, depth + 1);
    } else if (required.has(name)) {
      out[name] = zeroScalar(resolved.type);
    } else if (isObjectMeta && name === 'creationTimestamp') {
      // metav1.Time is a struct without omitempty effect: always written, as null.
      out[name] = null;
    }
  }
  return out;
}

function zeroScalar(type: string): unknown {
  switch (type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
