// /openapi/v3 and /openapi/v3/<group-version path>, rendered from the served
// resources and their schemas, cached until the set of served resources
// changes (a CRD is added or removed). /openapi/v2 is the same group-version
// documents converted to one Swagger 2.0 document (./openapi/).

import { errors } from '../errors/status';
import type { ResourceDefinition } from '../kinds/types';
import { documentHash, openAPIPath, renderGroupVersionDocument, renderOpenAPIDiscovery } from '../schema/openapi';
import type { ServerContext } from './context';
import { encodeJson } from './media';
import type { GroupVersionSource } from './openapi/swagger-document';
import { handleOpenApiV2 } from './openapi/v2-handler';
import { textResponse } from './respond';
import { isRef } from '../schema/types';

interface Rendered {
  generation: number;
  documents: Map<string, Record<string, unknown>>;
  texts: Map<string, string>;
  hashes: Map<string, string>;
  index: string;
  /** The group-version documents with their group-versions, for /openapi/v2. */
  sources: GroupVersionSource[];
}

let cache: WeakMap<ServerContext, Rendered> = new WeakMap();

async function render(ctx: ServerContext): Promise<Rendered> {
  const cached = cache.get(ctx);
  if (cached && cached.generation === ctx.registry.generation) return cached;
  const generation = ctx.registry.generation;
  const documents = new Map<string, Record<string, unknown>>();
  const sources: GroupVersionSource[] = [];
  for (const group of ctx.registry.groups()) {
    for (const version of group.versions) {
      const served = ctx.registry.resourcesIn(group.name, version);
      const definitions: ResourceDefinition[] = served.map((s) => s.definition);
      const gv = { group: group.name, version };
      const document = renderGroupVersionDocument(gv, definitions);
      documents.set(openAPIPath(gv), document);
      sources.push({ group: group.name, version, document, builtin: served.some((s) => isRef(s.version.schema)) });
    }
  }
  const texts = new Map<string, string>();
  const hashes = new Map<string, string>();
  for (const [path, doc] of documents) {
    texts.set(path, JSON.stringify(doc));
    hashes.set(path, await documentHash(doc));
  }
  const index = encodeJson(await renderOpenAPIDiscovery(documents), false);
  const rendered = { generation, documents, texts, hashes, index, sources };
  cache.set(ctx, rendered);
  return rendered;
}

export function resetOpenApiCache(): void {
  cache = new WeakMap();
}

export async function handleOpenApi(ctx: ServerContext, request: Request, url: URL): Promise<Response> {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') throw errors.methodNotAllowedOnPath();
  const path = url.pathname.replace(/\/+$/, '');
  // Registered as an exact path in kube (no trailing-slash form).
  if (url.pathname === '/openapi/v2') return handleOpenApiV2(ctx, request, async (c) => (await render(c)).sources);
  if (path === '/openapi/v3') {
    const rendered = await render(ctx);
    return textResponse(rendered.index, 200, 'application/json');
  }
  if (path.startsWith('/openapi/v3/')) {
    const gvPath = path.slice('/openapi/v3/'.length);
    const rendered = await render(ctx);
    const text = rendered.texts.get(gvPath);
    if (text === undefined) throw errors.pathNotFound();
    const hash = rendered.hashes.get(gvPath)!;
    const headers: Record<string, string> = { Etag: `"${hash}"`, Vary: 'Accept' };
    // A request naming the current hash may be cached for a long time, as kube-apiserver allows.
    headers['Cache-Control'] = url.searchParams.get('hash') === hash ? 'public, immutable, max-age=31536000' : 'no-cache, private';
    return textResponse(text, 200, 'application/json', headers);
  }
  throw errors.pathNotFound();
}
