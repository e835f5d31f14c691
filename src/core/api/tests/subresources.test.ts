// Subresources that are not plain status writes: scale, binding, log,
// eviction, exec, proxy, and the computed componentstatuses.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string, containers = ['app']) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: name } },
  spec: { containers: containers.map((c) => ({ name: c, image: 'nginx:1.25' })) },
});

describe('binding', () => {
  it('assigns the node and sets PodScheduled; a second binding is 409', async () => {
    await t.post(PODS, pod('p'));
    const bound = await t.post(`${PODS}/p/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'node-1' } });
    expect(bound.status).toBe(201);
    expect(bound.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const got = (await t.get(`${PODS}/p`)).body;
    expect(got.spec.nodeName).toBe('node-1');
    expect(got.status.conditions).toContainEqual(expect.objectContaining({ type: 'PodScheduled', status: 'True' }));
    const again = await t.post(`${PODS}/p/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'node-2' } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Operation cannot be fulfilled on pods "p": pod p is already assigned to node "node-1"');
  });
});

describe('log', () => {
  it('answers as a real server does for a pod without a host, and asks for a container when there are several', async () => {
    await t.post(PODS, pod('one'));
    // No node, no log location: kube answers 204 with no body (kubectl prints nothing).
    const unscheduled = await t.get(`${PODS}/one/log`);
    expect(unscheduled.status).toBe(204);
    expect(unscheduled.text).toBe('');
    await t.post(PODS, pod('two', ['a', 'b']));
    const which = await t.get(`${PODS}/two/log`);
    expect(which.body.message).toBe('a container name must be specified for pod two, choose one of: [a b]');
  });
});

describe('eviction', () => {
  it('deletes the pod', async () => {
    await t.post(PODS, pod('e'));
    const res = await t.post(`${PODS}/e/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'e' } });
    expect(res.status).toBe(201);
    expect((await t.get(`${PODS}/e`)).status).toBe(404);
  });
});

describe('exec', () => {
  it('needs a connection upgrade', async () => {
    await t.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] } });
    await t.post(PODS, { ...pod('x'), spec: { ...pod('x').spec, nodeName: 'n' } });
    const res = await t.request('POST', `${PODS}/x/exec?command=ls`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Upgrade request required');
  });
});

describe('scale', () => {
  it('reads and writes a Deployment\'s replicas as an autoscaling/v1 Scale', async () => {
    const deploy = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    const created = await t.post('/apis/apps/v1/namespaces/default/deployments', deploy);
    expect(created.status).toBe(201);
    const scale = await t.get('/apis/apps/v1/namespaces/default/deployments/d/scale');
    expect(scale.status).toBe(200);
    expect(scale.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 1 }, status: { replicas: 0, selector: 'app=d' } });
    const patched = await t.patch('/apis/apps/v1/namespaces/default/deployments/d/scale', { spec: { replicas: 3 } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(patched.body.spec.replicas).toBe(3);
    expect((await t.get('/apis/apps/v1/namespaces/default/deployments/d')).body.spec.replicas).toBe(3);
    const stale = await t.put('/apis/apps/v1/namespaces/default/deployments/d/scale', { ...scale.body, spec: { replicas: 5 } });
    expect(stale.status).toBe(409);
  });
});

describe('componentstatuses', () => {
  it('lists healthy components with the deprecation warning', async () => {
    const res = await t.get('/api/v1/componentstatuses');
    expect(res.status).toBe(200);
    expect(res.headers.get('warning')).toBe('299 - "v1 ComponentStatus is deprecated in v1.19+"');
    expect(res.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['controller-manager', 'etcd-0', 'scheduler']);
  });
});

describe('proxy', () => {
  it('routes a path after proxy/ to the proxy, not to a 404 of the route: kube\'s answers for a service without endpoints', async () => {
    await t.post('/api/v1/namespaces/default/services', { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } });
    // No Endpoints object (no endpoints controller runs here): the proxy's own 404, naming it.
    for (const path of ['proxy/', 'proxy/index.html', 'proxy/some/deep/path']) {
      const res = await t.get(`/api/v1/namespaces/default/services/web/${path}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('endpoints "web" not found');
    }
    // An Endpoints object without a ready address: 503.
    await t.post('/api/v1/namespaces/default/endpoints', { metadata: { name: 'web' }, subsets: [] });
    const res = await t.get('/api/v1/namespaces/default/services/web/proxy/some/deep/path');
    expect(res.status).toBe(503);
    expect(res.body.message).toBe('no endpoints available for service "web"');
  });

  it('takes no path after any other subresource', async () => {
    await t.post('/api/v1/namespaces/default/services', { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } });
    expect((await t.get('/api/v1/namespaces/default/services/web/status')).status).toBe(200);
    expect((await t.get('/api/v1/namespaces/default/services/web/status/extra')).status).toBe(404);
  });
});
