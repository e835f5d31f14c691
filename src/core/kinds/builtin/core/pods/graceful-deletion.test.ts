// Pod graceful deletion through HTTP (kube's pod strategy CheckGracefulDelete
// with rest.BeforeDelete): a pod bound to a node is marked with
// deletionTimestamp = now + grace and deletionGracePeriodSeconds and stays
// Terminating; an unbound pod, a finished one, or gracePeriodSeconds=0 is
// marked and removed at once; a repeated delete may only shorten the grace.

import { afterEach, describe, expect, it } from 'vitest';
import { rfc3339 } from '../../../../clock';
import { startTestServer, type TestServer, type WatchReader } from '../../../../../test-support/api-harness';

const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});

let s: TestServer | undefined;
let w: WatchReader | undefined;
afterEach(async () => {
  await w?.cancel();
  w = undefined;
  await s?.close();
  s = undefined;
});

describe('graceful pod deletion', () => {
  it('marks a pod on a node with its terminationGracePeriodSeconds and keeps it Terminating', async () => {
    s = await startTestServer();
    await s.post(PODS, pod('p', { nodeName: 'node-1' }));
    const res = await s.del(`${PODS}/p`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('Pod');
    expect(res.body.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(res.body.metadata.deletionTimestamp).toBe(rfc3339(s.clock.now() + 30_000));
    const got = await s.get(`${PODS}/p`);
    expect(got.status).toBe(200);
    expect(got.body.metadata.deletionTimestamp).toBe(res.body.metadata.deletionTimestamp);
    // kubectl get pods shows it Terminating.
    const table = await s.get(`${PODS}/p`, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.rows[0].cells[2]).toBe('Terminating');
  });

  it("uses the request's gracePeriodSeconds, and 1 for a negative one", async () => {
    s = await startTestServer();
    await s.post(PODS, pod('a', { nodeName: 'node-1' }));
    await s.post(PODS, pod('b', { nodeName: 'node-1' }));
    expect((await s.del(`${PODS}/a?gracePeriodSeconds=10`)).body.metadata.deletionGracePeriodSeconds).toBe(10);
    expect((await s.del(`${PODS}/b`, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: -5 })).body.metadata.deletionGracePeriodSeconds).toBe(1);
  });

  it('removes a pod that is on no node at once, after a last update watchers see as Terminating', async () => {
    s = await startTestServer();
    const created = await s.post(PODS, pod('p'));
    w = await s.watch(`${PODS}?watch=1&resourceVersion=${created.body.metadata.resourceVersion}`);
    const res = await s.del(`${PODS}/p`);
    expect(res.status).toBe(200);
    expect(res.body.metadata.deletionGracePeriodSeconds).toBe(0);
    expect((await s.get(`${PODS}/p`)).status).toBe(404);
    const events = await w.next(2);
    expect(events.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
    expect(events[0]!.object.metadata.deletionTimestamp).toBe(rfc3339(s.clock.now()));
    expect(events[1]!.object.metadata.deletionGracePeriodSeconds).toBe(0);
  });

  it('removes a pod on a node at once with gracePeriodSeconds=0 (kubectl delete --force --grace-period=0)', async () => {
    s = await startTestServer();
    await s.post(PODS, pod('p', { nodeName: 'node-1' }));
    expect((await s.del(`${PODS}/p?gracePeriodSeconds=0`)).status).toBe(200);
    expect((await s.get(`${PODS}/p`)).status).toBe(404);
  });

  it('removes a finished pod at once', async () => {
    s = await startTestServer();
    const created = await s.post(PODS, pod('p', { nodeName: 'node-1' }));
    const done = { ...created.body, status: { ...created.body.status, phase: 'Succeeded' } };
    expect((await s.put(`${PODS}/p/status`, done)).status).toBe(200);
    await s.del(`${PODS}/p`);
    expect((await s.get(`${PODS}/p`)).status).toBe(404);
  });

  it('lets a repeated delete only shorten the grace: a longer or unnamed one changes nothing, 0 removes the pod', async () => {
    s = await startTestServer();
    await s.post(PODS, pod('p', { nodeName: 'node-1' }));
    const first = await s.del(`${PODS}/p`);
    const again = await s.del(`${PODS}/p?gracePeriodSeconds=60`);
    expect(again.status).toBe(200);
    expect(again.body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
    const plain = await s.del(`${PODS}/p`);
    expect(plain.body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
    const shorter = await s.del(`${PODS}/p?gracePeriodSeconds=5`);
    expect(shorter.body.metadata.deletionGracePeriodSeconds).toBe(5);
    // The deadline moves back by the difference: now + 30 s - 30 s + 5 s.
    expect(shorter.body.metadata.deletionTimestamp).toBe(rfc3339(s.clock.now() + 5_000));
    expect((await s.del(`${PODS}/p?gracePeriodSeconds=0`)).status).toBe(200);
    expect((await s.get(`${PODS}/p`)).status).toBe(404);
  });

  it('keeps a pod with a finalizer after its grace is cut to 0, until the finalizer goes', async () => {
    s = await startTestServer();
    await s.post(PODS, { ...pod('p', { nodeName: 'node-1' }), metadata: { name: 'p', finalizers: ['example.com/hold'] } });
    await s.del(`${PODS}/p`);
    const cut = await s.del(`${PODS}/p?gracePeriodSeconds=0`);
    expect(cut.body.metadata.deletionGracePeriodSeconds).toBe(0);
    expect((await s.get(`${PODS}/p`)).status).toBe(200);
    await s.patch(`${PODS}/p`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    expect((await s.get(`${PODS}/p`)).status).toBe(404);
  });

  it('changes nothing on a dry run', async () => {
    s = await startTestServer();
    await s.post(PODS, pod('p', { nodeName: 'node-1' }));
    const dry = await s.del(`${PODS}/p?dryRun=All`);
    expect(dry.body.metadata.deletionGracePeriodSeconds).toBe(30);
    expect((await s.get(`${PODS}/p`)).body.metadata.deletionTimestamp).toBeUndefined();
  });

  it('leaves other kinds as they were: a ConfigMap is removed at once without deletion fields', async () => {
    s = await startTestServer();
    await s.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'c' } });
    const res = await s.del('/api/v1/namespaces/default/configmaps/c?gracePeriodSeconds=30');
    expect(res.body.kind).toBe('Status');
    expect((await s.get('/api/v1/namespaces/default/configmaps/c')).status).toBe(404);
  });
});
