// JSON schemas for the editor, built from the server's own /openapi/v3
// documents (so custom resources are covered the moment their CRD is
// served). One schema for a buffer: each document is checked against the
// schema of its apiVersion and kind (if/then on both), and apiVersion/kind
// complete from what the server serves.

import { apiJson } from '../api/client';
import { ENUM_FACTS } from './enum-facts';
import { describeField } from './field-docs';

export interface OpenApiDocument {
  components?: { schemas?: Record<string, SchemaObject> };
}

export type SchemaObject = Record<string, unknown> & {
  properties?: Record<string, SchemaObject>;
  additionalProperties?: boolean | SchemaObject;
  items?: SchemaObject;
  allOf?: SchemaObject[];
  $ref?: string;
  'x-kubernetes-group-version-kind'?: Array<{ group: string; version: string; kind: string }>;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
};

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** apiVersion 'apps/v1' → the /openapi/v3 path 'apis/apps/v1'; 'v1' → 'api/v1'. */
export function openApiPathFor(apiVersion: string): string {
  return apiVersion.includes('/') ? `apis/${apiVersion}` : `api/${apiVersion}`;
}

export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const at = apiVersion.indexOf('/');
  return at < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, at), version: apiVersion.slice(at + 1) };
}

/**
 * Rewrites one OpenAPI schema for a JSON-schema validator: refs point into
 * `definitions`, and objects with declared properties refuse unknown fields
 * (as the server's strict field validation would) unless Kubernetes keeps
 * unknown fields there. Each property gets a description of its facts (type,
 * required, values; field-docs.ts) for the editor's hover, ahead of any its
 * author wrote; `enums` adds the values of enumerated fields the document
 * does not list (enum-facts.ts).
 */
export function toJsonSchema(schema: unknown, enums?: Readonly<Record<string, readonly string[]>>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => toJsonSchema(item));
  if (!schema || typeof schema !== 'object') return schema;
  const s = schema as SchemaObject;
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace('#/components/schemas/', '#/definitions/');
    else if (key === 'properties' && value && typeof value === 'object')
      out.properties = Object.fromEntries(Object.entries(value as Record<string, SchemaObject>).map(([name, property]) => [name, propertySchema(name, property, required, enums?.[name])]));
    else out[key] = toJsonSchema(value);
  }
  if (s.properties && s.additionalProperties === undefined && !s['x-kubernetes-preserve-unknown-fields']) out.additionalProperties = false;
  return out;
}

function propertySchema(name: string, property: SchemaObject, required: readonly string[], values: readonly string[] | undefined): unknown {
  const converted = toJsonSchema(property) as Record<string, unknown>;
  if (!converted || typeof converted !== 'object' || Array.isArray(converted)) return converted;
  const added = values && !Array.isArray(property.enum) ? values : undefined;
  if (added) converted.enum = [...added];
  const facts = describeField(name, property, required, added);
  converted.description = typeof property.description === 'string' && property.description ? `${facts}\n\n${property.description}` : facts;
  return converted;
}

/** The definition name of a kind in a document, or null. */
export function findKindSchema(document: OpenApiDocument, gvk: GroupVersionKind): string | null {
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    const kinds = schema['x-kubernetes-group-version-kind'] ?? [];
    if (kinds.some((k) => k.group === gvk.group && k.version === gvk.version && k.kind === gvk.kind)) return name;
  }
  return null;
}

export interface ManifestSchemaInput {
  /** Every apiVersion and kind served (for completion). */
  readonly served: ReadonlyArray<{ apiVersion: string; kind: string }>;
  /** The kinds present in the buffer, with the OpenAPI document of their group-version. */
  readonly kinds: ReadonlyArray<{ apiVersion: string; kind: string; document: OpenApiDocument }>;
}

export function buildManifestSchema(input: ManifestSchemaInput): Record<string, unknown> {
  const definitions: Record<string, unknown> = {};
  const branches: unknown[] = [];
  const seenDocs = new Set<OpenApiDocument>();
  for (const { apiVersion, kind, document } of input.kinds) {
    const name = findKindSchema(document, { ...splitApiVersion(apiVersion), kind });
    if (!name) continue;
    if (!seenDocs.has(document)) {
      seenDocs.add(document);
      for (const [defName, def] of Object.entries(document.components?.schemas ?? {})) definitions[defName] ??= toJsonSchema(def, ENUM_FACTS[defName]);
    }
    branches.push({
      if: { properties: { apiVersion: { const: apiVersion }, kind: { const: kind } }, required: ['apiVersion', 'kind'] },
      then: { $ref: `#/definitions/${name}` },
    });
  }
  const apiVersions = [...new Set(input.served.map((s) => s.apiVersion))].sort();
  const kinds = [...new Set(input.served.map((s) => s.kind))].sort();
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    required: ['apiVersion', 'kind'],
    properties: {
      apiVersion: { type: 'string', enum: apiVersions },
      kind: { type: 'string', enum: kinds },
    },
    allOf: branches,
    definitions,
  };
}

/** Fetches (and caches) the OpenAPI v3 document of each group-version. */
export class OpenApiCache {
  private index: Promise<Record<string, { serverRelativeURL: string }>> | null = null;
  private readonly documents = new Map<string, Promise<OpenApiDocument>>();

  async document(apiVersion: string): Promise<OpenApiDocument | null> {
    this.index ??= apiJson<{ paths: Record<string, { serverRelativeURL: string }> }>('/openapi/v3').then((i) => i.paths);
    const paths = await this.index;
    const entry = paths[openApiPathFor(apiVersion)];
    if (!entry) {
      // A group-version served since the index was read (a new CRD): read the index again next time.
      this.index = null;
      return null;
    }
    // The URL carries the document's hash: a changed schema is a new URL.
    const url = entry.serverRelativeURL;
    let document = this.documents.get(url);
    if (!document) {
      document = apiJson<OpenApiDocument>(url);
      this.documents.set(url, document);
      document.catch(() => this.documents.delete(url));
    }
    return document;
  }

  /** Forget the index (after discovery changed). */
  invalidate(): void {
    this.index = null;
  }
}
