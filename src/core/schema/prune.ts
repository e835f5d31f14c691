// Dropping unknown fields.
//
// Built-in kinds: decoding a body into the Go type keeps only the fields the
// type has (pruneBuiltin). Custom resources: structural pruning
// (apiextensions-apiserver's pruning.PruneWithOptions): fields the schema does
// not specify are removed, except below x-kubernetes-preserve-unknown-fields,
// and apiVersion/kind/metadata are kept at the root and in every
// x-kubernetes-embedded-resource. `metadata` itself is decoded as an
// ObjectMeta, which drops its unknown fields.
//
// Every function returns the paths it removed, in kube's notation
// ("spec.foo", "spec.items[0].bar", map keys as path segments).

import { getBuiltinSchemaTable } from './builtin-table';
import { pruneNonNullableNullsWithoutDefaults } from './defaults';
import { compareGoStrings } from './json-ast';
import { isRef, type SchemaNode, type SchemaTable } from './types';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

type Resolved = Exclude<SchemaNode, { ref: string }>;

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function join(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

/**
 * Removes the fields a built-in Go type does not have, in place. Values of
 * the wrong JSON type are left alone (the type check reports them); fields of
 * type `any` (RawExtension, …) keep everything.
 *
 * @param sortKeys visit keys in sorted order (how kube decodes a re-marshaled map, e.g. ObjectMeta of a custom resource)
 */
export function pruneBuiltin(x: unknown, schema: SchemaNode, table: SchemaTable, path = '', sortKeys = false): string[] {
  const removed: string[] = [];
  const walk = (value: unknown, node: SchemaNode, at: string): void => {
    const s = table.resolve(node);
    if (Array.isArray(value)) {
      if (s.type === 'array') value.forEach((item, i) => walk(item, s.items, `${at}[${i}]`));
      return;
    }
    if (!isObject(value) || s.type !== 'object') return;
    const keys = Object.keys(value);
    if (sortKeys) keys.sort(compareGoStrings);
    for (const key of keys) {
      if (s.properties) {
        const prop = Object.hasOwn(s.properties, key) ? s.properties[key] : undefined;
        if (prop) walk(value[key], prop, join(at, key));
        else {
          removed.push(join(at, key));
          delete value[key];
        }
      } else if (s.additionalProperties) {
        walk(value[key], s.additionalProperties, join(at, key));
      }
    }
  };
  walk(x, schema, path);
  return removed;
}

/**
 * Structural pruning of a custom resource (or any value under a CRD schema),
 * in place. Returns the removed paths sorted, as kube reports them.
 *
 * @param isResourceRoot keep apiVersion/kind/metadata at the top, as for a whole object
 */
export function pruneStructural(x: unknown, schema: SchemaNode | undefined, table?: SchemaTable, isResourceRoot = true): string[] {
  const removed: string[] = [];
  const resolve = (node: SchemaNode | undefined): Resolved | undefined => {
    if (!node) return undefined;
    if (!isRef(node)) return node;
    return (table ?? getBuiltinSchemaTable()).resolve(node);
  };
  const walk = (value: unknown, node: SchemaNode | undefined, at: string, root: boolean): void => {
    const s = resolve(node);
    const embedded = root || s?.embeddedResource === true;
    if (s?.preserveUnknownFields) return skip(value, s, at, embedded);
    if (Array.isArray(value)) {
      const items = s?.type === 'array' ? s.items : undefined;
      value.forEach((item, i) => walk(item, items, `${at}[${i}]`, false));
      return;
    }
    if (!isObject(value)) return;
    const properties = s?.type === 'object' ? (s.properties ?? {}) : {};
    const additional = s?.type === 'object' ? s.additionalProperties : undefined;
    for (const key of Object.keys(value)) {
      if (embedded && META_FIELDS.has(key)) continue;
      const prop = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (prop) walk(value[key], prop, join(at, key), false);
      else if (additional) walk(value[key], additional, join(at, key), false);
      else {
        removed.push(join(at, key));
        delete value[key];
      }
    }
  };
  // Below x-kubernetes-preserve-unknown-fields unknown fields stay, known ones are still pruned inside.
  const skip = (value: unknown, s: Resolved, at: string, embedded: boolean): void => {
    if (Array.isArray(value)) {
      const items = s.type === 'array' ? resolve(s.items) : undefined;
      value.forEach((item, i) => {
        if (items) skip(item, items, `${at}[${i}]`, items.embeddedResource === true);
      });
      return;
    }
    if (!isObject(value) || s.type !== 'object') return;
    for (const key of Object.keys(value)) {
      if (embedded && META_FIELDS.has(key)) continue;
      const prop = s.properties && Object.hasOwn(s.properties, key) ? s.properties[key] : undefined;
      if (prop) walk(value[key], prop, join(at, key), false);
      else if (s.additionalProperties) walk(value[key], s.additionalProperties, join(at, key), false);
    }
  };
  walk(x, schema, '', isResourceRoot);
  return removed.sort(compareGoStrings);
}

/**
 * What the custom-resource decoder does to a body before validation, in
 * place: drops unknown ObjectMeta fields, prunes structurally, removes
 * non-nullable nulls without defaults, and drops unknown ObjectMeta fields of
 * embedded resources. Returns the unknown field paths in the order kube
 * reports them (metadata, pruned sorted, embedded metadata).
 */
export function pruneCustomResource(obj: Record<string, unknown>, schema: SchemaNode, table?: SchemaTable): string[] {
  const builtin = getBuiltinSchemaTable();
  const objectMeta = { ref: OBJECT_META };
  const unknown: string[] = [];
  if (isObject(obj.metadata)) unknown.push(...pruneBuiltin(obj.metadata, objectMeta, builtin, 'metadata', true));
  unknown.push(...pruneStructural(obj, schema, table, true));
  pruneNonNullableNullsWithoutDefaults(obj, schema, table);
  // Embedded resources' metadata (schemaobjectmeta.Coerce).
  const embedded: string[] = [];
  const resolve = (node: SchemaNode): Resolved => (isRef(node) ? (table ?? builtin).resolve(node) : node);
  const walk = (value: unknown, node: SchemaNode | undefined, at: string, root: boolean): void => {
    if (!node) return;
    const s = resolve(node);
    if (Array.isArray(value)) {
      if (s.type === 'array') value.forEach((item, i) => walk(item, s.items, `${at}[${i}]`, false));
      return;
    }
    if (!isObject(value) || s.type !== 'object') return;
    if (s.embeddedResource && !root && isObject(value.metadata)) {
      embedded.push(...pruneBuiltin(value.metadata, objectMeta, builtin, join(at, 'metadata'), true));
    }
    for (const [key, child] of Object.entries(value)) {
      if (root && key === 'metadata') continue;
      const prop = s.properties && Object.hasOwn(s.properties, key) ? s.properties[key] : s.additionalProperties;
      walk(child, prop, join(at, key), false);
    }
  };
  walk(obj, schema, '', true);
  unknown.push(...embedded);
  return unknown;
}
