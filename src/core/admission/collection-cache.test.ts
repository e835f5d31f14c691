// The admission reader's watch-kept collections (decision 0320) must answer
// exactly what a read of the store answers, at every moment: right after a
// write returns (read-your-writes), while the collection is still starting,
// before the store has loaded from its persistence, and after a wipe.

import { describe, expect, it } from 'vitest';
import type { ServerContext } from '../api/context';
import { DecodeCache } from '../api/object-codec';
import { ResourceRegistry } from '../api/registry';
import { manualClock } from '../clock';
import { builtinResources } from '../kinds/builtin';
import { openStore } from '../storage/mvcc-store';
import { createMemoryPersistence } from '../storage/memory-persistence';
import type { MvccStore, Persistence } from '../storage/types';
import { admissionCollectionsOf } from './collection-cache';
import { storeReader } from './reader';

const QUOTAS = { group: '', resource: 'resourcequotas' };
const POLICIES = { group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicies' };
const NAMESPACES = { group: '', resource: 'namespaces' };

function contextFor(store: MvccStore): ServerContext {
  return {
    store,
    clock: manualClock(),
    registry: new ResourceRegistry(builtinResources(), undefined),
    decodeCache: new DecodeCache(),
    flags: {},
    featureGates: undefined as never,
    host: 'node',
    maxWatchSeconds: 60,
    retentionMs: 60_000,
    services: {},
    startedAt: 0,
  };
}

const quotaKey = (ns: string, name: string) => `/registry/core/resourcequotas/${ns}/${name}`;
const policyKey = (name: string) => `/registry/admissionregistration.k8s.io/validatingadmissionpolicies/${name}`;
const quota = (ns: string, name: string, n: number) => JSON.stringify({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: ns }, spec: { hard: { pods: String(n) } } });
const policy = (name: string, n: number) =>
  JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec: { failurePolicy: n % 2 ? 'Fail' : 'Ignore' } });

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** What a read of the store itself answers (the reader's behaviour before the cache). */
async function truth(store: MvccStore, prefix: string): Promise<unknown[]> {
  return (await store.range({ prefix })).kvs.map((kv) => JSON.parse(kv.value));
}

async function randomWritesThenReads(store: MvccStore, seed: number, steps: number, wipeAt?: number): Promise<void> {
  const ctx = contextFor(store);
  const next = random(seed);
  for (let step = 0; step < steps; step++) {
    // A fresh reader per request, as each AdmissionRun builds one.
    const reader = storeReader({ ...ctx });
    if (step === wipeAt) await store.wipe();
    const ns = next() < 0.5 ? 'a' : 'b';
    const name = `q${Math.floor(next() * 4)}`;
    const pname = `p${Math.floor(next() * 3)}`;
    const op = next();
    const key = next() < 0.5 ? quotaKey(ns, name) : policyKey(pname);
    const value = key.includes('resourcequotas') ? quota(ns, name, step) : policy(pname, step);
    const current = await store.get(key);
    if (op < 0.45) {
      if (current) await store.update(key, current.modRevision, () => value);
      else await store.create(key, () => value);
    } else if (op < 0.7) {
      if (current) await store.delete(key, current.modRevision);
    }
    // Otherwise no write: reads only (the collection may be starting, or live).
    // Read immediately after the write returned, with no pause in between.
    expect(await reader.list(QUOTAS, ns), `step ${step}`).toEqual(await truth(store, `/registry/core/resourcequotas/${ns}/`));
    expect(await reader.list(QUOTAS, ''), `step ${step}`).toEqual(await truth(store, '/registry/core/resourcequotas/'));
    expect(await reader.list(POLICIES, ''), `step ${step}`).toEqual(await truth(store, '/registry/admissionregistration.k8s.io/validatingadmissionpolicies/'));
    const got = await reader.get(QUOTAS, ns, name);
    const stored = await store.get(quotaKey(ns, name));
    expect(got, `step ${step}`).toEqual(stored ? JSON.parse(stored.value) : undefined);
    // Every few steps let the microtasks run, so that reads hit the live collections too.
    if (next() < 0.3) await new Promise<void>((resolve) => setTimeout(resolve, 0));
  }
  // By now the collections are live: the reads above were served from memory as well.
  expect(admissionCollectionsOf(ctx).collection(QUOTAS.group, QUOTAS.resource)).toBeDefined();
  admissionCollectionsOf(ctx).stop();
}

describe('admission collection cache', () => {
  it('answers what the store answers right after every write (in-memory store)', async () => {
    for (const seed of [1, 2, 3]) await randomWritesThenReads(await openStore({ clock: manualClock() }), seed, 150);
  });

  it('answers what the store answers while the store is still loading its persistence, and across a wipe', async () => {
    for (const seed of [4, 5]) {
      const persistence: Persistence = createMemoryPersistence();
      const first = await openStore({ clock: manualClock(), persistence });
      await first.create(quotaKey('a', 'q0'), () => quota('a', 'q0', 0));
      await first.create(policyKey('p0'), () => policy('p0', 0));
      await first.close();
      // Reopened: the first reads come before the full load ends.
      await randomWritesThenReads(await openStore({ clock: manualClock(), persistence }), seed, 120, 60);
    }
  });

  it("keeps a write that lands while the collection starts (before its watch's replay), at every microtask offset", async () => {
    for (const persisted of [false, true]) {
      for (let offset = 0; offset < 24; offset++) {
        const store = await openStore({ clock: manualClock(), ...(persisted ? { persistence: createMemoryPersistence() } : {}) });
        const ctx = contextFor(store);
        expect(await storeReader(ctx).list(QUOTAS, 'a')).toEqual([]);
        for (let i = 0; i < offset; i++) await Promise.resolve();
        await store.create(quotaKey('a', 'q0'), () => quota('a', 'q0', offset));
        expect(await storeReader(ctx).list(QUOTAS, 'a'), `offset ${offset}`).toEqual(await truth(store, '/registry/core/resourcequotas/a/'));
        // Once live, from memory: the write must be there whether the range or the replay brought it.
        await new Promise<void>((resolve) => setTimeout(resolve, 0));
        expect(admissionCollectionsOf(ctx).collection(QUOTAS.group, QUOTAS.resource)).toBeDefined();
        expect(await storeReader(ctx).list(QUOTAS, 'a'), `offset ${offset}, live`).toEqual(await truth(store, '/registry/core/resourcequotas/a/'));
        admissionCollectionsOf(ctx).stop();
      }
    }
  });

  it('serves the live collection from memory and follows deletes at once', async () => {
    const store = await openStore({ clock: manualClock() });
    const ctx = contextFor(store);
    const collections = admissionCollectionsOf(ctx);
    // Not live on first use: the caller reads the store, the collection starts.
    expect(collections.collection(NAMESPACES.group, NAMESPACES.resource)).toBeUndefined();
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    const live = collections.collection(NAMESPACES.group, NAMESPACES.resource);
    expect(live).toBeDefined();
    const created = await store.create('/registry/core/namespaces/team', () => JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } }));
    expect(live!.get('', 'team')?.metadata?.name).toBe('team');
    await store.delete('/registry/core/namespaces/team', created.modRevision);
    expect(live!.get('', 'team')).toBeUndefined();
    // Resources outside the cached set are always read from the store.
    expect(collections.collection('', 'configmaps')).toBeUndefined();
    collections.stop();
  });
});
