// Admission webhooks through the API with a real local HTTPS webhook
// (node:https, a self-signed certificate): the AdmissionReview the server
// posts, JSONPatch mutation, denial, warnings, failurePolicy Fail/Ignore with
// kube's texts, timeouts, matchConditions and objectSelector, service refs.
// The server reaches it through the platform fetch, stubbed here with a Node
// https client that trusts the test's certificate (the core passes caBundle
// to a host-provided fetch; see fetch.ts).

import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createServingCertificate } from '../../../platform/node/serving-certificate';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { callWebhook } from './call';

type Review = { apiVersion: string; kind: string; request: Record<string, any> };
type Handler = (review: Review, path: string) => { status?: number; body: unknown; delayMs?: number };

let server: Server;
let port = 0;
let ca = '';
let handler: Handler = () => ({ body: {} });
const received: { path: string; review: Review }[] = [];

beforeAll(async () => {
  const cert = await createServingCertificate({ now: Date.now() });
  ca = cert.cert;
  server = createServer({ cert: cert.cert, key: cert.key }, (req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const review = JSON.parse(data) as Review;
      received.push({ path: req.url ?? '', review });
      const out = handler(review, req.url ?? '');
      setTimeout(() => {
        res.writeHead(out.status ?? 200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(out.body));
      }, out.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A host fetch over node:https trusting the test certificate, with Go's wording for refused connections. */
function nodeFetch(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  return new Promise((resolve, reject) => {
    const u = new URL(String(url));
    const req = httpsRequest(u, { method: init?.method ?? 'GET', headers: init?.headers as Record<string, string>, ca, signal: init?.signal ?? undefined }, (res) => {
      let data = '';
      res.on('data', (c) => (data += c));
      res.on('end', () => resolve(new Response(data, { status: res.statusCode ?? 500 })));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED') reject(new Error(`dial tcp ${u.hostname}:${u.port}: connect: connection refused`));
      else reject(err);
    });
    if (init?.body) req.write(init.body);
    req.end();
  });
}

let t: TestServer;
beforeEach(async () => {
  received.length = 0;
  vi.stubGlobal('fetch', nodeFetch);
  t = await startTestServer();
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await t.close();
});

const AR = '/apis/admissionregistration.k8s.io/v1';
const CM = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { a: '1' } });
const allow = (review: Review, extra: Record<string, unknown> = {}) => ({ body: { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true, ...extra } } });
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');

function webhook(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    clientConfig: { url: `https://127.0.0.1:${port}/${name}` },
    rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

async function configure(kind: 'Mutating' | 'Validating', name: string, webhooks: unknown[]) {
  const plural = kind === 'Mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
  const res = await t.post(`${AR}/${plural}`, { apiVersion: 'admissionregistration.k8s.io/v1', kind: `${kind}WebhookConfiguration`, metadata: { name }, webhooks });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

describe('validating admission webhooks', () => {
  it('posts an AdmissionReview v1 with kube\'s request fields and the timeout in the URL', async () => {
    handler = (review) => allow(review);
    await configure('Validating', 'v', [webhook('v.example.com')]);
    expect((await t.post(CM, cm('x'))).status).toBe(201);
    expect(received).toHaveLength(1);
    const { path, review } = received[0]!;
    expect(path).toBe('/v.example.com?timeout=10s');
    expect(review.apiVersion).toBe('admission.k8s.io/v1');
    expect(review.kind).toBe('AdmissionReview');
    expect(review.request).toMatchObject({
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      name: 'x',
      namespace: 'default',
      operation: 'CREATE',
      dryRun: false,
      oldObject: null,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    });
    expect(review.request.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(review.request.object.metadata.name).toBe('x');
  });

  it('refuses with the webhook\'s status as kube\'s denial', async () => {
    handler = (review) => ({
      body: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: false, warnings: ['careful'], status: { code: 403, reason: 'Forbidden', message: 'no configmaps today' } } },
    });
    await configure('Validating', 'v', [webhook('deny.example.com')]);
    const res = await t.post(CM, cm('x'));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'admission webhook "deny.example.com" denied the request: no configmaps today', reason: 'Forbidden', code: 403 });
    expect((await t.get(`${CM}/x`)).status).toBe(404);
  });

  it('answers 400 "without explanation" for a bare refusal', async () => {
    handler = (review) => ({ body: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: false } } });
    await configure('Validating', 'v', [webhook('bare.example.com')]);
    const res = await t.post(CM, cm('x'));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('admission webhook "bare.example.com" denied the request without explanation');
  });

  it('fails closed with kube\'s 500 when the webhook cannot be reached, and open under Ignore', async () => {
    await configure('Validating', 'v', [webhook('down.example.com', { clientConfig: { url: 'https://127.0.0.1:1/down' } })]);
    const res = await t.post(CM, cm('x'));
    expect(res.status).toBe(500);
    const text = 'failed calling webhook "down.example.com": failed to call webhook: Post "https://127.0.0.1:1/down?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused';
    expect(res.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${text}`, reason: 'InternalError', details: { causes: [{ message: text }] }, code: 500 });
    await t.patch(`${AR}/validatingwebhookconfigurations/v`, [{ op: 'replace', path: '/webhooks/0/failurePolicy', value: 'Ignore' }], 'application/json-patch+json');
    expect((await t.post(CM, cm('x'))).status).toBe(201);
  });

  it('reports a timeout as context deadline exceeded', async () => {
    handler = (review) => ({ ...allow(review), delayMs: 1500 });
    await configure('Validating', 'v', [webhook('slow.example.com', { timeoutSeconds: 1 })]);
    const res = await t.post(CM, cm('x'));
    expect(res.status).toBe(500);
    expect(res.body.message).toBe(`Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "https://127.0.0.1:${port}/slow.example.com?timeout=1s": context deadline exceeded`);
  });

  it('refuses a response for another uid as an invalid webhook response', async () => {
    handler = (review) => ({ body: { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: 'other', allowed: true } } });
    await configure('Validating', 'v', [webhook('uid.example.com')]);
    const res = await t.post(CM, cm('x'));
    expect(res.status).toBe(500);
    expect(res.body.message).toMatch(/^Internal error occurred: failed calling webhook "uid\.example\.com": received invalid webhook response: expected response\.uid="[0-9a-f-]{36}", got "other"$/);
  });

  it('calls only webhooks whose objectSelector and matchConditions select the request', async () => {
    handler = (review) => allow(review);
    await configure('Validating', 'v', [
      webhook('sel.example.com', { objectSelector: { matchLabels: { hook: 'yes' } } }),
      webhook('cond.example.com', { matchConditions: [{ name: 'named-z', expression: "object.metadata.name.startsWith('z')" }] }),
    ]);
    await t.post(CM, cm('a'));
    expect(received).toHaveLength(0);
    await t.post(CM, cm('b', { hook: 'yes' }));
    await t.post(CM, cm('zz'));
    expect(received.map((r) => r.path)).toEqual(['/sel.example.com?timeout=10s', '/cond.example.com?timeout=10s']);
  });

  it('refuses with 403 when a matchCondition fails to evaluate under Fail, skips the webhook under Ignore', async () => {
    handler = (review) => allow(review);
    await configure('Validating', 'v', [webhook('mc.example.com', { matchConditions: [{ name: 'bad', expression: 'object.data.missing == "x"' }] })]);
    const res = await t.post(CM, cm('x'));
    expect(res.status).toBe(403);
    expect(res.body.reason).toBe('Forbidden');
    expect(res.body.message).toMatch(/^configmaps "x" is forbidden: expression 'object\.data\.missing == "x"' resulted in error: /);
    await t.patch(`${AR}/validatingwebhookconfigurations/v`, [{ op: 'replace', path: '/webhooks/0/failurePolicy', value: 'Ignore' }], 'application/json-patch+json');
    expect((await t.post(CM, cm('x'))).status).toBe(201);
    expect(received).toHaveLength(0);
  });

  it('answers kube\'s error for a service reference to a missing Service', async () => {
    await configure('Validating', 'v', [webhook('svc.example.com', { clientConfig: { service: { namespace: 'default', name: 'hooks', path: '/check' } } })]);
    const res = await t.post(CM, cm('x'));
    expect(res.status).toBe(500);
    expect(res.body.message).toBe('Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://hooks.default.svc:443/check?timeout=10s": service "hooks" not found');
  });

  it('calls a Service of type ExternalName at its external name (KubeTab\'s mapping)', async () => {
    handler = (review) => allow(review);
    await t.post('/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'hooks' }, spec: { type: 'ExternalName', externalName: '127.0.0.1' } });
    await configure('Validating', 'v', [webhook('ext.example.com', { clientConfig: { service: { namespace: 'default', name: 'hooks', path: '/ext', port } } })]);
    expect((await t.post(CM, cm('x'))).status).toBe(201);
    expect(received.map((r) => r.path)).toEqual(['/ext?timeout=10s']);
  });
});

describe('review versions and operations', () => {
  it('sends v1beta1 to a webhook that only accepts it, and DELETE with the old object and null object', async () => {
    handler = (review) => allow(review);
    await configure('Validating', 'v', [
      webhook('old.example.com', { admissionReviewVersions: ['v1beta1'], rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['configmaps'] }] }),
    ]);
    await t.post(CM, cm('x'));
    expect(received).toHaveLength(0);
    expect((await t.del(`${CM}/x`)).status).toBe(200);
    expect(received).toHaveLength(1);
    const { review } = received[0]!;
    expect(review.apiVersion).toBe('admission.k8s.io/v1beta1');
    expect(review.request.operation).toBe('DELETE');
    expect(review.request.object).toBeNull();
    expect(review.request.oldObject.metadata.name).toBe('x');
    expect(review.request.options).toMatchObject({ kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' });
  });

  it('tells the webhook about a dry run', async () => {
    handler = (review) => allow(review);
    await configure('Validating', 'v', [webhook('dry.example.com', { sideEffects: 'NoneOnDryRun' })]);
    expect((await t.post(`${CM}?dryRun=All`, cm('x'))).status).toBe(201);
    expect(received[0]!.review.request.dryRun).toBe(true);
    expect((await t.get(`${CM}/x`)).status).toBe(404);
  });
});

describe('mutating admission webhooks', () => {
  it('passes the webhook\'s warnings on as Warning headers', async () => {
    handler = (review) => allow(review, { warnings: ['careful'] });
    await configure('Mutating', 'm', [webhook('warn.example.com')]);
    const res = await t.post(CM, cm('x'));
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBe('299 - "careful"');
  });

  it('applies the JSONPatch to the stored object', async () => {
    handler = (review) => allow(review, { patchType: 'JSONPatch', patch: b64([{ op: 'add', path: '/metadata/labels/mutated', value: 'true' }]) });
    await configure('Mutating', 'm', [webhook('m.example.com')]);
    const res = await t.post(CM, cm('x'));
    expect(res.status).toBe(201);
    expect(res.body.metadata.labels).toEqual({ mutated: 'true' });
    expect((await t.get(`${CM}/x`)).body.metadata.labels).toEqual({ mutated: 'true' });
  });

  it('reinvokes an IfNeeded webhook once when a later webhook changed the object', async () => {
    handler = (review, path) =>
      path.startsWith('/second') ? allow(review, { patchType: 'JSONPatch', patch: b64([{ op: 'add', path: '/data/b', value: '2' }]) }) : allow(review);
    await configure('Mutating', 'm', [webhook('first.example.com', { reinvocationPolicy: 'IfNeeded' }), webhook('second.example.com')]);
    const res = await t.post(CM, cm('x'));
    expect(res.body.data).toEqual({ a: '1', b: '2' });
    expect(received.map((r) => r.path.split('?')[0])).toEqual(['/first.example.com', '/second.example.com', '/first.example.com']);
    expect(received[2]!.review.request.object.data).toEqual({ a: '1', b: '2' });
  });
});

describe('the webhook client', () => {
  it('hands the decoded caBundle to the host fetch', async () => {
    let seen: string | undefined;
    const fetchFn = async (_url: string, init: { caBundle?: string; body: string }) => {
      seen = init.caBundle;
      const uid = JSON.parse(init.body).request.uid;
      return { status: 200, text: async () => JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, allowed: true } }) };
    };
    const ctx = { reader: { get: async () => undefined, list: async () => [] }, clock: undefined as never, randomString: () => '', services: {} };
    const response = await callWebhook(
      { webhookName: 'w', clientConfig: { url: 'https://h/x', caBundle: Buffer.from('PEM').toString('base64') }, timeoutSeconds: 5, reviewVersion: 'v1', request: { uid: 'u1' } },
      ctx,
      fetchFn,
    );
    expect(response).toEqual({ uid: 'u1', allowed: true });
    expect(seen).toBe('PEM');
  });
});
