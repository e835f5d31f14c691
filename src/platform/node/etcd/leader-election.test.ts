// Two KubeTab servers on one etcd are one cluster: kube-controller-manager's
// controllers and kube-scheduler run on the server holding their Lease only,
// and move to the other when it closes (it releases its Leases). Runs a real
// etcd (skipped with a message when it is not installed).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../core/clock';
import { builtinResources } from '../../../core/kinds/builtin';
import { createApiServer, type ApiServer, type NodeConfig } from '../../../core/server';
import { DEFAULT_NODE_SIZE } from '../../../core/kubelet';
import { EtcdClient } from './etcd-client';
import { openEtcdStore } from './etcd-store';
import { KubeKeyLayout } from './kube-keys';
import { ETCD_MISSING, findEtcd, startEtcd, type RunningEtcd } from './testing/etcd-harness';

const available = findEtcd() !== undefined;
if (!available) {
  describe('leader election across servers', () => {
    it.skip(ETCD_MISSING, () => {});
  });
}

const CONTROLLERS = ['kube-apiserver-bootstrap', 'replicaset', 'scheduler'];
const NODE: NodeConfig = { ...DEFAULT_NODE_SIZE, name: 'kubetab-worker', role: 'worker' };

describe.skipIf(!available)('leader election across servers', () => {
  let etcd: RunningEtcd;
  beforeAll(async () => {
    etcd = await startEtcd();
  }, 30_000);
  afterAll(async () => {
    await etcd?.stop();
  });

  it('runs the controllers once per cluster and moves them when the leader closes', async () => {
    const clock = manualClock();
    const builtins = builtinResources();
    const open = async (): Promise<ApiServer> => {
      const store = await openEtcdStore({ client: new EtcdClient({ endpoints: [etcd.url] }), layout: new KubeKeyLayout('/le/registry', builtins), clock, log: () => {} });
      return createApiServer({ store, clock, host: 'node', flags: { 'etcd-servers': etcd.url }, controllers: CONTROLLERS, nodes: [NODE], log: () => {} });
    };
    const call = async (server: ApiServer, method: string, path: string, body?: unknown) => {
      const res = await server.handle(new Request(`http://kubetab.test${path}`, { method, ...(body ? { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } } : {}) }));
      return { status: res.status, body: await res.json() };
    };
    const a = await open();
    await a.ready();
    const b = await open();
    await b.ready();
    const holder = async (name: string) => (await call(b, 'GET', `/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/${name}`)).body.spec.holderIdentity as string;
    const cm = await holder('kube-controller-manager');
    const scheduler = await holder('kube-scheduler');
    expect(cm).toMatch(/^kubetab-control-plane_[0-9a-f-]{36}$/);
    expect(await holder('kube-scheduler')).toMatch(/^kubetab-control-plane_[0-9a-f-]{36}$/);
    // Only A's kubelet runs the simulated node; B waits.
    expect(a.nodes.running()).toEqual(['kubetab-worker']);
    expect(b.nodes.running()).toEqual([]);

    const rs = (replicas: number) => ({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    expect((await call(b, 'POST', '/apis/apps/v1/namespaces/default/replicasets', rs(3))).status).toBe(201);
    const pods = async () => (await call(b, 'GET', '/api/v1/namespaces/default/pods')).body.items as unknown[];
    await expect.poll(async () => (await pods()).length, { timeout: 10_000 }).toBe(3);
    // Settled on both servers: still three (one ReplicaSet controller in the cluster, not two).
    await a.idle();
    await b.idle();
    expect((await pods()).length).toBe(3);

    // A closes: it releases its Leases; B acquires them at its next attempt and runs the work.
    await a.close();
    // B's next attempt comes within a retry period and its jitter (2–4.4 s).
    clock.advance(5_000);
    await expect.poll(() => holder('kube-controller-manager'), { timeout: 10_000 }).not.toBe(cm);
    await expect.poll(() => holder('kube-scheduler'), { timeout: 10_000 }).not.toBe(scheduler);
    await expect.poll(() => b.nodes.running(), { timeout: 10_000 }).toEqual(['kubetab-worker']);
    const lease = (await call(b, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager')).body.spec;
    expect(lease).toMatchObject({ leaseDurationSeconds: 15, leaseTransitions: 1 });
    expect((await call(b, 'PUT', '/apis/apps/v1/namespaces/default/replicasets/web', { ...rs(5), metadata: { ...rs(5).metadata, resourceVersion: (await call(b, 'GET', '/apis/apps/v1/namespaces/default/replicasets/web')).body.metadata.resourceVersion } })).status).toBe(200);
    await expect.poll(async () => (await pods()).length, { timeout: 10_000 }).toBe(5);
    const events = (await call(b, 'GET', '/api/v1/namespaces/kube-system/events')).body.items.filter((e: any) => e.reason === 'LeaderElection').map((e: any) => e.message.replace(/_[0-9a-f-]{36}/, '_<id>'));
    expect(events.filter((m: string) => m.endsWith('became leader')).length).toBeGreaterThanOrEqual(4);
    await b.close();
  }, 60_000);
});
