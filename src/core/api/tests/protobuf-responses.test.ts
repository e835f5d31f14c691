// Responses in application/vnd.kubernetes.protobuf as a client observes them
// (spec 000: "Media types" — protobuf for built-in kinds with the `k8s\0`
// envelope, watch as length-prefixed WatchEvent frames, Status errors in the
// client's format; custom resources have no protobuf form and fall through
// the Accept list, 406 when protobuf is the only type).
//
// Decoded independently with protobufjs and .proto files written from the
// field facts (src/core/protobuf/testdata), not with KubeTab's own decoder,
// except where a whole object is compared with its JSON form.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { decodeKubernetesProtobuf } from '../../protobuf';
import { createEstablished, cronTab, cronTabCrd } from '../../crd/tests/fixtures';

const PB = 'application/vnd.kubernetes.protobuf';
const PB_WATCH = 'application/vnd.kubernetes.protobuf;stream=watch';
const CM = '/api/v1/namespaces/default/configmaps';
const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const NOT_ACCEPTABLE = 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf';

const root = protobuf.loadSync(['runtime.proto', 'meta.proto', 'core.proto', 'authentication.proto'].map((f) => join(__dirname, '../../protobuf/testdata', f)));
const type = (name: string) => root.lookupType(name);
const RUNTIME = 'k8s.io.apimachinery.pkg.runtime';
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const CORE = 'k8s.io.api.core.v1';
const toObject = (t: protobuf.Type, bytes: Uint8Array) => t.toObject(t.decode(bytes), { longs: Number, bytes: String, defaults: false });

interface Unwrapped {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  rest: Record<string, unknown>;
}

/** Checks the `k8s\0` prefix and decodes runtime.Unknown with protobufjs. */
function unwrap(bytes: Uint8Array): Unwrapped {
  expect(Array.from(bytes.subarray(0, 4))).toEqual([0x6b, 0x38, 0x73, 0x00]);
  const unknown = type(`${RUNTIME}.Unknown`).decode(bytes.subarray(4)) as unknown as {
    typeMeta: { apiVersion: string; kind: string };
    raw: Uint8Array;
    contentEncoding: string;
    contentType: string;
  };
  return { apiVersion: unknown.typeMeta.apiVersion, kind: unknown.typeMeta.kind, raw: unknown.raw, rest: { contentEncoding: unknown.contentEncoding, contentType: unknown.contentType } };
}

async function send(t: TestServer, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  const res = await t.server.handle(new Request(`http://kubetab.test${path}`, init));
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** Splits a protobuf watch body into WatchEvent frames (4-byte big-endian length, then the message). */
function frames(bytes: Uint8Array): { type: string; object: Uint8Array }[] {
  const out: { type: string; object: Uint8Array }[] = [];
  let at = 0;
  while (at < bytes.length) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, false);
    const event = type(`${META}.WatchEvent`).decode(bytes.subarray(at + 4, at + 4 + length)) as unknown as { type: string; object: { raw: Uint8Array } };
    out.push({ type: event.type, object: event.object.raw });
    at += 4 + length;
  }
  return out;
}

/** Reads a streamed body until `count` frames have arrived, then cancels it. */
async function readFrames(res: Response, count: number): Promise<{ type: string; object: Uint8Array }[]> {
  const reader = res.body!.getReader();
  let buffer = new Uint8Array(0);
  const complete = () => {
    let at = 0;
    let n = 0;
    while (at + 4 <= buffer.length) {
      const length = new DataView(buffer.buffer, buffer.byteOffset + at, 4).getUint32(0, false);
      if (at + 4 + length > buffer.length) break;
      at += 4 + length;
      n++;
    }
    return { n, at };
  };
  while (complete().n < count) {
    const { done, value } = await reader.read();
    if (done) break;
    const next = new Uint8Array(buffer.length + value.length);
    next.set(buffer);
    next.set(value, buffer.length);
    buffer = next;
  }
  await reader.cancel();
  return frames(buffer.subarray(0, complete().at));
}

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

const configMap = (name: string, data: Record<string, string> = { a: 'b' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'x' } }, data });

describe('objects in protobuf', () => {
  it('a create with Accept protobuf alone answers 201 in protobuf (ConfigMap), no longer 406', async () => {
    const res = await send(t, 'POST', CM, { Accept: PB }, configMap('one'));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe(PB);
    const env = unwrap(res.bytes);
    expect(env).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', rest: { contentEncoding: '', contentType: '' } });
    const cm = toObject(type(`${CORE}.ConfigMap`), env.raw);
    expect(cm['data']).toEqual({ a: 'b' });
    expect(cm['metadata']).toMatchObject({ name: 'one', namespace: 'default', labels: { app: 'x' } });
    const meta = cm['metadata'] as { uid: string; resourceVersion: string; creationTimestamp: { seconds: number; nanos: number } };
    expect(meta.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(meta.resourceVersion).toMatch(/^\d+$/);
    // metav1.Time on the wire: whole seconds, nanos written as 0.
    const json = (await t.get(`${CM}/one`)).body;
    expect(meta.creationTimestamp.seconds).toBe(Date.parse(json.metadata.creationTimestamp) / 1000);
    expect(meta.creationTimestamp.nanos ?? 0).toBe(0);
  });

  it('get answers the same object as JSON does; HEAD gets the protobuf Content-Type (the adapters send no body)', async () => {
    await t.post(CM, { ...configMap('two'), metadata: { name: 'two', annotations: { note: '<&> \u2028' } } });
    const json = (await t.get(`${CM}/two`)).body;
    const res = await send(t, 'GET', `${CM}/two`, { Accept: 'application/vnd.kubernetes.protobuf,application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(PB);
    expect(decodeKubernetesProtobuf(res.bytes).object).toEqual(json);
    const head = await send(t, 'HEAD', `${CM}/two`, { Accept: PB });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(PB);
  });

  it('JSON first in Accept stays JSON; a higher q for protobuf wins', async () => {
    await t.post(CM, configMap('three'));
    expect((await send(t, 'GET', `${CM}/three`, { Accept: 'application/json, application/vnd.kubernetes.protobuf' })).headers.get('content-type')).toBe('application/json');
    expect((await send(t, 'GET', `${CM}/three`, { Accept: 'application/json;q=0.5, application/vnd.kubernetes.protobuf' })).headers.get('content-type')).toBe(PB);
    expect((await send(t, 'GET', `${CM}/three`, { Accept: 'application/json, */*' })).headers.get('content-type')).toBe('application/json');
  });

  it('a Status error is protobuf for a protobuf client (404 NotFound, kube\'s message and details)', async () => {
    const res = await send(t, 'GET', `${CM}/missing`, { Accept: 'application/vnd.kubernetes.protobuf, application/json' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe(PB);
    const env = unwrap(res.bytes);
    expect([env.apiVersion, env.kind]).toEqual(['v1', 'Status']);
    expect(toObject(type(`${META}.Status`), env.raw)).toEqual({
      metadata: { selfLink: '', resourceVersion: '', continue: '' },
      status: 'Failure',
      message: 'configmaps "missing" not found',
      reason: 'NotFound',
      details: { name: 'missing', group: '', kind: 'configmaps', uid: '', retryAfterSeconds: 0 },
      code: 404,
    });
  });

  it('a typed review (SelfSubjectReview, as kubectl auth whoami posts it) answers in protobuf', async () => {
    const secured = await startTestServer({ 'authorization-mode': 'RBAC' });
    try {
      const res = await send(
        secured,
        'POST',
        '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        { Accept: 'application/vnd.kubernetes.protobuf,application/json', Authorization: `Bearer ${secured.adminToken!}` },
        { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      );
      expect(res.status).toBe(201);
      const env = unwrap(res.bytes);
      expect([env.apiVersion, env.kind]).toEqual(['authentication.k8s.io/v1', 'SelfSubjectReview']);
      const review = toObject(type('k8s.io.api.authentication.v1.SelfSubjectReview'), env.raw) as { status: { userInfo: { username: string; groups: string[] } } };
      expect(review.status.userInfo.username).toBe('kubetab-admin');
      expect(review.status.userInfo.groups).toEqual(['system:masters', 'system:authenticated']);
    } finally {
      await secured.close();
    }
  });
});

describe('lists in protobuf', () => {
  it('ConfigMapList with ListMeta and every item, streamed in chunks, equal to the JSON list', async () => {
    // ~300 KiB: more than one 64 KiB chunk.
    for (let i = 0; i < 30; i++) await t.post(CM, configMap(`cm-${String(i).padStart(2, '0')}`, { blob: 'x'.repeat(10_000) }));
    const json = (await t.get(CM)).body;
    const res = await t.server.handle(new Request(`http://kubetab.test${CM}`, { headers: { Accept: PB } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(PB);
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(chunks.length).toBeGreaterThan(1);
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    const env = unwrap(bytes);
    expect([env.apiVersion, env.kind]).toEqual(['v1', 'ConfigMapList']);
    const list = toObject(type(`${CORE}.ConfigMapList`), env.raw) as { metadata: { resourceVersion: string }; items: { metadata: { name: string } }[] };
    expect(list.metadata.resourceVersion).toBe(json.metadata.resourceVersion);
    expect(list.items.map((i) => i.metadata.name)).toEqual(json.items.map((i: { metadata: { name: string } }) => i.metadata.name));
    // Whole list through KubeTab's decoder: the same items as the JSON list.
    expect(decodeKubernetesProtobuf(bytes).object).toEqual({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: json.metadata, items: json.items });
  });

  it('limit/continue: ListMeta carries continue and remainingItemCount', async () => {
    for (const n of ['a', 'b', 'c']) await t.post(CM, configMap(n));
    const res = await send(t, 'GET', `${CM}?limit=1`, { Accept: PB });
    const list = toObject(type(`${CORE}.ConfigMapList`), unwrap(res.bytes).raw) as { metadata: { continue: string; remainingItemCount: number }; items: unknown[] };
    expect(list.items).toHaveLength(1);
    expect(list.metadata.continue).not.toBe('');
    expect(list.metadata.remainingItemCount).toBe(2);
  });

  it('Table has no protobuf form in 1.32: a protobuf Table clause falls through to JSON, alone it is a 406', async () => {
    await t.post(CM, configMap('t'));
    const res = await t.get(CM, { Accept: 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io, application/json;as=Table;v=v1;g=meta.k8s.io, application/json' });
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('Table');
    const alone = await send(t, 'GET', CM, { Accept: 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io' });
    expect(alone.status).toBe(406);
  });

  it('PartialObjectMetadata and PartialObjectMetadataList in protobuf (meta.k8s.io/v1)', async () => {
    await t.post(CM, configMap('pom'));
    const one = await send(t, 'GET', `${CM}/pom`, { Accept: 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json' });
    expect(one.headers.get('content-type')).toBe(PB);
    const env = unwrap(one.bytes);
    expect([env.apiVersion, env.kind]).toEqual(['meta.k8s.io/v1', 'PartialObjectMetadata']);
    expect(toObject(type(`${META}.PartialObjectMetadata`), env.raw)).toMatchObject({ metadata: { name: 'pom', labels: { app: 'x' } } });
    const list = await send(t, 'GET', CM, { Accept: 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json' });
    const listEnv = unwrap(list.bytes);
    expect([listEnv.apiVersion, listEnv.kind]).toEqual(['meta.k8s.io/v1', 'PartialObjectMetadataList']);
    const decoded = toObject(type(`${META}.PartialObjectMetadataList`), listEnv.raw) as { items: { metadata: { name: string } }[] };
    expect(decoded.items.map((i) => i.metadata.name)).toEqual(['pom']);
  });
});

describe('custom resources have no protobuf form', () => {
  it('protobuf first falls through to JSON; protobuf alone is kube\'s 406, itself written in protobuf', async () => {
    await createEstablished(t, cronTabCrd(), CRONTABS);
    const created = await t.post(CRONTABS, cronTab('ct'));
    expect(created.status).toBe(201);
    const got = await send(t, 'GET', `${CRONTABS}/ct`, { Accept: 'application/vnd.kubernetes.protobuf,application/json' });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/json');
    const list = await send(t, 'GET', CRONTABS, { Accept: 'application/vnd.kubernetes.protobuf,application/json' });
    expect(list.headers.get('content-type')).toBe('application/json');
    const alone = await send(t, 'GET', `${CRONTABS}/ct`, { Accept: PB });
    expect(alone.status).toBe(406);
    expect(alone.headers.get('content-type')).toBe(PB);
    const status = toObject(type(`${META}.Status`), unwrap(alone.bytes).raw);
    expect(status).toMatchObject({ status: 'Failure', reason: 'NotAcceptable', code: 406, message: NOT_ACCEPTABLE });
    const watch = await t.server.handle(new Request(`http://kubetab.test${CRONTABS}?watch=1`, { headers: { Accept: 'application/vnd.kubernetes.protobuf,application/json' } }));
    expect(watch.headers.get('content-type')).toBe('application/json');
    await watch.body!.cancel();
    // PartialObjectMetadata is a meta.k8s.io kind with a protobuf form: allowed for custom resources too.
    const metadata = await send(t, 'GET', CRONTABS, { Accept: 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json' });
    expect(metadata.headers.get('content-type')).toBe(PB);
    const pom = unwrap(metadata.bytes);
    expect([pom.apiVersion, pom.kind]).toEqual(['meta.k8s.io/v1', 'PartialObjectMetadataList']);
    expect((toObject(type(`${META}.PartialObjectMetadataList`), pom.raw) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name)).toEqual(['ct']);
  });
});

describe('custom resource writes with protobuf as the only Accept', () => {
  it('are refused with 406 before the write: nothing is created', async () => {
    await createEstablished(t, cronTabCrd(), CRONTABS);
    const refused = await t.post(CRONTABS, cronTab('ct2'), { Accept: PB });
    expect(refused.status).toBe(406);
    expect((await t.get(`${CRONTABS}/ct2`)).status).toBe(404);
  });
});

describe('watch in protobuf', () => {
  it('length-prefixed WatchEvent frames: ADDED with the enveloped object, then MODIFIED and DELETED', async () => {
    await t.post(CM, configMap('w1'));
    const res = await t.server.handle(new Request(`http://kubetab.test${CM}?watch=1`, { headers: { Accept: 'application/vnd.kubernetes.protobuf, application/json' } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(PB_WATCH);
    const reading = readFrames(res, 3);
    await t.put(`${CM}/w1`, { ...configMap('w1', { a: 'changed' }) });
    await t.del(`${CM}/w1`);
    const events = await reading;
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    const modified = unwrap(events[1]!.object);
    expect([modified.apiVersion, modified.kind]).toEqual(['v1', 'ConfigMap']);
    expect(toObject(type(`${CORE}.ConfigMap`), modified.raw)['data']).toEqual({ a: 'changed' });
  });

  it('sendInitialEvents: the BOOKMARK frame carries the kind with resourceVersion and the initial-events-end annotation', async () => {
    await t.post(CM, configMap('b1'));
    const res = await t.server.handle(
      new Request(`http://kubetab.test${CM}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`, { headers: { Accept: PB } }),
    );
    expect(res.status).toBe(200);
    const events = await readFrames(res, 2);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    const bookmark = unwrap(events[1]!.object);
    expect([bookmark.apiVersion, bookmark.kind]).toEqual(['v1', 'ConfigMap']);
    const meta = toObject(type(`${CORE}.ConfigMap`), bookmark.raw)['metadata'] as { resourceVersion: string; annotations: Record<string, string> };
    expect(meta.resourceVersion).toMatch(/^\d+$/);
    expect(meta.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
  });

  it('as=PartialObjectMetadata: each event\'s object is a PartialObjectMetadata (kube transforms watch events too)', async () => {
    await t.post(CM, configMap('m1'));
    const res = await t.server.handle(
      new Request(`http://kubetab.test${CM}?watch=1`, { headers: { Accept: 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json' } }),
    );
    expect(res.headers.get('content-type')).toBe(PB_WATCH);
    const [added] = await readFrames(res, 1);
    const env = unwrap(added!.object);
    expect([env.apiVersion, env.kind]).toEqual(['meta.k8s.io/v1', 'PartialObjectMetadata']);
    expect(toObject(type(`${META}.PartialObjectMetadata`), env.raw)).toMatchObject({ metadata: { name: 'm1' } });
  });

  it('a compacted resourceVersion: 200 and one ERROR frame with the 410 Expired Status', async () => {
    const a = (await t.post(CM, configMap('c1'))).body;
    await t.post(CM, configMap('c2'));
    t.clock.advance(6 * 60_000);
    await t.post(CM, configMap('c3'));
    const res = await send(t, 'GET', `${CM}?watch=1&resourceVersion=${a.metadata.resourceVersion}`, { Accept: PB });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(PB_WATCH);
    const [event, ...rest] = frames(res.bytes);
    expect(rest).toEqual([]);
    expect(event!.type).toBe('ERROR');
    const env = unwrap(event!.object);
    expect([env.apiVersion, env.kind]).toEqual(['v1', 'Status']);
    expect(toObject(type(`${META}.Status`), env.raw)).toMatchObject({ status: 'Failure', reason: 'Expired', code: 410 });
  });
});

describe('discovery', () => {
  it('/api and /apis: plain application/json (kubectl get --raw) is the legacy document, not a 406 (WrapAggregatedDiscoveryToHandler)', async () => {
    for (const accept of ['application/json', 'application/json, */*']) {
      const apis = await t.get('/apis', { Accept: accept });
      expect(apis.status).toBe(200);
      expect(apis.body.kind).toBe('APIGroupList');
      expect((await t.get('/api', { Accept: accept })).body.kind).toBe('APIVersions');
    }
    const aggregated = await t.get('/apis', { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' });
    expect(aggregated.body.kind).toBe('APIGroupDiscoveryList');
    expect(aggregated.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect((await t.get('/apis', { Accept: 'text/html' })).status).toBe(406);
  });

  it('every discovery document in protobuf carries the JSON\'s type meta (none on /api and /api/v1, v1 elsewhere) and the same content', async () => {
    const cases: [string, string, string][] = [
      ['/api', '', 'APIVersions'],
      ['/api/v1', '', 'APIResourceList'],
      ['/apis', 'v1', 'APIGroupList'],
      ['/apis/apps', 'v1', 'APIGroup'],
      ['/apis/apps/v1', 'v1', 'APIResourceList'],
    ];
    for (const [path, apiVersion, kind] of cases) {
      const json = (await t.get(path, { Accept: 'application/json' })).body;
      expect(json.kind).toBe(kind);
      expect(json.apiVersion ?? '').toBe(apiVersion);
      const res = await send(t, 'GET', path, { Accept: 'application/vnd.kubernetes.protobuf, application/json' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(PB);
      const env = unwrap(res.bytes);
      expect([env.apiVersion, env.kind]).toEqual([apiVersion, kind]);
      const decoded = type(`${META}.${kind}`).toObject(type(`${META}.${kind}`).decode(env.raw), { defaults: true }) as Record<string, unknown>;
      // Verbs is a named slice: {items} on the wire, an array in JSON.
      if (kind === 'APIResourceList') {
        for (const r of decoded['resources'] as Record<string, unknown>[]) r['verbs'] = (r['verbs'] as { items: string[] }).items;
      }
      const { kind: _k, apiVersion: _v, ...content } = json;
      expect(decoded).toMatchObject(content);
    }
  });

  it('aggregated discovery (APIGroupDiscoveryList) has no protobuf form in KubeTab: a protobuf clause falls through to JSON', async () => {
    const res = await send(t, 'GET', '/apis', {
      Accept: 'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  });
});
