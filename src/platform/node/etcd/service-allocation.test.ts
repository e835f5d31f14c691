// Two KubeTab servers on one etcd never hand out the same cluster IP or node
// port: Services created at once through both, from ranges small enough
// that per-server bookkeeping would collide, all get distinct values, and
// the same requested IP through both servers goes to one Service only.
// Runs a real etcd (skipped with a message when it is not installed).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../core/clock';
import { builtinResources } from '../../../core/kinds/builtin';
import { createApiServer, type ApiServer } from '../../../core/server';
import { EtcdClient } from './etcd-client';
import { openEtcdStore } from './etcd-store';
import { KubeKeyLayout } from './kube-keys';
import { ETCD_MISSING, findEtcd, startEtcd, type RunningEtcd } from './testing/etcd-harness';

const available = findEtcd() !== undefined;
if (!available) {
  describe('service allocation across servers', () => {
    it.skip(ETCD_MISSING, () => {});
  });
}

describe.skipIf(!available)('service allocation across servers', () => {
  let etcd: RunningEtcd;
  beforeAll(async () => {
    etcd = await startEtcd();
  }, 30_000);
  afterAll(async () => {
    await etcd?.stop();
  });

  it('gives every Service its own cluster IP and node port whichever server allocates', async () => {
    const clock = manualClock();
    const builtins = builtinResources();
    // 10.96.0.0/28: 14 usable addresses; node ports 30000-30015.
    const flags = { 'etcd-servers': etcd.url, 'service-cluster-ip-range': '10.96.0.0/28', 'service-node-port-range': '30000-30015' };
    const open = async (): Promise<ApiServer> => {
      const store = await openEtcdStore({ client: new EtcdClient({ endpoints: [etcd.url] }), layout: new KubeKeyLayout('/alloc/registry', builtins), clock, log: () => {} });
      return createApiServer({ store, clock, host: 'node', flags, controllers: [], nodes: [], log: () => {} });
    };
    const a = await open();
    const b = await open();
    await a.ready();
    await b.ready();
    const createOn = async (server: ApiServer, name: string, clusterIP?: string) => {
      const body = { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { type: 'NodePort', ...(clusterIP ? { clusterIP } : {}), ports: [{ port: 80 }] } };
      const res = await server.handle(new Request('http://kubetab.test/api/v1/namespaces/default/services', { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }));
      return { status: res.status, body: (await res.json()) as any };
    };
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => createOn(i % 2 ? b : a, `svc-${i}`)));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
    const ips = results.map((r) => r.body.spec.clusterIP);
    const ports = results.map((r) => r.body.spec.ports[0].nodePort);
    expect(new Set(ips).size).toBe(12);
    expect(new Set(ports).size).toBe(12);

    // The same address asked for through both servers at once: one Service gets it.
    const free = ['10.96.0.1', '10.96.0.2', '10.96.0.3', '10.96.0.4', '10.96.0.5', '10.96.0.6', '10.96.0.7', '10.96.0.8', '10.96.0.9', '10.96.0.10', '10.96.0.11', '10.96.0.12', '10.96.0.13', '10.96.0.14'].find((ip) => !ips.includes(ip))!;
    const [one, two] = await Promise.all([createOn(a, 'wants-a', free), createOn(b, 'wants-b', free)]);
    expect([one.status, two.status].sort()).toEqual([201, 422]);
    const refused = one.status === 422 ? one : two;
    expect(refused.body.message).toContain('provided IP is already allocated');
    await a.close();
    await b.close();
  }, 60_000);
});
