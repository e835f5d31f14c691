// Paths of the /openapi/v2 document, converted from the v3 path items that
// src/core/schema/openapi.ts renders for each served group-version.
//
// A v2 operation says in `consumes` / `produces` what v3 says per request body
// and response; its request body is a parameter `in: body` named "body"; a
// query or path parameter carries its type itself; each response has a
// description (the HTTP status text, as kube's builder writes it); every
// operation lists `schemes: [https]`. Parameters that every operation of a
// path has (other than a body) are the path's own, as kube-openapi's builder
// hoists them (findCommonParameters); every list of parameters is sorted by
// name.

import { toV2Ref } from './swagger-schema';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

/** Media types in the order kube's routes list them (the serializers' order, then the streaming ones). */
const MEDIA_ORDER = [
  // pods/log's route lists text/plain before the serializers.
  'text/plain',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'application/apply-patch+cbor',
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/cbor',
  'application/json;stream=watch',
  'application/vnd.kubernetes.protobuf;stream=watch',
  'application/cbor-seq',
];

function inKubeOrder(types: readonly string[]): string[] {
  const rank = (t: string) => {
    const i = MEDIA_ORDER.indexOf(t);
    return i === -1 ? MEDIA_ORDER.length : i;
  };
  return [...types].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Go's http.StatusText for the codes kube's operations answer with. */
const STATUS_TEXT: Readonly<Record<string, string>> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '401': 'Unauthorized',
};

const byName = (a: Json, b: Json) => {
  const x = String(a.name);
  const y = String(b.name);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** A v3 query or path parameter (`schema: {type, uniqueItems}`) in v2 form. */
function toV2Parameter(p: Json): Json {
  const out: Json = { in: p.in, name: p.name };
  if (p.required) out.required = true;
  const schema = (p.schema ?? {}) as Json;
  for (const [k, v] of Object.entries(schema)) out[k] = v;
  return out;
}

function schemaOfContent(content: unknown): Json | undefined {
  if (!content || typeof content !== 'object') return undefined;
  for (const media of Object.values(content as Json)) {
    const schema = (media as Json | undefined)?.schema as Json | undefined;
    if (schema && typeof schema.$ref === 'string') return { $ref: toV2Ref(schema.$ref) };
    // A string response (pods/log, connect operations) keeps its inline schema.
    if (schema && typeof schema.type === 'string') return { type: schema.type };
  }
  return undefined;
}

function toV2Operation(op: Json): Json {
  const out: Json = {};
  const body = op.requestBody as Json | undefined;
  const responses = (op.responses ?? {}) as Record<string, Json>;
  const produced = new Set<string>();
  for (const response of Object.values(responses)) for (const t of Object.keys((response.content as Json | undefined) ?? {})) produced.add(t);
  const produces = inKubeOrder([...produced]);
  const bodyTypes = body ? Object.keys((body.content as Json | undefined) ?? {}) : [];
  // A body with a schema per patch type is a patch; everything else takes */* (discovery documents take what they give).
  if (bodyTypes.length && !bodyTypes.includes('*/*')) out.consumes = inKubeOrder(bodyTypes);
  else out.consumes = op['x-kubernetes-action'] === undefined ? produces : ['*/*'];
  out.operationId = op.operationId;
  const parameters: Json[] = ((op.parameters as Json[] | undefined) ?? []).map(toV2Parameter);
  if (body) {
    const p: Json = { in: 'body', name: 'body' };
    if (body.required) p.required = true;
    p.schema = schemaOfContent(body.content) ?? {};
    parameters.push(p);
  }
  if (parameters.length) out.parameters = parameters.sort(byName);
  out.produces = produces;
  const v2Responses: Json = {};
  for (const [code, response] of Object.entries(responses)) {
    const r: Json = { description: STATUS_TEXT[code] ?? '' };
    const schema = schemaOfContent(response.content);
    if (schema) r.schema = schema;
    v2Responses[code] = r;
  }
  out.responses = v2Responses;
  out.schemes = ['https'];
  for (const [k, v] of Object.entries(op)) {
    if (k === 'tags' || k.startsWith('x-')) out[k] = v;
  }
  return out;
}

const paramKey = (p: Json) => `${String(p.in)}\u0000${String(p.name)}`;

/** A v3 path item in v2 form, with the parameters all its operations share moved up to the path. */
export function toSwaggerPathItem(item: Json): Json {
  const out: Json = {};
  const ops: [string, Json][] = [];
  for (const method of METHODS) {
    const op = item[method] as Json | undefined;
    if (op) ops.push([method, toV2Operation(op)]);
  }
  const pathParams: Json[] = ((item.parameters as Json[] | undefined) ?? []).map(toV2Parameter);
  if (ops.length) {
    // findCommonParameters: a non-body parameter every operation has belongs to the path.
    const counts = new Map<string, { count: number; param: Json }>();
    for (const [, op] of ops) {
      for (const p of (op.parameters as Json[] | undefined) ?? []) {
        if (p.in === 'body') continue;
        const entry = counts.get(paramKey(p)) ?? { count: 0, param: p };
        entry.count++;
        counts.set(paramKey(p), entry);
      }
    }
    const common = new Set([...counts].filter(([, e]) => e.count === ops.length).map(([k]) => k));
    const have = new Set(pathParams.map(paramKey));
    for (const key of common) if (!have.has(key)) pathParams.push(counts.get(key)!.param);
    for (const [, op] of ops) {
      const own = ((op.parameters as Json[] | undefined) ?? []).filter((p) => !common.has(paramKey(p)));
      if (own.length) op.parameters = own;
      else delete op.parameters;
    }
  }
  for (const [method, op] of ops) out[method] = op;
  if (pathParams.length) out.parameters = pathParams.sort(byName);
  return out;
}
