// Create, get, update and delete as a client observes them: status codes,
// Status bodies with kube-apiserver's messages, resourceVersions.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

const CM = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, data: Record<string, string> = { k: 'v' }, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
  data,
});

describe('create', () => {
  it('returns 201 with system fields filled in (metadata rules)', async () => {
    const res = await t.post(CM, cm('a'));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    const meta = res.body.metadata;
    expect(meta.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(meta.resourceVersion).toMatch(/^\d+$/);
    expect(meta.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(meta.namespace).toBe('default');
  });

  it('generates a name from generateName', async () => {
    const res = await t.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } });
    expect(res.status).toBe(201);
    expect(res.body.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('answers 409 AlreadyExists with kube-apiserver\'s Status', async () => {
    await t.post(CM, cm('a'));
    const res = await t.post(CM, cm('a'));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "a" already exists',
      reason: 'AlreadyExists',
      details: { name: 'a', kind: 'configmaps' },
      code: 409,
    });
  });

  it('refuses a body namespace that differs from the URL (400) and stores nothing', async () => {
    const res = await t.post(CM, cm('a', {}, { namespace: 'kube-system' }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('the namespace of the provided object does not match the namespace sent on the request');
    expect((await t.get(`${CM}/a`)).status).toBe(404);
  });

  it('refuses a create in a missing namespace with 404 namespaces "x" not found', async () => {
    const res = await t.post('/api/v1/namespaces/nope/configmaps', cm('a'));
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('namespaces "nope" not found');
  });

  it('requires a name (422 with details.causes)', async () => {
    const res = await t.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} });
    expect(res.status).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    expect(res.body.details.causes).toContainEqual({ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' });
  });

  it('rejects malformed JSON with 400 and a kind mismatch with the codec error', async () => {
    const bad = await t.request('POST', CM, '{"apiVersion":', { 'Content-Type': 'application/json' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":)',
    );
    const wrongKind = await t.post(CM, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a' } });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.message).toBe('Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion');
    const wrongVersion = await t.post(CM, { apiVersion: 'v2', kind: 'ConfigMap', metadata: { name: 'a' } });
    expect(wrongVersion.status).toBe(400);
    expect((await t.get(`${CM}/a`)).status).toBe(404);
  });

  it('accepts YAML bodies, read with YAML 1.1 meanings as go-yaml reads them', async () => {
    const res = await t.request('POST', CM, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yml\ndata:\n  a: "1"\n', { 'Content-Type': 'application/yaml' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ a: '1' });
    // `y` is a boolean in YAML 1.1, so this name is not a string.
    const bool = await t.request('POST', CM, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\n', { 'Content-Type': 'application/yaml' });
    expect(bool.status).toBe(400);
    expect(bool.body.message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.name of type string');
  });

  it('answers 415 for a body type it cannot read', async () => {
    const res = await t.request('POST', CM, 'x', { 'Content-Type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(res.body.reason).toBe('UnsupportedMediaType');
  });

  it('answers 413 for a body over 3 MiB and stores nothing', async () => {
    const big = cm('big', { k: 'x'.repeat(3 * 1024 * 1024 + 10) });
    const res = await t.post(CM, big);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Request entity too large: limit is 3145728');
    expect((await t.get(`${CM}/big`)).status).toBe(404);
  });

  it('with dryRun=All returns the object and stores nothing', async () => {
    const res = await t.post(`${CM}?dryRun=All`, cm('dry'));
    expect(res.status).toBe(201);
    expect(res.body.metadata.name).toBe('dry');
    expect((await t.get(`${CM}/dry`)).status).toBe(404);
  });

  it('validates dryRun values (422 CreateOptions)', async () => {
    const res = await t.post(`${CM}?dryRun=Some`, cm('x'));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"');
  });
});

describe('get', () => {
  it('404 NotFound has kube-apiserver\'s body', async () => {
    const res = await t.get(`${CM}/missing`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "missing" not found',
      reason: 'NotFound',
      details: { name: 'missing', kind: 'configmaps' },
      code: 404,
    });
  });

  it('unknown resources are 404 "the server could not find the requested resource"', async () => {
    const res = await t.get('/api/v1/namespaces/default/widgets');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('the server could not find the requested resource');
    expect(res.body.details).toEqual({});
  });

  it('serves YAML and pretty JSON on request', async () => {
    await t.post(CM, cm('a'));
    const yaml = await t.get(`${CM}/a`, { Accept: 'application/yaml' });
    expect(yaml.headers.get('content-type')).toBe('application/yaml');
    expect(yaml.text).toMatch(/^apiVersion: v1\ndata:\n {2}k: v\nkind: ConfigMap\n/);
    const pretty = await t.get(`${CM}/a?pretty=true`);
    expect(pretty.text.split('\n')[1]).toBe('  "kind": "ConfigMap",');
  });

  it('answers 406 when nothing in Accept can be served', async () => {
    await t.post(CM, cm('a'));
    const res = await t.get(`${CM}/a`, { Accept: 'text/html' });
    expect(res.status).toBe(406);
    expect(res.body.reason).toBe('NotAcceptable');
    expect(res.body.message).toBe('only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  });

  it('answers protobuf when kubectl asks for it first (protobuf responses: protobuf-responses.test.ts)', async () => {
    await t.post(CM, cm('a'));
    const res = await t.get(`${CM}/a`, { Accept: 'application/vnd.kubernetes.protobuf,application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
  });

  it('a resourceVersion the server has not reached waits, then 504 with Retry-After', async () => {
    await t.post(CM, cm('a'));
    const current = Number((await t.get(`${CM}/a`)).body.metadata.resourceVersion);
    const res = await t.get(`${CM}/a?resourceVersion=${current + 1000}`);
    expect(res.status).toBe(504);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.body.reason).toBe('Timeout');
    // The current revision is the server's at the time of the answer (not earlier than the object's).
    const [, reported] = /^Timeout: Too large resource version: \d+, current: (\d+)$/.exec(res.body.message)!;
    expect(res.body.message.startsWith(`Timeout: Too large resource version: ${current + 1000}, current: `)).toBe(true);
    expect(Number(reported)).toBeGreaterThanOrEqual(current);
    expect(res.body.details).toEqual({ causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
  });
});

describe('update', () => {
  it('PUT with a stale resourceVersion is 409 Conflict with kube\'s message; the object is unchanged', async () => {
    const created = (await t.post(CM, cm('a'))).body;
    const first = await t.put(`${CM}/a`, { ...created, data: { k: 'v2' } });
    expect(first.status).toBe(200);
    expect(Number(first.body.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    const stale = await t.put(`${CM}/a`, { ...created, data: { k: 'v3' } });
    expect(stale.status).toBe(409);
    expect(stale.body.reason).toBe('Conflict');
    expect(stale.body.message).toBe('Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again');
    expect((await t.get(`${CM}/a`)).body.data).toEqual({ k: 'v2' });
  });

  it('an update that changes nothing keeps the resourceVersion', async () => {
    const created = (await t.post(CM, cm('a'))).body;
    const same = await t.put(`${CM}/a`, created);
    expect(same.status).toBe(200);
    expect(same.body.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it('keeps uid and creationTimestamp, refuses a name that differs from the URL', async () => {
    const created = (await t.post(CM, cm('a'))).body;
    const updated = await t.put(`${CM}/a`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { z: '1' } });
    expect(updated.status).toBe(200);
    expect(updated.body.metadata.uid).toBe(created.metadata.uid);
    expect(updated.body.metadata.creationTimestamp).toBe(created.metadata.creationTimestamp);
    const renamed = await t.put(`${CM}/a`, cm('b'));
    expect(renamed.status).toBe(400);
    expect(renamed.body.message).toBe('the name of the object (b) does not match the name on the URL (a)');
  });

  it('PUT of a missing object is 404 for kinds without create-on-update', async () => {
    const res = await t.put(`${CM}/nope`, cm('nope'));
    expect(res.status).toBe(404);
  });
});

describe('delete', () => {
  it('answers a Status Success for kinds that do not return the object', async () => {
    const created = (await t.post(CM, cm('a'))).body;
    const res = await t.del(`${CM}/a`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'a', kind: 'configmaps', uid: created.metadata.uid } });
    expect((await t.get(`${CM}/a`)).status).toBe(404);
  });

  it('with finalizers goes Live → Terminating → Removed when the last finalizer goes', async () => {
    await t.post(CM, cm('f', {}, { finalizers: ['example.com/hold'] }));
    const res = await t.del(`${CM}/f`);
    expect(res.status).toBe(200);
    expect(res.body.metadata.deletionTimestamp).toBeTruthy();
    expect(res.body.metadata.deletionGracePeriodSeconds).toBe(0);
    const terminating = await t.get(`${CM}/f`);
    expect(terminating.status).toBe(200);
    const cleared = await t.put(`${CM}/f`, { ...terminating.body, metadata: { ...terminating.body.metadata, finalizers: [] } });
    expect(cleared.status).toBe(200);
    expect((await t.get(`${CM}/f`)).status).toBe(404);
  });

  it('checks preconditions (409) and changes nothing', async () => {
    const created = (await t.post(CM, cm('a'))).body;
    const res = await t.del(`${CM}/a`, { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'other' } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(`Operation cannot be fulfilled on configmaps "a": Precondition failed: UID in precondition: other, UID in object meta: ${created.metadata.uid}`);
    expect((await t.get(`${CM}/a`)).status).toBe(200);
  });

  it('adds the orphan finalizer for propagationPolicy=Orphan and validates the policy', async () => {
    await t.post(CM, cm('a'));
    const orphan = await t.del(`${CM}/a?propagationPolicy=Orphan`);
    expect(orphan.body.metadata.finalizers).toEqual(['orphan']);
    const bad = await t.del(`${CM}/a`, { propagationPolicy: 'Sideways' });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"');
  });

  it('dryRun delete leaves the object', async () => {
    await t.post(CM, cm('a'));
    const res = await t.del(`${CM}/a?dryRun=All`);
    expect(res.status).toBe(200);
    expect((await t.get(`${CM}/a`)).status).toBe(200);
  });

  it('the built-in namespaces cannot be deleted', async () => {
    const res = await t.del('/api/v1/namespaces/default');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('namespaces "default" is forbidden: this namespace may not be deleted');
  });

  it('deletecollection removes what the selector selects', async () => {
    await t.post(CM, cm('a', {}, { labels: { app: 'x' } }));
    await t.post(CM, cm('b', {}, { labels: { app: 'y' } }));
    const res = await t.del(`${CM}?labelSelector=app%3Dx`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a']);
    expect((await t.get(`${CM}/a`)).status).toBe(404);
    expect((await t.get(`${CM}/b`)).status).toBe(200);
  });
});

describe('verbs and paths', () => {
  it('an unsupported method on a resource path is 405', async () => {
    const res = await t.request('POST', `${CM}/a`, cm('a'));
    expect(res.status).toBe(405);
    expect(res.body.reason).toBe('MethodNotAllowed');
  });
});

describe('namespace deletion (API side)', () => {
  it('a deleted namespace goes Terminating and stays until finalize empties spec.finalizers', async () => {
    await t.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    const res = await t.del('/api/v1/namespaces/team');
    expect(res.status).toBe(200);
    expect(res.body.status.phase).toBe('Terminating');
    expect(res.body.metadata.deletionTimestamp).toBeTruthy();
    const refused = await t.post('/api/v1/namespaces/team/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('configmaps "x" is forbidden: unable to create new content in namespace team because it is being terminated');
    const ns = (await t.get('/api/v1/namespaces/team')).body;
    const finalized = await t.put('/api/v1/namespaces/team/finalize', { ...ns, spec: { finalizers: [] } });
    expect(finalized.status).toBe(200);
    expect((await t.get('/api/v1/namespaces/team')).status).toBe(404);
  });
});
