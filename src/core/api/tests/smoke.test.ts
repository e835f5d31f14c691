import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

describe('smoke', () => {
  it('creates and reads a configmap', async () => {
    const created = await t.post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } });
    expect(created.status).toBe(201);
    const got = await t.get('/api/v1/namespaces/default/configmaps/a');
    expect(got.status).toBe(200);
    expect(got.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    const list = await t.get('/api/v1/namespaces/default/configmaps');
    expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a']);
  });

  // kube-apiserver also sends API Priority and Fairness's X-Kubernetes-Pf-* headers, which KubeTab (no APF) does not.
  it("answers with kube-apiserver's Audit-Id, Cache-Control and Content-Type and no header of its own (the host adds Date and the length)", async () => {
    const names = (headers: Headers) => [...headers.keys()].sort();
    const created = await t.post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'h' } });
    expect(names(created.headers)).toEqual(['audit-id', 'cache-control', 'content-type']);
    expect(created.headers.get('cache-control')).toBe('no-cache, private');
    expect(names((await t.get('/api/v1/namespaces/default/configmaps/h')).headers)).toEqual(['audit-id', 'cache-control', 'content-type']);
    expect(names((await t.get('/api/v1/namespaces/default/configmaps')).headers)).toEqual(['audit-id', 'cache-control', 'content-type']);
    expect(names((await t.get('/api/v1/namespaces/default/configmaps/missing')).headers)).toEqual(['audit-id', 'cache-control', 'content-type']);
  });
});
