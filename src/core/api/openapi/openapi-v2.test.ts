// GET /openapi/v2: the Swagger 2.0 document a 1.32 kube-apiserver serves
// (spec 000 "Discovery and OpenAPI": the server publishes its schemas as
// OpenAPI v2 and v3; kubectl's client-side validation and `kubectl explain
// --output=plaintext-openapiv2` read v2), its content negotiation (JSON, the
// gnostic protobuf under both names, 406 otherwise), ETag / If-None-Match /
// If-Modified-Since, and the protobuf read back by an independent decoder
// (protobufjs with the gnostic message layout) into the same document.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { parse as parseYaml } from 'yaml';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { createEstablished } from '../../crd/tests/fixtures';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BASE = 'http://kubetab.test';
const PB = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const PB_NEW = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function fetchV2(server: TestServer, headers: Record<string, string> = {}, method = 'GET', path = '/openapi/v2'): Promise<Response> {
  return server.server.handle(new Request(`${BASE}${path}`, { method, headers }));
}

async function documentOf(server: TestServer): Promise<Json> {
  const res = await fetchV2(server);
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
}

/** A parameter with its shared $ref resolved. */
function resolveParam(doc: Json, p: Json): Json {
  return typeof p.$ref === 'string' ? doc.parameters[p.$ref.slice('#/parameters/'.length)] : p;
}
const paramNames = (doc: Json, list: Json[] | undefined) => (list ?? []).map((p) => resolveParam(doc, p).name);

function walk(value: unknown, visit: (o: Json, path: string) => void, path = ''): void {
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, visit, `${path}[${i}]`));
  else if (value && typeof value === 'object') {
    visit(value as Json, path);
    for (const [k, v] of Object.entries(value)) walk(v, visit, `${path}.${k}`);
  }
}

describe('/openapi/v2 JSON document', () => {
  let doc: Json;
  let res: Response;
  beforeAll(async () => {
    const server = await startTestServer();
    res = await fetchV2(server);
    doc = (await res.json()) as Json;
    await server.close();
  });

  it('is a Swagger 2.0 document titled Kubernetes with the server version and BearerToken security', () => {
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(doc.swagger).toBe('2.0');
    expect(doc.info).toEqual({ title: 'Kubernetes', version: 'v1.32.0' });
    expect(doc.securityDefinitions).toEqual({ BearerToken: { in: 'header', name: 'authorization', type: 'apiKey' } });
    expect(doc.security).toEqual([{ BearerToken: [] }]);
  });

  it('names definitions as 1.32 does, with plain $refs, GVKs and the list / patch markers (no defaults, no allOf, no nullable)', () => {
    const pod = doc.definitions['io.k8s.api.core.v1.Pod'];
    expect(pod['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    expect(pod.properties.spec).toEqual({ $ref: '#/definitions/io.k8s.api.core.v1.PodSpec' });
    expect(pod.properties.metadata).toEqual({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' });
    expect(doc.definitions['io.k8s.api.core.v1.PodSpec'].properties.containers).toEqual({
      items: { $ref: '#/definitions/io.k8s.api.core.v1.Container' },
      type: 'array',
      'x-kubernetes-list-map-keys': ['name'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
    });
    // A field-level marker over a named type is the $ref with the marker beside it.
    expect(doc.definitions['io.k8s.api.apps.v1.DeploymentSpec'].properties.strategy).toEqual({
      $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentStrategy',
      'x-kubernetes-patch-strategy': 'retainKeys',
    });
    expect(doc.definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toEqual({ format: 'int-or-string', type: 'string' });
    expect(doc.definitions['io.k8s.apimachinery.pkg.api.resource.Quantity']).toEqual({ type: 'string' });
    const unions = Object.values(doc.definitions as Record<string, Json>).filter((d) => d['x-kubernetes-unions']);
    expect(unions.length).toBeGreaterThan(0);
    walk(doc.definitions, (o, path) => {
      // A `properties` map may name a field "default" or "allOf" (JSONSchemaProps); a schema may not use them.
      if (path.endsWith('.properties')) return;
      for (const keyword of ['default', 'allOf', 'nullable', 'oneOf']) if (keyword in o) throw new Error(`${keyword} at ${path}`);
    });
  });

  it('resolves every $ref to a definition or a shared parameter', () => {
    walk(doc, (o, path) => {
      if (typeof o.$ref !== 'string') return;
      const [, section, name] = /^#\/(definitions|parameters)\/(.+)$/.exec(o.$ref) ?? [];
      expect(section && name && doc[section][name], `${o.$ref} at ${path}`).toBeTruthy();
    });
    expect(Object.keys(doc.definitions)).toEqual(expect.arrayContaining(['io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup', 'io.k8s.apimachinery.pkg.version.Info']));
  });

  it('describes create-only kinds (SelfSubjectRulesReview) with a body parameter, query parameters shared by the path, and no PATCH', () => {
    const item = doc.paths['/apis/authorization.k8s.io/v1/selfsubjectrulesreviews'];
    expect(Object.keys(item).sort()).toEqual(['parameters', 'post']);
    expect(paramNames(doc, item.parameters)).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'pretty']);
    expect(item.parameters[0]).toEqual({ in: 'query', name: 'dryRun', type: 'string', uniqueItems: true });
    expect(item.parameters[1].$ref).toMatch(/^#\/parameters\/fieldManager-[A-Za-z0-9_-]{8}$/);
    const ref = { $ref: '#/definitions/io.k8s.api.authorization.v1.SelfSubjectRulesReview' };
    expect(item.post).toEqual({
      consumes: ['*/*'],
      operationId: 'createAuthorizationV1SelfSubjectRulesReview',
      parameters: [{ in: 'body', name: 'body', required: true, schema: ref }],
      produces: ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/cbor'],
      responses: {
        '200': { description: 'OK', schema: ref },
        '201': { description: 'Created', schema: ref },
        '202': { description: 'Accepted', schema: ref },
        '401': { description: 'Unauthorized' },
      },
      schemes: ['https'],
      tags: ['authorization_v1'],
      'x-kubernetes-action': 'post',
      'x-kubernetes-group-version-kind': { group: 'authorization.k8s.io', kind: 'SelfSubjectRulesReview', version: 'v1' },
    });
  });

  it('gives item paths their operations, with the shared DeleteOptions and Patch bodies and the patch types a pod takes', () => {
    const item = doc.paths['/api/v1/namespaces/{namespace}/pods/{name}'];
    expect(Object.keys(item).sort()).toEqual(['delete', 'get', 'parameters', 'patch', 'put']);
    expect(paramNames(doc, item.parameters)).toEqual(['name', 'namespace', 'pretty']);
    expect(item.parameters[0]).toEqual({ in: 'path', name: 'name', required: true, type: 'string', uniqueItems: true });
    expect(item.patch.consumes).toEqual([
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
      'application/apply-patch+cbor',
    ]);
    expect(paramNames(doc, item.patch.parameters)).toEqual(['body', 'dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect(resolveParam(doc, item.patch.parameters[0])).toEqual({ in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } });
    expect(resolveParam(doc, item.delete.parameters[0])).toEqual({ in: 'body', name: 'body', schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions' } });
    expect(item.patch['x-kubernetes-action']).toBe('patch');
    const list = doc.paths['/api/v1/namespaces/{namespace}/pods'];
    expect(list.get.produces).toEqual([
      'application/json',
      'application/yaml',
      'application/vnd.kubernetes.protobuf',
      'application/cbor',
      'application/json;stream=watch',
      'application/vnd.kubernetes.protobuf;stream=watch',
      'application/cbor-seq',
    ]);
    // Shared as a 1.32 document shares them: everything but name, dryRun, fieldValidation and the object bodies.
    const shared = new Set(Object.values(doc.parameters as Record<string, Json>).map((p) => p.name));
    expect([...shared].sort()).toEqual(
      // 1.32's set but `logpath` (/logs/{logpath} is not served): the pods/log and connect options are shared too.
      [
        'allowWatchBookmarks', 'body', 'command', 'container', 'continue', 'fieldManager', 'fieldSelector', 'follow', 'force', 'gracePeriodSeconds',
        'ignoreStoreReadErrorWithClusterBreakingPotential', 'insecureSkipTLSVerifyBackend', 'labelSelector', 'limit', 'limitBytes', 'namespace',
        'orphanDependents', 'path', 'ports', 'pretty', 'previous', 'propagationPolicy', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents',
        'sinceSeconds', 'stderr', 'stdin', 'stdout', 'stream', 'tailLines', 'timeoutSeconds', 'timestamps', 'tty', 'watch',
      ],
    );
  });

  it('lists the root and group discovery paths', () => {
    expect(doc.paths['/api/'].get.operationId).toBe('getCoreAPIVersions');
    expect(doc.paths['/apis/'].get.operationId).toBe('getAPIVersions');
    expect(doc.paths['/apis/rbac.authorization.k8s.io/'].get).toMatchObject({ operationId: 'getRbacAuthorizationAPIGroup', tags: ['rbacAuthorization'] });
    expect(doc.paths['/apis/apps/v1/'].get.operationId).toBe('getAppsV1APIResources');
    expect(doc.paths['/version/'].get.produces).toEqual(['application/json']);
  });
});

describe('/openapi/v2 follows the served resources', () => {
  it('leaves out group-versions --runtime-config turns off', async () => {
    t = await startTestServer({ 'runtime-config': 'batch/v1=false' });
    const doc = await documentOf(t);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/apis/batch/'))).toEqual([]);
    expect(doc.definitions['io.k8s.api.batch.v1.Job']).toBeUndefined();
    expect(doc.paths['/apis/apps/v1/deployments']).toBeDefined();
  });

  it('publishes a CRD schema with the v3→v2 conversion, and a new ETag', async () => {
    t = await startTestServer();
    const before = await fetchV2(t);
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    required: ['size', 'note'],
                    properties: {
                      size: { type: 'integer', minimum: 1, default: 3 },
                      note: { type: 'string', nullable: true },
                      color: { type: 'string', enum: ['red', 'blue'], allOf: [{ minLength: 1 }] },
                      extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } },
                      tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    };
    await createEstablished(t, crd, '/apis/example.com/v1/widgets');
    const after = await fetchV2(t);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    const doc = (await after.json()) as Json;
    expect(doc.definitions['com.example.v1.Widget']).toEqual({
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
        spec: {
          properties: {
            color: { enum: ['red', 'blue'], type: 'string' },
            extra: { 'x-kubernetes-preserve-unknown-fields': true },
            note: {},
            size: { minimum: 1, type: 'integer' },
            tags: { items: { type: 'string' }, type: 'array', 'x-kubernetes-list-type': 'set' },
          },
          required: ['size'],
          type: 'object',
        },
      },
      type: 'object',
      'x-kubernetes-group-version-kind': [{ group: 'example.com', kind: 'Widget', version: 'v1' }],
    });
    expect(doc.definitions['com.example.v1.WidgetList']['x-kubernetes-group-version-kind']).toEqual([{ group: 'example.com', kind: 'WidgetList', version: 'v1' }]);
    const item = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'];
    expect(item.patch.consumes).toEqual(['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
    expect(item.get.produces).toEqual(['application/json', 'application/yaml']);
    // The CRD builder publishes no discovery path for a custom group.
    expect(doc.paths['/apis/example.com/']).toBeUndefined();
    expect(doc.paths['/apis/example.com/v1/']).toBeUndefined();
    // The protobuf carries the CRD schema too (enum values as YAML Anys, minimum as a double).
    const pb = new Uint8Array(await (await fetchV2(t, { Accept: PB })).arrayBuffer());
    const Document = loadProto().lookupType('openapi.v2.Document');
    const decoded = Document.toObject(Document.decode(pb), { longs: Number, arrays: true }) as Json;
    expect(canonical(documentJson(decoded).definitions['com.example.v1.Widget'])).toEqual(canonical(doc.definitions['com.example.v1.Widget']));
  });
});

describe('/openapi/v2 negotiation and caching (kube-openapi handler + http.ServeContent)', () => {
  it('serves JSON for no Accept, */* and application/*; the protobuf for either name; 406 with no body otherwise', async () => {
    t = await startTestServer();
    const type = async (accept?: string) => {
      const res = await fetchV2(t!, accept === undefined ? {} : { Accept: accept });
      await res.arrayBuffer();
      return [res.status, res.headers.get('content-type')];
    };
    expect(await type()).toEqual([200, 'application/json']);
    expect(await type('*/*')).toEqual([200, 'application/json']);
    expect(await type('application/*')).toEqual([200, 'application/json']);
    expect(await type(PB)).toEqual([200, PB_NEW]);
    expect(await type(PB_NEW)).toEqual([200, PB_NEW]);
    expect(await type(`application/json;q=0.5, ${PB}`)).toEqual([200, PB_NEW]);
    const refused = await fetchV2(t, { Accept: 'text/html' });
    expect(refused.status).toBe(406);
    expect(refused.headers.get('vary')).toBe('Accept');
    expect(await refused.text()).toBe('');
  });

  it('answers If-None-Match and If-Modified-Since with 304 and the shared ETag', async () => {
    t = await startTestServer();
    const first = await fetchV2(t);
    const etag = first.headers.get('etag')!;
    // The upper-case hex SHA-512 of the JSON bytes served.
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-512', new Uint8Array(await first.arrayBuffer())));
    expect(etag).toBe(`"${Array.from(digest, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join('')}"`);
    expect(first.headers.get('vary')).toBe('Accept');
    expect(first.headers.get('accept-ranges')).toBe('bytes');
    const lastModified = first.headers.get('last-modified')!;
    expect(lastModified).toMatch(/GMT$/);
    // The protobuf carries the JSON document's ETag.
    const pb = await fetchV2(t, { Accept: PB });
    expect(pb.headers.get('etag')).toBe(etag);
    for (const inm of [etag, `W/${etag}`, '*', `"other", ${etag}`]) {
      const res = await fetchV2(t, { 'If-None-Match': inm, Accept: PB });
      expect(res.status, inm).toBe(304);
      expect(await res.text()).toBe('');
      expect(res.headers.get('content-type')).toBeNull();
      expect(res.headers.get('last-modified')).toBeNull();
      expect(res.headers.get('etag')).toBe(etag);
    }
    expect((await fetchV2(t, { 'If-None-Match': '"other"' })).status).toBe(200);
    expect((await fetchV2(t, { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect((await fetchV2(t, { 'If-Modified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' })).status).toBe(200);
    const head = await fetchV2(t, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    // kube registers the exact path only.
    expect((await fetchV2(t, {}, 'GET', '/openapi/v2/')).status).toBe(404);
  });
});

// ---- protobuf round trip ----

let root: protobuf.Root;
function loadProto(): protobuf.Root {
  root ??= protobuf.parse(readFileSync(join(__dirname, 'testdata', 'gnostic-openapiv2.proto'), 'utf8'), { keepCase: true }).root;
  return root;
}

const yamlValue = (any: Json | undefined) => parseYaml(any?.yaml ?? '');
const named = (list: Json[] | undefined, value: (v: Json) => unknown) => Object.fromEntries((list ?? []).map((p) => [p.name, value(p.value)]));
function vendor(out: Json, list: Json[] | undefined): Json {
  for (const p of list ?? []) out[p.name] = yamlValue(p.value);
  return out;
}

/** Reads a decoded gnostic Schema back as its JSON form. */
function schemaJson(s: Json): Json {
  const out: Json = {};
  if (s._ref) out.$ref = s._ref;
  if (s.format) out.format = s.format;
  if (s.maximum) out.maximum = s.maximum;
  if (s.minimum) out.minimum = s.minimum;
  for (const k of ['max_length', 'min_length', 'max_items', 'min_items', 'max_properties', 'min_properties'] as const) {
    if (s[k] && Number(s[k])) out[k.replace(/_(.)/g, (_, c: string) => c.toUpperCase())] = Number(s[k]);
  }
  if (s.pattern) out.pattern = s.pattern;
  if (s.unique_items) out.uniqueItems = true;
  if (s.required?.length) out.required = s.required;
  if (s.enum?.length) out.enum = s.enum.map(yamlValue);
  if (s.additional_properties) out.additionalProperties = s.additional_properties.schema ? schemaJson(s.additional_properties.schema) : s.additional_properties.boolean;
  if (s.type) out.type = s.type.value.length === 1 ? s.type.value[0] : s.type.value;
  if (s.items) out.items = schemaJson(s.items.schema[0]);
  if (s.properties) out.properties = named(s.properties.additional_properties, schemaJson);
  return vendor(out, s.vendor_extension);
}

function parameterJson(p: Json): Json {
  if (p.json_reference) return { $ref: p.json_reference._ref };
  const param = p.parameter ?? p;
  if (param.body_parameter) {
    const b = param.body_parameter;
    const out: Json = { in: b.in, name: b.name };
    if (b.required) out.required = true;
    out.schema = schemaJson(b.schema);
    return out;
  }
  const nb = param.non_body_parameter;
  const sub = nb.query_parameter_sub_schema ?? nb.path_parameter_sub_schema ?? nb.header_parameter_sub_schema ?? nb.form_data_parameter_sub_schema;
  const out: Json = { in: sub.in, name: sub.name };
  if (sub.required) out.required = true;
  if (sub.type) out.type = sub.type;
  if (sub.unique_items) out.uniqueItems = true;
  return out;
}

function operationJson(op: Json): Json {
  const out: Json = {};
  if (op.consumes?.length) out.consumes = op.consumes;
  out.operationId = op.operation_id;
  if (op.parameters?.length) out.parameters = op.parameters.map(parameterJson);
  if (op.produces?.length) out.produces = op.produces;
  out.responses = named(op.responses.response_code, (v) => {
    const r: Json = { description: v.response.description };
    if (v.response.schema) r.schema = schemaJson(v.response.schema.schema);
    return r;
  });
  if (op.schemes?.length) out.schemes = op.schemes;
  if (op.tags?.length) out.tags = op.tags;
  return vendor(out, op.vendor_extension);
}

function documentJson(d: Json): Json {
  const paths = named(d.paths.path, (item) => {
    const out: Json = {};
    for (const m of ['delete', 'get', 'head', 'options', 'patch', 'post', 'put']) if (item[m]) out[m] = operationJson(item[m]);
    if (item.parameters?.length) out.parameters = item.parameters.map(parameterJson);
    return out;
  });
  return {
    definitions: named(d.definitions.additional_properties, schemaJson),
    info: { title: d.info.title, version: d.info.version },
    parameters: named(d.parameters.additional_properties, parameterJson),
    paths,
    security: d.security.map((s: Json) => named(s.additional_properties, (v) => v.value ?? [])),
    securityDefinitions: named(d.security_definitions.additional_properties, (v) => {
      const k = v.api_key_security;
      return { in: k.in, name: k.name, type: k.type };
    }),
    swagger: d.swagger,
  };
}

/** JSON.parse's view with keys sorted, for comparison regardless of key order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Json)[k])]));
  return value;
}

describe('/openapi/v2 protobuf (gnostic openapi.v2.Document)', () => {
  it('decodes with an independent decoder into the same document as the JSON, in the same order', async () => {
    t = await startTestServer();
    const json = await documentOf(t);
    const res = await fetchV2(t, { Accept: PB });
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const Document = loadProto().lookupType('openapi.v2.Document');
    const decoded = Document.toObject(Document.decode(bytes), { longs: Number, defaults: false, arrays: true, oneofs: false }) as Json;
    expect(decoded.swagger).toBe('2.0');
    // gnostic keeps map order: the definitions come in the JSON document's order.
    expect(decoded.definitions.additional_properties.map((p: Json) => p.name)).toEqual(Object.keys(json.definitions));
    expect(decoded.paths.path.map((p: Json) => p.name)).toEqual(Object.keys(json.paths));
    // Vendor extensions are YAML text kubectl parses back.
    const pod = decoded.definitions.additional_properties.find((p: Json) => p.name === 'io.k8s.api.core.v1.Pod').value;
    expect(pod.vendor_extension[0].name).toBe('x-kubernetes-group-version-kind');
    expect(parseYaml(pod.vendor_extension[0].value.yaml)).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    expect(pod.type.value).toEqual(['object']);
    // The whole document, read back, is the JSON document.
    expect(canonical(documentJson(decoded))).toEqual(canonical(json));
  });

  it('is built once per set of served resources (the same bytes on every request)', async () => {
    t = await startTestServer();
    const a = new Uint8Array(await (await fetchV2(t, { Accept: PB_NEW })).arrayBuffer());
    const started = performance.now();
    const b = new Uint8Array(await (await fetchV2(t, { Accept: PB_NEW })).arrayBuffer());
    expect(performance.now() - started).toBeLessThan(200);
    expect(Buffer.from(b).equals(Buffer.from(a))).toBe(true);
  });
});
