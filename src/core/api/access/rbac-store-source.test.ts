// The RBAC objects kept from the store (RbacSource contract): the same array
// while nothing changed, so that RBAC's subject index is reused; a write is
// seen by the next read, before the write's caller gets its answer.

import { describe, expect, it } from 'vitest';
import { manualClock } from '../../clock';
import { openStore } from '../../storage/mvcc-store';
import { createStoreRbacSource } from './rbac-store-source';

const KEY = '/registry/rbac.authorization.k8s.io';
const binding = (name: string, namespace?: string) =>
  JSON.stringify({
    metadata: { name, ...(namespace ? { namespace } : {}) },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }],
  });

describe('store-backed RbacSource', () => {
  it('loads what is stored, keeps list instances until a change, and sees writes at once', async () => {
    const store = await openStore({ clock: manualClock() });
    await store.create(`${KEY}/clusterrolebindings/a`, () => binding('a'));
    await store.create(`${KEY}/rolebindings/team/b`, () => binding('b', 'team'));
    const source = createStoreRbacSource(store);
    await source.ready;
    const first = source.listClusterRoleBindings();
    expect(first.map((b) => b.metadata.name)).toEqual(['a']);
    expect(source.listClusterRoleBindings()).toBe(first);
    const team = source.listRoleBindings('team');
    expect(team.map((b) => b.metadata.name)).toEqual(['b']);
    expect(source.listRoleBindings('other')).toEqual([]);

    await store.create(`${KEY}/clusterrolebindings/c`, () => binding('c'));
    const second = source.listClusterRoleBindings();
    expect(second).not.toBe(first);
    expect(second.map((b) => b.metadata.name).sort()).toEqual(['a', 'c']);
    // Another namespace's list is untouched by a cluster-scoped change.
    expect(source.listRoleBindings('team')).toBe(team);

    const kv = await store.get(`${KEY}/rolebindings/team/b`);
    await store.delete(`${KEY}/rolebindings/team/b`, kv!.modRevision);
    expect(source.listRoleBindings('team')).toEqual([]);
    expect(source.getRoleBinding('team', 'b')).toBeUndefined();

    await store.create(`${KEY}/clusterroles/view`, () => JSON.stringify({ metadata: { name: 'view' }, rules: [] }));
    expect(source.getClusterRole('view')?.metadata.name).toBe('view');
    // A record that is not JSON grants nothing.
    await store.create(`${KEY}/clusterroles/broken`, () => '{not json');
    expect(source.getClusterRole('broken')).toBeUndefined();
    source.stop();
  });
});

describe('store-backed RbacSource on a cold start (docs/decisions/0131, 0170)', () => {
  // Rule: the first request is authorized against the complete stored RBAC
  // state, yet need not wait for every other stored object to load.
  it('is ready with every stored RBAC object before the store has loaded, and follows writes after the load', async () => {
    const { createMemoryPersistence } = await import('../../storage/memory-persistence');
    const { PersistenceFaults, withFaults } = await import('../../../storage/faulty-persistence');
    const persistence = createMemoryPersistence();
    const clock = manualClock();
    const first = await openStore({ clock, persistence });
    await first.create(`${KEY}/clusterrolebindings/a`, () => binding('a'));
    await first.create(`${KEY}/rolebindings/team/b`, () => binding('b', 'team'));
    for (let i = 0; i < 50; i++) await first.create(`/registry/configmaps/default/c${i}`, () => '{}');
    await first.close();

    const faults = new PersistenceFaults();
    const release = faults.holdLoad();
    const store = await openStore({ clock, persistence: withFaults(persistence, faults) });
    let loaded = false;
    void store.ready().then(() => (loaded = true));
    const source = createStoreRbacSource(store);
    await source.ready;
    expect(loaded).toBe(false);
    expect(source.listClusterRoleBindings().map((b) => b.metadata.name)).toEqual(['a']);
    expect(source.getRoleBinding('team', 'b')?.metadata.name).toBe('b');

    release();
    await store.ready();
    await store.create(`${KEY}/clusterrolebindings/c`, () => binding('c'));
    expect(source.listClusterRoleBindings().map((b) => b.metadata.name).sort()).toEqual(['a', 'c']);
    source.stop();
    await store.close();
  });
});
