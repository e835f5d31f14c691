// The conformance suite against the engine over IndexedDB (fake-indexeddb),
// plus what only IndexedDB can show: a failing transaction keeps nothing, and
// records that cannot be decoded are skipped but stay removable.

import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { wrap, type IDBPDatabase } from 'idb';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../core/clock';
import { openStore } from '../core/storage/mvcc-store';
import { PersistenceError, type PersistedChange } from '../core/storage/types';
import { runStoreConformance } from './conformance.suite';
import { withFaults } from './faulty-persistence';
import { createIndexedDbPersistence } from './indexeddb-persistence';

const factory = new IDBFactory();
let n = 0;
let lastName = '';
/** The test's own connection to a database, behind the store's back. */
const rawOpen = (name: string) => wrap(factory.open(name)) as Promise<IDBPDatabase>;
const persistence = (dbName: string) => createIndexedDbPersistence({ dbName, indexedDB: factory });

runStoreConformance('indexeddb', {
  open: (clock) => openStore({ clock, persistence: persistence((lastName = `conformance-${++n}`)) }),
  reopen: (clock) => openStore({ clock, persistence: persistence(lastName) }),
  openWithFaults: (clock, faults) => openStore({ clock, persistence: withFaults(persistence((lastName = `conformance-${++n}`)), faults) }),
});

const put = (revision: number, key: string, value: string): PersistedChange => ({
  revision,
  type: 'put',
  key,
  value,
  createRevision: revision,
  version: 1,
  time: 0,
});

describe('IndexedDB persistence', () => {
  it('a transaction that fails half-way keeps nothing and rejects with PersistenceError (rule: one commit is atomic)', async () => {
    const p = persistence('atomic');
    await p.open(100);
    await p.commit([put(101, '/a', 'a')], { revision: 101, compactedRevision: 100 });
    // The second change has a key IndexedDB refuses (NaN), after the first was issued.
    const bad = [put(102, '/b', 'b'), { ...put(103, '/c', 'c'), revision: Number.NaN }];
    await expect(p.commit(bad, { revision: 103, compactedRevision: 100 })).rejects.toBeInstanceOf(PersistenceError);
    expect(await p.getCurrent('/b')).toBeUndefined();
    expect((await p.loadCurrent()).map((kv) => kv.key)).toEqual(['/a']);
    expect((await p.loadHistory()).map((c) => c.revision)).toEqual([101]);
    await p.close();
    const again = persistence('atomic');
    expect(await again.open(999)).toEqual({ revision: 101, compactedRevision: 100 });
    await again.close();
  });

  it('records that cannot be decoded are skipped, can be re-created over, and can be dropped', async () => {
    const clock = manualClock();
    const store = await openStore({ clock, persistence: persistence('corrupt') });
    await store.create('/registry/pods/ns/good', () => 'good');
    await store.close();
    // Damage two records behind the store's back.
    const raw = await rawOpen('corrupt');
    await raw.put('kv', { value: 42 }, '/registry/pods/ns/bad');
    await raw.put('kv', 'not even an object', '/registry/pods/ns/worse');
    raw.close();

    const p = persistence('corrupt');
    const again = await openStore({ clock, persistence: p });
    expect(await again.get('/registry/pods/ns/bad')).toBeUndefined(); // before the load: read directly
    await again.ready();
    expect((await again.range({ prefix: '/registry/pods/' })).kvs.map((kv) => kv.key)).toEqual(['/registry/pods/ns/good']);
    expect(p.undecodableKeys()).toEqual(['/registry/pods/ns/bad', '/registry/pods/ns/worse']);
    // Creating the key again overwrites the damaged record.
    await again.create('/registry/pods/ns/bad', () => 'fixed');
    expect(await p.dropUndecodable()).toEqual(['/registry/pods/ns/worse']);
    await again.close();

    const check = await rawOpen('corrupt');
    expect(await check.getAllKeys('kv')).toEqual(['/registry/pods/ns/bad', '/registry/pods/ns/good']);
    check.close();
  });

  it('answers get before the full load has finished (cold start)', async () => {
    const clock = manualClock();
    const first = await openStore({ clock, persistence: persistence('cold') });
    await Promise.all(Array.from({ length: 200 }, (_, i) => first.create(`/k/${i}`, () => `v${i}`)));
    await first.close();
    const { PersistenceFaults } = await import('./faulty-persistence');
    const faults = new PersistenceFaults();
    const release = faults.holdLoad();
    const store = await openStore({ clock, persistence: withFaults(persistence('cold'), faults) });
    let listed = false;
    const list = store.range({ prefix: '/k/' }).then((r) => ((listed = true), r));
    expect((await store.get('/k/7'))?.value).toBe('v7');
    expect(listed).toBe(false);
    release();
    expect((await list).kvs).toHaveLength(200);
    await store.close();
  });
});
