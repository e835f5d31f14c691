// Two KubeTab servers on one etcd each have their own kube-apiserver
// identity Lease, and the `kubernetes` Service's Endpoints and EndpointSlice
// list every live server's advertise address (kube's lease endpoint
// reconciler, records at /registry/masterleases/<ip>); a server that closes
// drops out. Runs a real etcd (skipped with a message when not installed).

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
  describe('kubernetes endpoints across servers', () => {
    it.skip(ETCD_MISSING, () => {});
  });
}

describe.skipIf(!available)('kubernetes endpoints across servers', () => {
  let etcd: RunningEtcd;
  beforeAll(async () => {
    etcd = await startEtcd();
  }, 30_000);
  afterAll(async () => {
    await etcd?.stop();
  });

  it('lists every live server and gives each its own identity Lease', async () => {
    const clock = manualClock();
    const builtins = builtinResources();
    const open = async (address: string, port: number): Promise<ApiServer> => {
      const store = await openEtcdStore({ client: new EtcdClient({ endpoints: [etcd.url] }), layout: new KubeKeyLayout('/ep/registry', builtins), clock, log: () => {} });
      return createApiServer({
        store,
        clock,
        host: 'node',
        flags: { 'etcd-servers': etcd.url, 'advertise-address': address },
        apiServerIdentity: { hostname: 'lab-host', identity: `lab-host:${port}`, masterLeases: store.masterLeases() },
        controllers: ['kube-apiserver-bootstrap'],
        nodes: [],
        log: () => {},
      });
    };
    const get = async (server: ApiServer, path: string) => (await (await server.handle(new Request(`http://kubetab.test${path}`))).json()) as any;
    const a = await open('10.0.0.2', 18100);
    await a.ready();
    const b = await open('10.0.0.1', 18101);
    await b.ready();
    await b.idle();
    // A's reconciler runs again at its interval and sees B's record.
    clock.advance(10_000);
    await a.idle();
    await b.idle();

    const addresses = async () => {
      const endpoints = await get(a, '/api/v1/namespaces/default/endpoints/kubernetes');
      return endpoints.subsets[0].addresses.map((x: { ip: string }) => x.ip);
    };
    await expect.poll(addresses, { timeout: 10_000 }).toEqual(['10.0.0.1', '10.0.0.2']);
    const slice = await get(b, '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes');
    expect(slice.endpoints.map((e: { addresses: string[] }) => e.addresses[0])).toEqual(['10.0.0.1', '10.0.0.2']);
    // kube's records, where kube keeps them.
    expect(etcd.etcdctl('get', '--prefix', '--keys-only', '/ep/registry/masterleases/').split('\n').filter(Boolean)).toEqual([
      '/ep/registry/masterleases/10.0.0.1',
      '/ep/registry/masterleases/10.0.0.2',
    ]);

    const leases = (await get(a, '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?labelSelector=apiserver.kubernetes.io%2Fidentity%3Dkube-apiserver')).items;
    expect(leases).toHaveLength(2);
    expect(new Set(leases.map((l: any) => l.metadata.name)).size).toBe(2);
    for (const lease of leases) {
      expect(lease.metadata.name).toMatch(/^apiserver-[a-z2-7]{26}$/);
      expect(lease.metadata.labels['kubernetes.io/hostname']).toBe('lab-host');
      expect(lease.spec.holderIdentity).toMatch(new RegExp(`^${lease.metadata.name}_[0-9a-f-]{36}$`));
    }

    // B shuts down: it removes its record and its address at once.
    await b.close();
    await expect.poll(addresses, { timeout: 10_000 }).toEqual(['10.0.0.2']);
    await a.close();
  }, 60_000);
});
