// The namespace deleter's steps against fake dependencies (a table of situations):
// which calls it makes and where it stops, as kube's namespacedResourcesDeleter.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import { ApiError } from '../client/api-error';
import type { DiscoveredResource } from '../client/discovery';
import type { NamespaceDeleterDeps } from './deps';
import { syncNamespace } from './namespace-deleter';

const T0 = Date.UTC(2024, 11, 11, 12, 0, 0);
const configmaps: DiscoveredResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'watch'], preferred: true };
const bindings: DiscoveredResource = { group: '', version: 'v1', resource: 'bindings', kind: 'Binding', namespaced: true, verbs: ['create'], preferred: true };
const pods: DiscoveredResource = { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, verbs: ['delete', 'deletecollection', 'list'], preferred: true };
const noCollection: DiscoveredResource = { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true, verbs: ['delete', 'list'], preferred: true };

interface World {
  ns?: KubeObject;
  items: Map<string, KubeObject[]>;
  calls: string[];
  conflictsOnStatus?: number;
}

function fake(world: World, resources: DiscoveredResource[], now = T0): NamespaceDeleterDeps {
  const key = (r: { resource: string }) => r.resource;
  return {
    async getNamespace() {
      return world.ns && structuredClone(world.ns);
    },
    async updateStatus(ns) {
      world.calls.push(`status:${JSON.stringify((ns['status'] as { phase?: string }).phase)}`);
      if (world.conflictsOnStatus) {
        world.conflictsOnStatus--;
        throw new ApiError(409, { kind: 'Status', reason: 'Conflict', code: 409 }, 'conflict');
      }
      world.ns = ns;
      return ns;
    },
    async finalize(ns) {
      world.calls.push(`finalize:${JSON.stringify((ns['spec'] as { finalizers: string[] }).finalizers)}`);
      world.ns = undefined;
      return ns;
    },
    async discover() {
      return { resources, failures: new Map() };
    },
    async deleteCollection(r) {
      world.calls.push(`deletecollection:${key(r)}`);
      world.items.set(key(r), (world.items.get(key(r)) ?? []).filter((o) => (o.metadata?.finalizers ?? []).length > 0));
      return 'ok';
    },
    async list(r) {
      return world.items.get(key(r)) ?? [];
    },
    async deleteItem(r, _ns, name) {
      world.calls.push(`delete:${key(r)}/${name}`);
      world.items.set(key(r), (world.items.get(key(r)) ?? []).filter((o) => o.metadata?.name !== name));
    },
    now: () => now,
  };
}

const terminating = (finalizers = ['kubernetes'], phase = 'Active'): KubeObject => ({
  metadata: { name: 'ns', uid: 'u1', deletionTimestamp: '2024-12-11T12:00:00Z' },
  spec: { finalizers },
  status: { phase },
});

describe('namespace deleter steps', () => {
  it('does nothing for a namespace that is gone or not being deleted', async () => {
    for (const ns of [undefined, { metadata: { name: 'ns' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } }]) {
      const world: World = { ns, items: new Map(), calls: [] };
      expect(await syncNamespace('ns', fake(world, [configmaps]), () => undefined)).toEqual({ requeueAfterMs: undefined, stoppedAt: 'load' });
      expect(world.calls).toEqual([]);
    }
  });

  it('marks Terminating, deletes by collection or one by one, skips what cannot be deleted, then finalizes', async () => {
    const world: World = {
      ns: terminating(['kubernetes', 'example.com/keep']),
      items: new Map([['configmaps', [{ metadata: { name: 'a' } }]], ['widgets', [{ metadata: { name: 'w1' } }, { metadata: { name: 'w2' } }]]]),
      calls: [],
    };
    const result = await syncNamespace('ns', fake(world, [configmaps, bindings, noCollection]), () => undefined);
    expect(result).toEqual({});
    expect(world.calls).toEqual([
      'status:"Terminating"',
      'deletecollection:configmaps',
      'delete:widgets/w1',
      'delete:widgets/w2',
      'status:"Terminating"',
      'finalize:["example.com/keep"]',
    ]);
  });

  it('a finalized namespace (no spec.finalizers) is left to the API', async () => {
    const world: World = { ns: terminating([], 'Terminating'), items: new Map(), calls: [] };
    expect((await syncNamespace('ns', fake(world, [configmaps]), () => undefined)).stoppedAt).toBe('skip-finalized');
    expect(world.calls).toEqual([]);
  });

  it('content held by finalizers: conditions written, checked again after 15 s, not finalized', async () => {
    const world: World = { ns: terminating(['kubernetes'], 'Terminating'), items: new Map([['configmaps', [{ metadata: { name: 'held', finalizers: ['x.io/y'] } }]]]), calls: [] };
    const result = await syncNamespace('ns', fake(world, [configmaps]), () => undefined);
    expect(result).toEqual({ requeueAfterMs: 15_000, stoppedAt: 'delete-content' });
    expect(world.calls).toEqual(['deletecollection:configmaps', 'status:"Terminating"']);
  });

  it('running pods hold the namespace for their grace period from the deletion', async () => {
    const pod = { metadata: { name: 'p' }, spec: { terminationGracePeriodSeconds: 30 }, status: { phase: 'Running' } };
    const stuckPods = (now: number) => {
      const world: World = { ns: terminating(['kubernetes'], 'Terminating'), items: new Map([['pods', [pod]]]), calls: [] };
      const deps = fake(world, [pods], now);
      // Pods in this fake world do not go away when deleted (a kubelet would take its time).
      deps.deleteCollection = async () => 'ok';
      return { world, deps };
    };
    const early = stuckPods(T0 + 10_000);
    expect(await syncNamespace('ns', early.deps, () => undefined)).toEqual({ requeueAfterMs: 30_000, stoppedAt: 'delete-content' });
    // Past the grace period, pods still there without finalizers are an error (retried with backoff).
    const late = stuckPods(T0 + 31_000);
    await expect(syncNamespace('ns', late.deps, () => undefined)).rejects.toThrow('unexpected items still remain in namespace: ns for gvr: /v1, Resource=pods');
  });

  it('retries the status write on conflicts', async () => {
    const world: World = { ns: terminating(), items: new Map(), calls: [], conflictsOnStatus: 2 };
    expect(await syncNamespace('ns', fake(world, [configmaps]), () => undefined)).toEqual({});
    expect(world.calls.filter((c) => c.startsWith('status'))).toHaveLength(4);
    expect(world.calls.at(-1)).toBe('finalize:[]');
  });
});
