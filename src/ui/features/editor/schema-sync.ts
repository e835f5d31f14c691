// Keeps monaco-yaml's schema in step with the buffer: when the set of
// apiVersion/kind pairs in it changes, the OpenAPI documents of those
// group-versions are fetched from the server and one schema is built.

import type { DiscoveredResource } from '../../lib/api/discovery';
import { buildManifestSchema, OpenApiCache } from '../../lib/schema/openapi-schema';
import { parseBuffer } from '../../lib/yaml/yaml-text';

export const MANIFEST_MODEL_URI = 'file:///kubetab/manifest.yaml';

const cache = new OpenApiCache();
let lastKey = '';

export async function schemaForBuffer(text: string, resources: readonly DiscoveredResource[]): Promise<Record<string, unknown> | null> {
  const pairs = new Map<string, { apiVersion: string; kind: string }>();
  for (const doc of parseBuffer(text)) {
    const value = doc.value as { apiVersion?: unknown; kind?: unknown } | null;
    if (value && typeof value.apiVersion === 'string' && typeof value.kind === 'string') pairs.set(`${value.apiVersion}|${value.kind}`, { apiVersion: value.apiVersion, kind: value.kind });
  }
  const key = `${[...pairs.keys()].sort().join(',')}#${resources.length}`;
  if (key === lastKey) return null;
  lastKey = key;
  const kinds = [];
  for (const pair of pairs.values()) {
    const document = await cache.document(pair.apiVersion).catch(() => null);
    if (document) kinds.push({ ...pair, document });
  }
  const served = resources.filter((r) => !r.resource.includes('/')).map((r) => ({ apiVersion: r.groupVersion, kind: r.kind }));
  return buildManifestSchema({ served, kinds });
}

/** Forces the next call to rebuild (new CRDs). */
export function resetSchema(): void {
  lastKey = '';
  cache.invalidate();
}
