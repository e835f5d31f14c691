// GET /openapi/v2 as kube-apiserver serves it (kube-openapi's handler behind
// Go's http.ServeContent):
// - content negotiation over the Accept clauses in goautoneg's order (an
//   absent header is */*): application/json first, then the gnostic protobuf
//   under its two names (…spec.v2@v1.0+protobuf, the one client-go asks for,
//   and …spec.v2.v1.0+protobuf); either protobuf name answers with
//   Content-Type application/com.github.proto-openapi.spec.v2.v1.0+protobuf;
// - a type none of them matches: 406 with an empty body;
// - ETag: the quoted upper-case hex SHA-512 of the JSON document, the same
//   for both encodings (the response varies on Accept);
// - Last-Modified: when the document was built; If-None-Match (weak
//   comparison, "*" or a list) and, without it, If-Modified-Since answer 304
//   with no body, no Content-Type and no Last-Modified, as ServeContent does;
// - Accept-Ranges: bytes, Vary: Accept.
//
// The JSON text, its hash and the protobuf bytes are built once per set of
// served resources (the registry's generation moves when a CRD is
// established or removed; --runtime-config is fixed for the server's life)
// and shared by every later request.

import { errors } from '../../errors/status';
import { parseAccept } from '../negotiation/accept';
import { encodeJson } from '../negotiation/json-encode';
import type { ServerContext } from '../context';
import { versionInfo } from '../version';
import { encodeSwaggerProtobuf } from './gnostic-encode';
import { buildSwaggerDocument, type GroupVersionSource } from './swagger-document';

export const PROTOBUF_SUBTYPE = 'com.github.proto-openapi.spec.v2.v1.0+protobuf';
export const PROTOBUF_SUBTYPE_DEPRECATED = 'com.github.proto-openapi.spec.v2@v1.0+protobuf';

interface SwaggerCache {
  readonly generation: number;
  readonly json: string;
  readonly etag: string;
  /** Seconds precision, as ServeContent compares it. */
  readonly lastModified: number;
  proto?: Uint8Array<ArrayBuffer>;
}

const caches = new WeakMap<ServerContext, Promise<SwaggerCache>>();
const generations = new WeakMap<ServerContext, number>();

export type SourcesOf = (ctx: ServerContext) => Promise<readonly GroupVersionSource[]>;

/** Upper-case hex SHA-512 of the bytes served, as kube-openapi's computeETag. */
async function sha512Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-512', new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join('');
}

async function build(ctx: ServerContext, sourcesOf: SourcesOf, generation: number): Promise<SwaggerCache> {
  const version = versionInfo(ctx.host).gitVersion!.split('-')[0]!;
  const doc = await buildSwaggerDocument(await sourcesOf(ctx), { version });
  // json.Marshal: Go's escaping, no trailing newline.
  const json = encodeJson(doc).replace(/\n$/, '');
  const etag = await sha512Hex(json);
  return { generation, json, etag, lastModified: Math.floor(ctx.clock.now() / 1000) * 1000 };
}

/** The cached v2 document of this server, rebuilt when the served resources change. */
export function swaggerCache(ctx: ServerContext, sourcesOf: SourcesOf): Promise<SwaggerCache> {
  const generation = ctx.registry.generation;
  const cached = caches.get(ctx);
  if (cached && generations.get(ctx) === generation) return cached;
  const pending = build(ctx, sourcesOf, generation);
  caches.set(ctx, pending);
  generations.set(ctx, generation);
  // A failed build is not kept: the next request tries again.
  pending.catch(() => {
    if (caches.get(ctx) === pending) caches.delete(ctx);
  });
  return pending;
}

function baseHeaders(): Record<string, string> {
  return { 'Cache-Control': 'no-cache, private', Vary: 'Accept' };
}

/** Go's checkIfNoneMatch: "*" or any listed tag equal to ours, ignoring W/. */
function noneMatchHits(header: string, etag: string): boolean {
  const ours = etag.replace(/^W\//, '');
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*') return true;
    if (tag.replace(/^W\//, '') === ours) return true;
  }
  return false;
}

function notModified(request: Request, etag: string, lastModified: number): boolean {
  const inm = request.headers.get('If-None-Match');
  if (inm !== null) return noneMatchHits(inm, etag);
  const ims = request.headers.get('If-Modified-Since');
  if (ims === null) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && lastModified <= since;
}

export async function handleOpenApiV2(ctx: ServerContext, request: Request, sourcesOf: SourcesOf): Promise<Response> {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') throw errors.methodNotAllowedOnPath();
  const accepted: [string, 'json' | 'proto'][] = [
    ['json', 'json'],
    [PROTOBUF_SUBTYPE_DEPRECATED, 'proto'],
    [PROTOBUF_SUBTYPE, 'proto'],
  ];
  let chosen: 'json' | 'proto' | undefined;
  outer: for (const clause of parseAccept(request.headers.get('Accept') || '*/*')) {
    for (const [subType, encoding] of accepted) {
      if (clause.type !== 'application' && clause.type !== '*') continue;
      if (clause.subType !== subType && clause.subType !== '*') continue;
      chosen = encoding;
      break outer;
    }
  }
  if (!chosen) return new Response(null, { status: 406, headers: baseHeaders() });

  const cache = await swaggerCache(ctx, sourcesOf);
  const etag = `"${cache.etag}"`;
  if (notModified(request, etag, cache.lastModified)) {
    return new Response(null, { status: 304, headers: { ...baseHeaders(), Etag: etag } });
  }
  let body: string | Uint8Array<ArrayBuffer>;
  let contentType: string;
  if (chosen === 'json') {
    body = cache.json;
    contentType = 'application/json';
  } else {
    // ProtoWriter.finish() copies into a fresh ArrayBuffer.
    cache.proto ??= encodeSwaggerProtobuf(JSON.parse(cache.json) as Record<string, unknown>) as Uint8Array<ArrayBuffer>;
    body = cache.proto;
    contentType = `application/${PROTOBUF_SUBTYPE}`;
  }
  const headers = {
    ...baseHeaders(),
    'Accept-Ranges': 'bytes',
    'Content-Type': contentType,
    Etag: etag,
    'Last-Modified': new Date(cache.lastModified).toUTCString(),
  };
  return new Response(method === 'HEAD' ? null : body, { status: 200, headers });
}
