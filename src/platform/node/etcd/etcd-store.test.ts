// The storage conformance suite against a real etcd (started here on a free
// loopback port), plus what only the etcd store promises: kube's keys and
// values in etcd, another server's writes seen, conflicts across servers.
// Every store of this file lives under its own --etcd-prefix of one etcd.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, type Clock } from '../../../core/clock';
import { builtinResources } from '../../../core/kinds/builtin';
import { decodeKubernetesProtobuf } from '../../../core/protobuf';
import { ConflictError, type StoreEvent } from '../../../core/storage/types';
import { runStoreConformance } from '../../../storage/conformance.suite';
import { EtcdClient } from './etcd-client';
import { openEtcdStore, type EtcdStore } from './etcd-store';
import { KubeKeyLayout } from './kube-keys';
import { ETCD_MISSING, findEtcd, startEtcd, type RunningEtcd } from './testing/etcd-harness';

const builtins = builtinResources();
const available = findEtcd() !== undefined;

if (!available) {
  describe('etcd store', () => {
    it.skip(ETCD_MISSING, () => {});
  });
}

describe.skipIf(!available)('etcd store', () => {
  let etcd: RunningEtcd;
  const stores: EtcdStore[] = [];
  beforeAll(async () => {
    etcd = await startEtcd();
  }, 30_000);
  afterAll(async () => {
    for (const store of stores) await store.close();
    await etcd?.stop();
  });

  let n = 0;
  let lastPrefix = '';
  const openAt = (prefix: string, clock: Clock) =>
    openEtcdStore({ client: new EtcdClient({ endpoints: [etcd.url] }), layout: new KubeKeyLayout(prefix, builtins), clock, log: () => {} });

  runStoreConformance('etcd', {
    open: (clock) => openAt((lastPrefix = `/conformance-${++n}/registry`), clock),
    reopen: (clock) => openAt(lastPrefix, clock),
    // Where etcd's rules are not the engine's: etcd is right (docs/decisions/0354-etcd-store.md).
    knownDifferences: {
      'starts a new store at a revision no lower than the clock (decision 0010)': 'etcd numbers revisions from 1 and never resets them',
      'batch applies all ops at consecutive revisions, or none of them': 'a batch is one etcd transaction: all its writes share one revision',
      'history older than the retention window (5 minutes) is compacted, by the clock':
        'kube-apiserver’s compactor compacts, each interval, to the revision seen one interval before: history lives one to two intervals',
      'wipe empties the store, restarts revisions above every earlier one and closes watches': 'after a wipe etcd goes on from its own revision, not from the clock',
      'after a restart, get answers at once and ready() resolves; time-based compaction uses the stored commit times':
        'etcd keeps no commit times: compaction follows the compactor’s intervals',
    },
  });

  async function server(prefix: string): Promise<EtcdStore> {
    const store = await openAt(prefix, manualClock());
    stores.push(store);
    return store;
  }

  const pod = (name: string, rv: number) =>
    JSON.stringify({ metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: String(rv), creationTimestamp: '2024-12-11T12:00:00Z' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });

  it('keeps objects at kube-apiserver’s keys, as protobuf with resourceVersion from the revision', async () => {
    const store = await server('/keys-1/registry');
    const created = await store.create('/registry/core/pods/default/web', (rev) => pod('web', rev));
    await store.create('/registry/core/nodes/kind-worker', () => JSON.stringify({ metadata: { name: 'kind-worker' } }));
    await store.create('/registry/core/services/default/kubernetes', () => JSON.stringify({ metadata: { name: 'kubernetes', namespace: 'default' } }));
    await store.create('/registry/apps/deployments/default/web', () => JSON.stringify({ metadata: { name: 'web', namespace: 'default' } }));
    await store.create('/registry/stable.example.com/crontabs/default/c1', () =>
      JSON.stringify({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c1', namespace: 'default', resourceVersion: '1' }, spec: { x: 1 } }),
    );
    const keys = etcd.etcdctl('get', '--prefix', '--keys-only', '/keys-1/registry/').split('\n').filter(Boolean);
    expect(keys).toEqual([
      '/keys-1/registry/deployments/default/web',
      '/keys-1/registry/minions/kind-worker',
      '/keys-1/registry/pods/default/web',
      '/keys-1/registry/services/specs/default/kubernetes',
      '/keys-1/registry/stable.example.com/crontabs/default/c1',
    ]);
    const raw = Buffer.from(JSON.parse(etcd.etcdctl('get', '--write-out=json', '/keys-1/registry/pods/default/web')).kvs[0].value, 'base64');
    const decoded = decodeKubernetesProtobuf(new Uint8Array(raw));
    expect(decoded.apiVersion).toBe('v1');
    expect(decoded.kind).toBe('Pod');
    expect((decoded.object.metadata as Record<string, unknown>).resourceVersion).toBeUndefined();
    expect(JSON.parse(created.value).metadata.resourceVersion).toBe(String(created.modRevision));
    const cr = etcd.etcdctl('get', '--print-value-only', '/keys-1/registry/stable.example.com/crontabs/default/c1');
    expect(JSON.parse(cr)).toEqual({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c1', namespace: 'default' }, spec: { x: 1 } });
    const back = await store.get('/registry/stable.example.com/crontabs/default/c1');
    expect(JSON.parse(back!.value).metadata.resourceVersion).toBe(String(back!.modRevision));
  });

  it('two servers on one etcd: a write through one is read and watched through the other; a stale write is a conflict', async () => {
    const a = await server('/two/registry');
    const b = await server('/two/registry');
    const seen: StoreEvent[] = [];
    b.watch({ prefix: '/registry/core/pods/', afterRevision: b.currentRevision() }, { onEvent: (e) => seen.push(e) });
    const created = await a.create('/registry/core/pods/default/p', (rev) => pod('p', rev));
    const onB = await b.get('/registry/core/pods/default/p');
    expect(onB?.modRevision).toBe(created.modRevision);
    expect(JSON.parse(onB!.value).metadata.uid).toBe('uid-p');
    const updated = await b.update('/registry/core/pods/default/p', created.modRevision, (rev) => pod('p', rev));
    const stale = a.update('/registry/core/pods/default/p', created.modRevision, (rev) => pod('p', rev));
    await expect(stale).rejects.toBeInstanceOf(ConflictError);
    expect(((await stale.catch((e) => e)) as ConflictError).current?.modRevision).toBe(updated.modRevision);
    await expect.poll(() => seen.map((e) => e.revision)).toEqual([created.modRevision, updated.modRevision]);
  });
});
