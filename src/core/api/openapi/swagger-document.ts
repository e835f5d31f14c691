// The /openapi/v2 document: one Swagger 2.0 document for every served
// group-version, merged the way kube-aggregator merges its sources. It is
// built from the same per-group-version OpenAPI v3 documents /openapi/v3
// serves (src/core/schema/openapi.ts renders them from the schema tables and
// the CRDs), converted to v2 — so both documents always describe the same
// paths, operations and schemas.

import { getBuiltinSchemaTable } from '../../schema/builtin-table';
import { DISCOVERY_DEFINITIONS, discoveryPaths } from './discovery-definitions';
import { toSwaggerPathItem } from './swagger-paths';
import { shareParameters } from './swagger-parameters';
import { crdSchemaToV2, toSwaggerDefinition, toSwaggerSchema } from './swagger-schema';

type Json = Record<string, unknown>;

export interface GroupVersionSource {
  readonly group: string;
  readonly version: string;
  /** The group-version's OpenAPI v3 document (as /openapi/v3/<path> serves it). */
  readonly document: Json;
  /** Whether built-in resources are served in it (a custom resources' group gets no group discovery path in v2). */
  readonly builtin: boolean;
}

export interface SwaggerOptions {
  /** info.version: the server's gitVersion up to its first "-", as kube-apiserver sets it. */
  readonly version: string;
}

/** Objects with keys in sorted order (Go marshals the document's maps sorted). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Json)[key]);
  return out;
}

export async function buildSwaggerDocument(sources: readonly GroupVersionSource[], options: SwaggerOptions): Promise<Json> {
  const builtin = getBuiltinSchemaTable().definitions;
  const paths: Record<string, Json> = {};
  const definitions: Record<string, unknown> = { ...DISCOVERY_DEFINITIONS };
  const groupPaths = new Map<string, string>();
  for (const source of sources) {
    const v3Paths = (source.document.paths ?? {}) as Record<string, Json>;
    // The CRD builder publishes a custom resource's own paths only (no group-version discovery path).
    const discovery = `/apis/${source.group}/${source.version}/`;
    for (const [path, item] of Object.entries(v3Paths)) {
      if (!source.builtin && path === discovery) continue;
      paths[path] = toSwaggerPathItem(item);
    }
    const schemas = ((source.document.components as Json | undefined)?.schemas ?? {}) as Json;
    for (const [name, schema] of Object.entries(schemas)) {
      // A name outside the built-in table is a custom resource's (or its list's) schema.
      definitions[name] = name in builtin ? toSwaggerDefinition(name, schema) : toSwaggerSchema(crdSchemaToV2(schema));
    }
    if (source.group && source.builtin) {
      const prefix = `/apis/${source.group}/${source.version}/`;
      const tag = ((v3Paths[prefix]?.get as Json | undefined)?.tags as string[] | undefined)?.[0];
      if (tag) groupPaths.set(`/apis/${source.group}/`, tag.split('_')[0]!);
    }
  }
  Object.assign(paths, discoveryPaths(groupPaths));
  const parameters = await shareParameters(paths);
  return sortKeys({
    definitions,
    info: { title: 'Kubernetes', version: options.version },
    parameters,
    paths,
    security: [{ BearerToken: [] }],
    securityDefinitions: { BearerToken: { in: 'header', name: 'authorization', type: 'apiKey' } },
    swagger: '2.0',
  }) as Json;
}
