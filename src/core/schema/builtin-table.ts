// The schema table of every built-in kind of a 1.32 server, from the tables
// scripts/gen-schemas.mjs generated out of the upstream OpenAPI v3 documents.
//
// Loaded synchronously and all at once: the whole table is ~270 KiB of source
// (~37 KiB gzipped), less than splitting it per group-version would save in
// round trips (docs/decisions/0020-builtin-schema-tables.md).

import { modules } from './generated/all';
import { definitionGroupVersionKinds, definitionUnions, deleteReturnsObject, groupVersionPaths, inlineCopies, kindDefinitions, publishedForms } from './generated/index';
import { createSchemaTable, type RefNode, type SchemaNode, type SchemaTable } from './types';

let table: SchemaTable | undefined;

/** Every built-in definition ("io.k8s.api.core.v1.PodSpec", …) in one table. Built once, shared. */
export function getBuiltinSchemaTable(): SchemaTable {
  if (!table) {
    const definitions: Record<string, SchemaNode> = {};
    for (const defs of Object.values(modules)) Object.assign(definitions, defs);
    table = createSchemaTable(definitions);
  }
  return table;
}

function groupVersionKey(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** The root definition of a built-in kind, e.g. ('apps', 'v1', 'Deployment') → "io.k8s.api.apps.v1.Deployment". */
export function rootDefinitionFor(group: string, version: string, kind: string): string | undefined {
  return kindDefinitions[groupVersionKey(group, version)]?.[kind];
}

/** A ref node to a built-in kind's root definition (what ResourceVersionDefinition.schema holds for built-ins). */
export function builtinSchemaRef(group: string, version: string, kind: string): RefNode {
  const ref = rootDefinitionFor(group, version, kind);
  if (!ref) throw new Error(`no built-in schema for ${groupVersionKey(group, version)}, Kind=${kind}`);
  return { ref };
}

/** Kinds (with their root definitions) an upstream document lists for a group-version; undefined if none. */
export function builtinKindsOf(group: string, version: string): Readonly<Record<string, string>> | undefined {
  return kindDefinitions[groupVersionKey(group, version)];
}

/** The x-kubernetes-group-version-kind list of a built-in definition (empty for non-root definitions). */
export function groupVersionKindsOf(definition: string): readonly { group: string; version: string; kind: string }[] {
  return definitionGroupVersionKinds[definition] ?? [];
}

/** The /openapi/v3 path of a group-version: "api/v1", "apis/apps/v1". */
export function openAPIPathFor(group: string, version: string): string {
  return groupVersionPaths[groupVersionKey(group, version)] ?? (group ? `apis/${group}/${version}` : `api/${version}`);
}

/** The x-kubernetes-unions of a built-in definition, if it has any. */
export function unionsOf(definition: string): readonly unknown[] | undefined {
  return definitionUnions[definition];
}

let copies: WeakMap<object, string> | undefined;

/**
 * The definition a built-in field's inline node copies, if it is one: a field
 * with its own x-kubernetes-map-type / patch-strategy over a named type
 * (PersistentVolumeSpec.claimRef → ObjectReference) holds a copy, since a ref
 * carries no markers. The Go type and the published schema are still the named one.
 */
export function inlineCopyOf(node: SchemaNode): string | undefined {
  if (!copies) {
    copies = new WeakMap();
    const defs = getBuiltinSchemaTable().definitions;
    for (const [where, name] of Object.entries(inlineCopies)) {
      const dot = where.lastIndexOf('.');
      const owner = defs[where.slice(0, dot)] as { properties?: Record<string, SchemaNode> } | undefined;
      const field = owner?.properties?.[where.slice(dot + 1)];
      if (field) copies.set(field, name);
    }
  }
  return copies.get(node);
}

/**
 * How a built-in node is published in the OpenAPI documents when its
 * SchemaNode alone does not say it: `copyOf` for a field-level marker over a
 * named type (published as `allOf` over that type), `plainRef` for a bare
 * `$ref` (upstream wraps a ref in `allOf` only when a default or description
 * stands beside it), and x-kubernetes-* markers a node of its kind cannot hold
 * (list-type on a byte string or on Status.details, the field-level marker).
 */
export interface PublishedForm {
  readonly copyOf?: string;
  readonly plainRef?: boolean;
  readonly extensions?: Readonly<Record<string, unknown>>;
}

let forms: WeakMap<object, PublishedForm> | undefined;

/** The node a generated location names: property steps, "{}" (additionalProperties), "[]" (items). */
function nodeAt(root: SchemaNode | undefined, path: readonly string[]): SchemaNode | undefined {
  let node = root as Record<string, unknown> | undefined;
  for (const s of path) {
    if (!node) return undefined;
    if (s === '{}') node = node.additionalProperties as Record<string, unknown> | undefined;
    else if (s === '[]') node = node.items as Record<string, unknown> | undefined;
    else node = (node.properties as Record<string, Record<string, unknown>> | undefined)?.[s];
  }
  return node as SchemaNode | undefined;
}

/** The published form of a built-in node, if it differs from what the node renders to (see PublishedForm). */
export function publishedFormOf(node: SchemaNode): PublishedForm | undefined {
  if (!forms) {
    const built = new WeakMap<object, PublishedForm>();
    const defs = getBuiltinSchemaTable().definitions;
    for (const [definition, entries] of Object.entries(publishedForms)) {
      for (const entry of entries) {
        const target = nodeAt(defs[definition], entry.path);
        if (!target) continue;
        const form: { -readonly [K in keyof PublishedForm]: PublishedForm[K] } = {};
        if (entry.plainRef) form.plainRef = true;
        if (entry.extensions) form.extensions = entry.extensions;
        built.set(target, form);
      }
    }
    for (const [where, name] of Object.entries(inlineCopies)) {
      const dot = where.lastIndexOf('.');
      const target = nodeAt(defs[where.slice(0, dot)], [where.slice(dot + 1)]);
      if (target) built.set(target, { ...built.get(target), copyOf: name });
    }
    forms = built;
  }
  return forms.get(node);
}

const deletesReturningObject = new Set(deleteReturnsObject);

/** Whether a built-in resource's DELETE answers with the deleted object (else a Status), as the 1.32 documents publish it. */
export function builtinDeleteReturnsObject(group: string, resource: string): boolean {
  return deletesReturningObject.has(`${group}/${resource}`);
}
