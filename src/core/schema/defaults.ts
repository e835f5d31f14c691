// Structural defaulting (apiextensions-apiserver's structuraldefaulting): the
// `default` of a property is set where the property is missing, or null while
// not nullable, in every object that exists; defaults are deep copies and are
// themselves defaulted below. Runs after pruning, on request bodies and on
// objects read from storage. Built-in kinds are defaulted by Go code
// (Strategy.default), never from their OpenAPI defaults.

import { isRef, type SchemaNode, type SchemaTable } from './types';

type Resolver = (node: SchemaNode) => Exclude<SchemaNode, { ref: string }>;

function resolver(table?: SchemaTable): Resolver {
  return (node) => {
    if (!isRef(node)) return node;
    if (!table) throw new Error(`schema ref ${node.ref} without a table`);
    return table.resolve(node);
  };
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function copy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** The default carried by a property node (a ref's own default, else the definition's). */
function defaultOf(node: SchemaNode, resolve: Resolver): unknown {
  if (isRef(node) && node.default !== undefined) return node.default;
  return resolve(node).default;
}

function nullable(node: SchemaNode, resolve: Resolver): boolean {
  return resolve(node).nullable === true;
}

/** Applies schema defaults to `x` in place. */
export function applyDefaults(x: unknown, schema: SchemaNode, table?: SchemaTable): void {
  defaultValue(x, schema, resolver(table));
}

function defaultValue(x: unknown, schema: SchemaNode, resolve: Resolver): void {
  const s = resolve(schema);
  if (Array.isArray(x)) {
    if (s.type !== 'array') return;
    for (let i = 0; i < x.length; i++) {
      const d = defaultOf(s.items, resolve);
      if (x[i] === null && !nullable(s.items, resolve) && d !== undefined) x[i] = copy(d);
      defaultValue(x[i], s.items, resolve);
    }
    return;
  }
  if (!isObject(x) || s.type !== 'object') return;
  const properties = s.properties ?? {};
  for (const [key, prop] of Object.entries(properties)) {
    const d = defaultOf(prop, resolve);
    if (d === undefined) continue;
    if (!Object.hasOwn(x, key) || (x[key] === null && !nullable(prop, resolve))) x[key] = copy(d);
  }
  for (const [key, value] of Object.entries(x)) {
    const prop = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (prop) {
      defaultValue(value, prop, resolve);
    } else if (s.additionalProperties) {
      const ap = s.additionalProperties;
      const d = defaultOf(ap, resolve);
      if (value === null && !nullable(ap, resolve) && d !== undefined) x[key] = copy(d);
      defaultValue(x[key], ap, resolve);
    }
  }
}

/**
 * Removes null values of non-nullable properties that have no default (the
 * unstructured decoder does this before defaulting, so such a null reads as
 * "absent" rather than failing validation).
 */
export function pruneNonNullableNullsWithoutDefaults(x: unknown, schema: SchemaNode, table?: SchemaTable): void {
  pruneNulls(x, schema, resolver(table));
}

function pruneNulls(x: unknown, schema: SchemaNode, resolve: Resolver): void {
  const s = resolve(schema);
  if (Array.isArray(x)) {
    if (s.type === 'array') for (const item of x) pruneNulls(item, s.items, resolve);
    return;
  }
  if (!isObject(x) || s.type !== 'object') return;
  const properties = s.properties ?? {};
  for (const [key, value] of Object.entries(x)) {
    const prop = Object.hasOwn(properties, key) ? properties[key] : s.additionalProperties;
    if (!prop) continue;
    if (value === null) {
      if (!nullable(prop, resolve) && defaultOf(prop, resolve) === undefined) delete x[key];
      continue;
    }
    pruneNulls(value, prop, resolve);
  }
}
