// Export and import of a cluster below the API (the Settings view's "export
// to a file" and "import"): every key comes back with its revisions, so
// objects keep their resourceVersions; the revision counter never goes back,
// and a watch from before the import is compacted away (410 Gone).

import { describe, expect, it } from 'vitest';
import { manualClock } from '../../core/clock';
import { createMemoryPersistence } from '../../core/storage/memory-persistence';
import { openStore } from '../../core/storage/mvcc-store';
import { CompactedError } from '../../core/storage/types';
import { PersistenceFaults, withFaults } from '../../storage/faulty-persistence';
import { archiveFile, archiveProblem, exportCluster, importCluster, primedPersistence, readArchiveFile, wipeCluster } from './cluster-archive';
import { secureConfiguration } from './cluster-config';

const extra = (now: number) => ({ configuration: secureConfiguration(), clockOffsetMs: 0, now });

describe('cluster archive', () => {
  it('round-trips every key with its revisions into another store', async () => {
    const clock = manualClock();
    const source = createMemoryPersistence();
    const store = await openStore({ persistence: source, clock });
    await store.create('/registry/configmaps/default/a', (rv) => `{"rv":"${rv}"}`);
    const b = await store.create('/registry/configmaps/default/b', () => 'b1');
    await store.update(b.key, b.modRevision, () => 'b2');
    await store.close();

    const archive = await exportCluster(source, extra(clock.now()));
    expect(archiveProblem(archive)).toBeUndefined();
    expect(archive.items.map((i) => [i.key, i.version])).toEqual([
      ['/registry/configmaps/default/a', 1],
      ['/registry/configmaps/default/b', 2],
    ]);

    const target = createMemoryPersistence();
    await importCluster(target, JSON.parse(JSON.stringify(archive)), clock.now());
    const restored = await openStore({ persistence: target, clock });
    await restored.ready();
    const a = await restored.get('/registry/configmaps/default/a');
    expect(a?.value).toBe(`{"rv":"${a?.modRevision}"}`);
    expect(a?.modRevision).toBe(archive.items[0]!.modRevision);
    expect((await restored.get('/registry/configmaps/default/b'))?.value).toBe('b2');
    expect(restored.currentRevision()).toBe(archive.revision);
    // The next write continues above the archive's revision.
    const c = await restored.create('/registry/configmaps/default/c', () => 'c');
    expect(c.modRevision).toBe(archive.revision + 1);
  });

  it('goes through a file and back unchanged; what is not JSON or not an archive is refused with the reason', async () => {
    const clock = manualClock();
    const source = createMemoryPersistence();
    const store = await openStore({ persistence: source, clock });
    await store.create('/registry/configmaps/default/a', () => '{"quoted":"\\"x\\"","accents":"é"}');
    await store.close();
    const archive = await exportCluster(source, extra(clock.now()));
    const file = archiveFile(archive);
    expect(file.type).toBe('application/json');
    expect(await readArchiveFile(file)).toEqual(archive);
    await expect(readArchiveFile(new Blob(['{"kind":'], { type: 'application/json' }))).rejects.toThrow(/^the file is not JSON \(/);
    await expect(readArchiveFile(new Blob(['[]']))).rejects.toThrow('not a KubeTab cluster archive (apiVersion kubetab.dev/v1, kind ClusterArchive)');
    await expect(readArchiveFile('{}')).rejects.toThrow('the archive must be sent as a file (a Blob)');
  });

  it('the store started after an import loads what was written without reading it back, and equals one that reads it back', async () => {
    const clock = manualClock();
    const source = createMemoryPersistence();
    const s1 = await openStore({ persistence: source, clock });
    for (const name of ['c', 'a', 'b']) await s1.create(`/registry/configmaps/default/${name}`, (rv) => `{"name":"${name}","rv":"${rv}"}`);
    const b = await s1.get('/registry/configmaps/default/b');
    await s1.update(b!.key, b!.modRevision, () => 'b2');
    await s1.close();
    const archive = await exportCluster(source, extra(clock.now()));

    const target = createMemoryPersistence();
    const written = await importCluster(target, archive, clock.now());
    let reads = 0;
    const counting = { ...target, loadCurrent: () => (reads++, target.loadCurrent()), loadHistory: () => (reads++, target.loadHistory()) };
    const primed = await openStore({ persistence: primedPersistence(counting, written), clock });
    await primed.ready();
    expect(reads).toBe(0);
    const fromPrimed = await primed.range({ prefix: '/registry/' });
    await primed.close();
    const readBack = await openStore({ persistence: target, clock });
    await readBack.ready();
    const fromStorage = await readBack.range({ prefix: '/registry/' });
    expect(fromPrimed).toEqual(fromStorage);
    expect(fromPrimed.kvs.map((kv) => kv.key)).toEqual(['/registry/configmaps/default/a', '/registry/configmaps/default/b', '/registry/configmaps/default/c']);
    expect(primed.currentRevision()).toBe(readBack.currentRevision());
    await readBack.close();
    // Only the first load is primed: a later one reads the storage.
    const again = primedPersistence(counting, written);
    await again.loadCurrent();
    await again.loadCurrent();
    expect(reads).toBe(1);
  });

  it('never moves the revision back: importing an older archive compacts at the newer revision (watches from before get 410)', async () => {
    const clock = manualClock();
    const old = createMemoryPersistence();
    const s1 = await openStore({ persistence: old, clock });
    await s1.create('/registry/x', () => 'old');
    await s1.close();
    const archive = await exportCluster(old, extra(clock.now()));

    clock.advance(60_000);
    const busy = createMemoryPersistence();
    const s2 = await openStore({ persistence: busy, clock });
    for (let i = 0; i < 3; i++) await s2.create(`/registry/y${i}`, () => 'new');
    const newest = s2.currentRevision();
    await s2.close();

    await importCluster(busy, archive, clock.now());
    const s3 = await openStore({ persistence: busy, clock });
    await s3.ready();
    expect(s3.currentRevision()).toBe(newest);
    expect(await s3.get('/registry/y0')).toBeUndefined();
    expect((await s3.get('/registry/x'))?.value).toBe('old');
    expect(() => s3.watch({ prefix: '/registry/', afterRevision: newest - 1 }, { onEvent() {} })).toThrow(CompactedError);
  });

  it('wipes every key and continues above the last revision', async () => {
    const clock = manualClock();
    const p = createMemoryPersistence();
    const s = await openStore({ persistence: p, clock });
    await s.create('/registry/x', () => 'x');
    const last = s.currentRevision();
    await s.close();
    await wipeCluster(p, clock.now());
    const fresh = await openStore({ persistence: p, clock });
    await fresh.ready();
    expect(await fresh.get('/registry/x')).toBeUndefined();
    expect((await fresh.create('/registry/z', () => 'z')).modRevision).toBe(last + 1);
  });

  it('refuses what is not an archive, with the reason', () => {
    expect(archiveProblem({ kind: 'List' })).toBe('not a KubeTab cluster archive (apiVersion kubetab.dev/v1, kind ClusterArchive)');
    const base = { apiVersion: 'kubetab.dev/v1', kind: 'ClusterArchive', revision: 10, clockOffsetMs: 0 };
    expect(archiveProblem({ ...base, items: [{ key: 'a', value: 'v', createRevision: 5, modRevision: 11, version: 1 }] })).toBe('items[0]: revisions out of order');
    expect(
      archiveProblem({
        ...base,
        items: [
          { key: 'a', value: 'v', createRevision: 5, modRevision: 5, version: 1 },
          { key: 'a', value: 'v', createRevision: 6, modRevision: 6, version: 1 },
        ],
      }),
    ).toBe('items[1]: duplicate key a');
  });

  it('refuses two keys with one modRevision, in file order or not (rule: each revision belongs to one write)', () => {
    const base = { apiVersion: 'kubetab.dev/v1', kind: 'ClusterArchive', revision: 10, clockOffsetMs: 0 };
    const item = (key: string, modRevision: number) => ({ key, value: 'v', createRevision: modRevision, modRevision, version: 1 });
    expect(archiveProblem({ ...base, items: [item('a', 5), item('b', 5)] })).toBe('items[1]: two keys with modRevision 5');
    expect(archiveProblem({ ...base, items: [item('a', 5), item('b', 7), item('c', 5)] })).toBe('items[2]: two keys with modRevision 5');
    expect(archiveProblem({ ...base, items: [item('a', 7), item('b', 5), item('c', 7)] })).toBe('items[2]: two keys with modRevision 7');
    // Not in revision order, but every revision once: an archive.
    expect(archiveProblem({ ...base, items: [item('a', 7), item('b', 5), item('c', 6)] })).toBeUndefined();
  });

  it('an import that fails (quota) leaves the cluster as it was, not empty (rule: one transaction, docs/decisions/0172)', async () => {
    const clock = manualClock();
    const source = createMemoryPersistence();
    const s1 = await openStore({ persistence: source, clock });
    await s1.create('/registry/configmaps/default/from-archive', () => 'archived');
    await s1.close();
    const archive = await exportCluster(source, extra(clock.now()));

    const target = createMemoryPersistence();
    const s2 = await openStore({ persistence: target, clock });
    await s2.create('/registry/configmaps/default/kept', () => 'kept');
    await s2.close();
    const faults = new PersistenceFaults();
    faults.failNextCommits(1);
    await expect(importCluster(withFaults(target, faults), archive, clock.now())).rejects.toThrow('QuotaExceededError');
    const after = await openStore({ persistence: target, clock });
    await after.ready();
    expect((await after.range({ prefix: '/registry/' })).kvs.map((kv) => kv.value)).toEqual(['kept']);
    await after.close();

    await importCluster(target, archive, clock.now());
    const imported = await openStore({ persistence: target, clock });
    await imported.ready();
    expect((await imported.range({ prefix: '/registry/' })).kvs.map((kv) => kv.value)).toEqual(['archived']);
    await imported.close();
  });
});
