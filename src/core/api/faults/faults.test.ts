// Fault injection as a client observes it: each kind of fault through the
// core's request path (src/test-support/api-harness.ts, manual clock), and
// the spec check's errors.

import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { manualClock } from '../../clock';
import { FaultSpecError, type FaultSpec } from '.';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });
const add = (spec: unknown) => t!.server.faults.add(spec as FaultSpec);

describe('fault specs', () => {
  it('refuses malformed specs and specs that match nothing, naming what to fix', async () => {
    t = await startTestServer();
    const cases: [unknown, RegExp][] = [
      [{ verb: 'get', resource: 'pods' }, /say what the fault does: status, delayMs, closeWatchAfter or dropEvents/],
      [{ resource: 'pods', status: 418 }, /status 418 is not one of 403, 404, 409, 410, 429, 500, 503/],
      [{ verb: 'fetch', status: 500 }, /verb "fetch" is not one of get, list, watch/],
      [{ resource: 'podz', status: 500 }, /resource "podz" matches nothing: the server serves no such resource/],
      [{ resource: 'deployments.batch', status: 500 }, /matches nothing: the server serves no such resource in group "batch"/],
      [{ resource: 'pods/logs', status: 500 }, /pods has no subresource "logs" \(it has .*log/],
      [{ resource: 'nodes', namespace: 'default', status: 404 }, /nodes is cluster-scoped/],
      [{ verb: 'get', closeWatchAfter: 1 }, /closeWatchAfter acts on watches: the verb must include "watch"/],
      [{ status: 500, dropEvents: 1 }, /status cannot be combined with dropEvents/],
      [{ status: 500, times: 0 }, /times must be an integer >= 1, not 0/],
      [{ status: 500, retryAfterSeconds: 3 }, /retryAfterSeconds goes with status 429 or 503/],
      [{ status: 500, ressource: 'pods' }, /unknown field "ressource"/],
      ['pods', /a fault is an object/],
    ];
    for (const [spec, message] of cases) {
      expect(() => add(spec)).toThrow(FaultSpecError);
      expect(() => add(spec)).toThrow(message);
    }
    expect(t.server.faults.list()).toEqual([]);
  });

  it('lists, counts, retires after times, removes and clears', async () => {
    t = await startTestServer();
    const a = add({ verb: 'get', resource: 'configmaps', status: 500, times: 2 });
    const b = add({ resource: 'secrets', status: 404 });
    expect(t.server.faults.list()).toEqual([
      { id: a.id, spec: { verb: 'get', resource: 'configmaps', status: 500, times: 2 }, hits: 0, remaining: 2 },
      { id: b.id, spec: { resource: 'secrets', status: 404 }, hits: 0, remaining: null },
    ]);
    await t.post('/api/v1/namespaces/default/configmaps', cm('c'));
    expect((await t.get('/api/v1/namespaces/default/configmaps/c')).status).toBe(500);
    expect(t.server.faults.list()[0]).toMatchObject({ id: a.id, hits: 1, remaining: 1 });
    expect((await t.get('/api/v1/namespaces/default/configmaps/c')).status).toBe(500);
    expect((await t.get('/api/v1/namespaces/default/configmaps/c')).status).toBe(200);
    expect(t.server.faults.list().map((f) => f.id)).toEqual([b.id]);
    expect(t.server.faults.remove(b.id)).toBe(true);
    expect(t.server.faults.remove(b.id)).toBe(false);
    add({ status: 503 });
    t.server.faults.clear();
    expect((await t.get('/api/v1/namespaces/default/configmaps/c')).status).toBe(200);
  });
});

describe('status faults', () => {
  it("answers with kube's Status for each code", async () => {
    t = await startTestServer();
    await t.post('/api/v1/namespaces/default/configmaps', cm('c'));
    const path = '/api/v1/namespaces/default/configmaps/c';

    add({ verb: 'get', resource: 'configmaps', status: 403, times: 1 });
    let r = await t.get(path);
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403,
      message: 'configmaps "c" is forbidden: User "system:anonymous" cannot get resource "configmaps" in API group "" in the namespace "default"',
      details: { name: 'c', kind: 'configmaps' },
    });

    add({ verb: 'get', name: 'c', status: 404, times: 1 });
    r = await t.get(path);
    expect(r.body).toMatchObject({ code: 404, reason: 'NotFound', message: 'configmaps "c" not found', details: { name: 'c', kind: 'configmaps' } });

    add({ verb: 'update', status: 409, times: 1 });
    r = await t.put(path, cm('c'));
    expect(r.body).toMatchObject({ code: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on configmaps "c": the object has been modified; please apply your changes to the latest version and try again' });
    add({ verb: 'create', status: 409, times: 1 });
    r = await t.post('/api/v1/namespaces/default/configmaps', cm('fresh'));
    expect(r.body).toMatchObject({ code: 409, reason: 'AlreadyExists', message: 'configmaps "fresh" already exists' });
    // Nothing else changed: the object the 409 names was never created.
    expect((await t.get('/api/v1/namespaces/default/configmaps/fresh')).status).toBe(404);

    add({ verb: 'list', status: 410, times: 1 });
    r = await t.get('/api/v1/namespaces/default/configmaps?limit=1&continue=abc');
    expect(r.body).toMatchObject({ code: 410, reason: 'Expired' });
    expect(r.body.message).toMatch(/^The provided continue parameter is too old/);

    add({ verb: 'delete', status: 429, times: 1 });
    r = await t.del(path);
    expect(r.status).toBe(429);
    expect(r.text).toBe('Too many requests, please try again later.\n');
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');

    add({ verb: 'patch', status: 500, times: 1 });
    r = await t.patch(path, { data: { k: 'w' } }, 'application/merge-patch+json');
    expect(r.body).toMatchObject({ code: 500, reason: 'InternalError', message: 'Internal error occurred: fault injected by KubeTab' });

    add({ status: 503, retryAfterSeconds: 5, times: 1 });
    r = await t.get(path);
    expect(r.body).toMatchObject({ code: 503, reason: 'ServiceUnavailable', message: 'the server is currently unable to handle the request', details: { retryAfterSeconds: 5 } });
    expect(r.headers.get('retry-after')).toBe('5');

    add({ status: 500, message: 'etcdserver: request timed out', times: 1 });
    r = await t.get(path);
    expect(r.body.message).toBe('etcdserver: request timed out');
    expect((await t.get(path)).body.data).toEqual({ k: 'v' });
  });

  it('matches the user after authentication, and never the server\'s own clients', async () => {
    t = await startTestServer({ 'authorization-mode': 'RBAC', 'token-auth-file': '/tokens.csv' }, manualClock(), [], { files: { '/tokens.csv': 'jane-token,jane,jane-uid\n' } });
    add({ user: 'kubetab-admin', resource: 'namespaces', status: 500 });
    expect((await t.get('/api/v1/namespaces/default')).status).toBe(500);
    // jane is not the fault's user: RBAC answers her (a real 403).
    const jane = await t.get('/api/v1/namespaces/default', { Authorization: 'Bearer jane-token' });
    expect(jane.status).toBe(403);
    expect(jane.body.message).toContain('User "jane" cannot get resource "namespaces"');
    // In-process clients (controllers, kubelets, test helpers) are not faulted.
    const internal = await t.server.handleAs(new Request('http://kubetab.test/api/v1/namespaces/default'), { username: 'kubetab-admin', groups: ['system:masters'] });
    expect(internal.status).toBe(200);
  });

  it('waits delayMs on the cluster clock', async () => {
    const clock = manualClock();
    t = await startTestServer({}, clock);
    add({ verb: 'get', resource: 'namespaces', delayMs: 5000 });
    let answered = false;
    const pending = t.get('/api/v1/namespaces/default').then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(answered).toBe(false);
    clock.advance(5000);
    expect((await pending).status).toBe(200);
  });
});

describe('watch faults', () => {
  it('ends a watch cleanly after N events, or breaks its connection', async () => {
    t = await startTestServer();
    await t.post('/api/v1/namespaces/default/configmaps', cm('a'));
    await t.post('/api/v1/namespaces/default/configmaps', cm('b'));
    add({ resource: 'configmaps', closeWatchAfter: 1, times: 1 });
    const w = await t.watch('/api/v1/namespaces/default/configmaps?watch=1');
    expect(w.status).toBe(200);
    expect((await w.next(1)).map((e) => e.object.metadata.name)).toEqual(['a']);
    expect(await w.ended(1000)).toBe(true);

    add({ resource: 'configmaps', closeWatchAfter: { events: 0, abrupt: true }, times: 1 });
    const response = await t.server.handle(new Request('http://kubetab.test/api/v1/namespaces/default/configmaps?watch=1'));
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow(/watch connection lost/);
  });

  it('drops the first N events and keeps the watch open', async () => {
    t = await startTestServer();
    add({ verb: 'watch', resource: 'configmaps', namespace: 'default', dropEvents: 2, times: 1 });
    const w = await t.watch('/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=0');
    for (const name of ['x1', 'x2', 'x3']) await t.post('/api/v1/namespaces/default/configmaps', cm(name));
    expect((await w.next(1)).map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'x3']]);
    await w.cancel();
  });

  it('answers a watch 410 as kube does: 200 and one ERROR event', async () => {
    t = await startTestServer();
    add({ verb: 'watch', status: 410, times: 1 });
    const w = await t.watch('/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=5');
    expect(w.status).toBe(200);
    const [event] = await w.next(1);
    expect(event!.type).toBe('ERROR');
    expect(event!.object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
    expect(event!.object.message).toMatch(/^too old resource version: 5 \(\d+\)$/);
  });
});
