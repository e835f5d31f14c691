// The conformance suite against the engine over IndexedDB (fake-indexeddb),
// plus what only IndexedDB can show: a failing transaction keeps nothing, and
// records that cannot be decoded are skipped but stay removable.

import 'fake-indexeddb/auto';
import { IDBFactory, IDBObjectStore as FakeObjectStore } from 'fake-indexeddb';
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
  it('connect() opens the database ahead of open(), which then reads the stored state through that connection', async () => {
    const name = `connect-${++n}`;
    const first = persistence(name);
    await first.open(1000);
    await first.commit([put(1001, '/k', 'v')], { revision: 1001, compactedRevision: 1000 });
    await first.close();

    // Counts the connections asked of IndexedDB: open() must not make a second one.
    let opens = 0;
    const counting = Object.assign(Object.create(factory) as IDBFactory, {
      open: (...args: Parameters<IDBFactory['open']>) => {
        opens++;
        return factory.open(...args);
      },
    });
    const early = createIndexedDbPersistence({ dbName: name, indexedDB: counting });
    await early.connect!();
    expect(opens).toBe(1);
    expect(await early.open(5000)).toEqual({ revision: 1001, compactedRevision: 1000 });
    expect((await early.getCurrent('/k'))?.value).toBe('v');
    expect(opens).toBe(1);
    await early.close();
  });

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

  it('replace swaps every record for the given ones in one transaction, and a failure keeps the old contents (rule: an import is atomic, docs/decisions/0172)', async () => {
    const p = persistence('replace');
    await p.open(100);
    await p.commit([put(101, '/old', 'old'), { ...put(102, '/gone', 'g') }], { revision: 102, compactedRevision: 100 });
    // A key IndexedDB refuses (NaN revision is fine for kv, an invalid kv key is not) after the clears were issued.
    const bad = [put(200, '/new', 'new'), { ...put(201, '/x', 'x'), key: undefined as unknown as string }];
    await expect(p.replace!(bad, { revision: 300, compactedRevision: 300 })).rejects.toBeInstanceOf(PersistenceError);
    expect((await p.loadCurrent()).map((kv) => kv.key).sort()).toEqual(['/gone', '/old']);
    expect((await p.loadHistory()).map((c) => c.revision)).toEqual([101, 102]);

    await p.replace!([put(200, '/new', 'new'), put(201, '/x', 'x')], { revision: 300, compactedRevision: 300 });
    expect((await p.loadCurrent()).map((kv) => [kv.key, kv.modRevision])).toEqual([
      ['/new', 200],
      ['/x', 201],
    ]);
    // Changes at or below the compacted revision leave no history.
    expect(await p.loadHistory()).toEqual([]);
    await p.close();
    const again = persistence('replace');
    expect(await again.open(999)).toEqual({ revision: 300, compactedRevision: 300 });
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

  // Issue 16 item 15 (IndexedDB): damage is refused with a PersistenceError, never loaded short with a lower revision.
  describe('damage to the meta and change records', () => {
    /** A database with three writes (revisions 1001-1003), then `damage` done to it behind the store's back. */
    async function damagedDatabase(name: string, damage: (raw: IDBPDatabase) => Promise<unknown>): Promise<void> {
      const store = await openStore({ clock: manualClock(), persistence: persistence(name) });
      await store.create('/r/a', () => 'a');
      await store.create('/r/b', () => 'b');
      await store.create('/r/c', () => 'c');
      await store.close();
      const raw = await rawOpen(name);
      await damage(raw);
      raw.close();
    }
    const reopen = async (name: string) => {
      const store = await openStore({ clock: manualClock(), persistence: persistence(name) });
      try {
        await store.ready();
      } finally {
        await store.close();
      }
    };

    it('a damaged meta record refuses the start, naming the database', async () => {
      await damagedDatabase('damaged-meta', (raw) => raw.put('meta', { revision: 'NaN' }, 'meta'));
      await expect(reopen('damaged-meta')).rejects.toThrow(new PersistenceError('IndexedDB database damaged-meta: the meta record is damaged; restore the cluster from an exported archive, or reset its storage to start an empty cluster'));
    });

    it('a missing meta record beside other records refuses the start instead of starting over at the initial revision', async () => {
      await damagedDatabase('missing-meta', (raw) => raw.delete('meta', 'meta'));
      await expect(reopen('missing-meta')).rejects.toThrow(/^IndexedDB database missing-meta: the meta record is missing; /);
    });

    it('a damaged change record refuses the load instead of dropping history', async () => {
      let revision = 0;
      await damagedDatabase('damaged-change', async (raw) => {
        revision = (await raw.getAllKeys('changes'))[1] as number;
        await raw.put('changes', { revision, type: 'put' }, revision);
      });
      await expect(reopen('damaged-change')).rejects.toThrow(`IndexedDB database damaged-change: the change record of revision ${revision} is damaged`);
    });

    it('lost newest change records (the log cut short) refuse the load: the revision never goes back', async () => {
      let newest = 0;
      await damagedDatabase('cut-changes', async (raw) => {
        const keys = (await raw.getAllKeys('changes')) as number[];
        newest = keys[keys.length - 1]!;
        // The meta record still says an older revision: commits with history leave it alone.
        await raw.delete('changes', IDBKeyRange.lowerBound(keys[1]!));
      });
      const p = persistence('cut-changes');
      const opened = await p.open(0);
      expect(opened.revision).toBeLessThan(newest);
      await expect(p.loadCurrent()).rejects.toThrow(/^IndexedDB database cut-changes: the current record of \/r\/[bc] was written at revision \d+, after the newest change record \(\d+\): change records are missing; /);
      await p.close();
      await expect(reopen('cut-changes')).rejects.toBeInstanceOf(PersistenceError);
    });
  });

  it('answers get and a range at the current revision before the full load has finished (cold start, decision 0131)', async () => {
    const clock = manualClock();
    const first = await openStore({ clock, persistence: persistence('cold') });
    await Promise.all(Array.from({ length: 200 }, (_, i) => first.create(`/k/${i}`, () => `v${i}`)));
    await first.close();
    const { PersistenceFaults } = await import('./faulty-persistence');
    const faults = new PersistenceFaults();
    const release = faults.holdLoad();
    const store = await openStore({ clock, persistence: withFaults(persistence('cold'), faults) });
    let oldListed = false;
    const old = store.range({ prefix: '/k/', revision: store.currentRevision() - 1 }).then((r) => ((oldListed = true), r));
    expect((await store.get('/k/7'))?.value).toBe('v7');
    const list = await store.range({ prefix: '/k/' });
    expect(list.kvs.map((kv) => kv.value).sort()).toEqual(Array.from({ length: 200 }, (_, i) => `v${i}`).sort());
    expect(list.revision).toBe(store.currentRevision());
    const page = await store.range({ prefix: '/k/1', limit: 5 });
    expect([page.kvs.map((kv) => kv.key), page.more, page.remaining]).toEqual([['/k/1', '/k/10', '/k/100', '/k/101', '/k/102'], true, 106]);
    // A range at an earlier revision needs the history: it waits for the load.
    expect(oldListed).toBe(false);
    release();
    expect((await old).kvs).toHaveLength(199);
    await store.close();
  });

  it('a put is written once: its change record leaves the value out, and a restart puts it back in history, watch and old reads (decision 0130)', async () => {
    const clock = manualClock();
    const store = await openStore({ clock, persistence: persistence('once') });
    const a = await store.create('/r/a', () => 'a1');
    const a2 = await store.update('/r/a', a.modRevision, () => 'a2');
    const b = await store.create('/r/b', () => 'b1');
    await store.delete('/r/b', b.modRevision);
    const a3 = await store.update('/r/a', a2.modRevision, () => 'a3');
    await store.close();

    const raw = await rawOpen('once');
    const records = (await raw.getAll('changes')) as Record<string, unknown>[];
    raw.close();
    expect(records.map((r) => [r.type, 'value' in r])).toEqual([
      ['put', false],
      ['put', false],
      ['put', false],
      ['delete', false],
      ['put', false],
    ]);

    const again = await openStore({ clock, persistence: persistence('once') });
    await again.ready();
    expect((await again.get('/r/a', a.modRevision))?.value).toBe('a1');
    expect((await again.get('/r/a', a2.modRevision))?.value).toBe('a2');
    expect((await again.get('/r/b', b.modRevision))?.value).toBe('b1');
    const seen: [string, string, string, string | undefined][] = [];
    again.watch({ prefix: '/r/', afterRevision: a.modRevision - 1 }, { onEvent: (e) => seen.push([e.type, e.kv.key, e.kv.value, e.prevKv?.value]) });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen).toEqual([
      ['put', '/r/a', 'a1', undefined],
      ['put', '/r/a', 'a2', 'a1'],
      ['put', '/r/b', 'b1', undefined],
      ['delete', '/r/b', 'b1', 'b1'],
      ['put', '/r/a', 'a3', 'a2'],
    ]);
    expect(again.currentRevision()).toBe(a3.modRevision);
    await again.close();
  });

  it('history written before decision 0130 (put changes with their value) still loads', async () => {
    const clock = manualClock();
    const p = persistence('old-layout');
    await p.open(100);
    await p.close();
    const raw = await rawOpen('old-layout');
    const time = clock.now();
    await raw.put('changes', { ...put(101, '/a', 'a1'), time }, 101);
    await raw.put('changes', { ...put(102, '/a', 'a2'), time, createRevision: 101, version: 2, prev: { key: '/a', value: 'a1', createRevision: 101, modRevision: 101, version: 1 } }, 102);
    await raw.put('kv', { value: 'a2', createRevision: 101, modRevision: 102, version: 2 }, '/a');
    await raw.put('meta', { revision: 102, compactedRevision: 100 }, 'meta');
    raw.close();
    const store = await openStore({ clock, persistence: persistence('old-layout') });
    await store.ready();
    expect((await store.get('/a', 101))?.value).toBe('a1');
    expect((await store.get('/a'))?.value).toBe('a2');
    await store.close();
  });

  it('a put whose value survives nowhere (its current record is damaged) leaves history; the key reads as absent', async () => {
    const clock = manualClock();
    const store = await openStore({ clock, persistence: persistence('lost-value') });
    const a = await store.create('/r/a', () => 'a1');
    const b = await store.create('/r/b', () => 'b1');
    await store.close();
    const raw = await rawOpen('lost-value');
    await raw.put('kv', { value: 42 }, '/r/a');
    raw.close();
    const again = await openStore({ clock, persistence: persistence('lost-value') });
    await again.ready();
    expect(await again.get('/r/a')).toBeUndefined();
    expect((await again.get('/r/b', b.modRevision))?.value).toBe('b1');
    const seen: string[] = [];
    again.watch({ prefix: '/r/', afterRevision: a.modRevision - 1 }, { onEvent: (e) => seen.push(`${e.type} ${e.kv.key} ${e.kv.value}`) });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen).toEqual(['put /r/b b1']);
    await again.close();
  });

  it('changes at or below the commit’s compacted revision are not kept as history, but their values are current (an import)', async () => {
    const p = persistence('import');
    await p.open(100);
    await p.commit([put(150, '/a', 'a'), put(160, '/b', 'b')], { revision: 160, compactedRevision: 160 });
    expect((await p.loadCurrent()).map((kv) => [kv.key, kv.value, kv.modRevision])).toEqual([
      ['/a', 'a', 150],
      ['/b', 'b', 160],
    ]);
    expect(await p.loadHistory()).toEqual([]);
    await p.close();
    const raw = await rawOpen('import');
    expect(await raw.count('changes')).toBe(0);
    raw.close();
  });

  it('loads more records than one chunk holds, current values and history alike (decision 0131)', async () => {
    const clock = manualClock();
    const store = await openStore({ clock, persistence: persistence('chunks') });
    const keys = Array.from({ length: 700 }, (_, i) => `/k/${String(i).padStart(4, '0')}`);
    const first = await Promise.all(keys.map((key) => store.create(key, (rev) => `${key}@${rev}`)));
    await Promise.all(first.slice(0, 300).map((kv) => store.update(kv.key, kv.modRevision, (rev) => `${kv.key}@${rev}`)));
    const top = store.currentRevision();
    await store.close();
    const again = await openStore({ clock, persistence: persistence('chunks') });
    await again.ready();
    expect(again.currentRevision()).toBe(top);
    const now = await again.range({ prefix: '/k/' });
    expect(now.kvs.map((kv) => kv.key)).toEqual(keys);
    expect(now.kvs.every((kv) => kv.value === `${kv.key}@${kv.modRevision}`)).toBe(true);
    const before = await again.range({ prefix: '/k/', revision: first[first.length - 1]!.modRevision });
    expect(before.kvs.map((kv) => kv.value)).toEqual(first.map((kv) => kv.value));
    await again.close();
  });

  it('a load reads in bounded requests, so a point read of a cold start waits for one of them, not for the whole database (decision 0131)', async () => {
    const p = persistence('interleave');
    await p.open(100);
    const changes = Array.from({ length: 1000 }, (_, i) => put(101 + i, `/k/${String(i).padStart(5, '0')}`, `value ${i}`));
    await p.commit(changes, { revision: 1100, compactedRevision: 100 });
    // Every getAll a load makes, with the count it asks for (fake-indexeddb's store class is the one in use).
    const asked: (number | undefined)[] = [];
    const original = FakeObjectStore.prototype.getAll;
    FakeObjectStore.prototype.getAll = function (this: IDBObjectStore, query?: unknown, count?: number) {
      asked.push(count);
      return original.call(this, query as IDBKeyRange, count);
    };
    try {
      const kvs = await p.loadCurrent();
      expect(kvs).toHaveLength(1000);
      expect(kvs.map((kv) => kv.value)).toEqual(changes.map((c) => c.value));
    } finally {
      FakeObjectStore.prototype.getAll = original;
    }
    expect(asked.length).toBeGreaterThanOrEqual(4);
    expect(asked.every((count) => count !== undefined && count > 0 && count <= 256)).toBe(true);
    await p.close();
  });

  it('a commit is one put per change plus the kv record: the revision is read back from the newest change (decision 0130)', async () => {
    const clock = manualClock();
    const store = await openStore({ clock, persistence: persistence('no-meta') });
    const start = store.currentRevision();
    const a = await store.create('/a', () => 'a');
    const a2 = await store.update('/a', a.modRevision, () => 'a2');
    await store.delete('/a', a2.modRevision);
    const top = store.currentRevision();
    await store.close();
    const raw = await rawOpen('no-meta');
    // The meta record still says what open() wrote; the changes say the rest.
    expect(await raw.get('meta', 'meta')).toEqual({ revision: start, compactedRevision: start });
    expect(await raw.getAllKeys('changes')).toEqual([a.modRevision, a2.modRevision, top]);
    raw.close();
    const again = await openStore({ clock, persistence: persistence('no-meta') });
    expect(again.currentRevision()).toBe(top);
    const b = await again.create('/b', () => 'b');
    expect(b.modRevision).toBe(top + 1);
    // A compaction records the revision too: after it, the change holding the newest revision may go.
    await again.compact(b.modRevision);
    await again.close();
    const third = await openStore({ clock, persistence: persistence('no-meta') });
    expect(third.currentRevision()).toBe(b.modRevision);
    expect(third.compactedRevision()).toBe(b.modRevision);
    await third.close();
  });

  it('a load asks for no new chunk while direct reads are under way: they wait for the chunk in flight at most (decision 0131)', async () => {
    const p = persistence('yield');
    await p.open(100);
    // 1,000 keys under /a/ (the direct read: a range of several chunks) and 1,000 under /b/.
    const keys = [...Array.from({ length: 1000 }, (_, i) => `/a/${String(i).padStart(5, '0')}`), ...Array.from({ length: 1000 }, (_, i) => `/b/${String(i).padStart(5, '0')}`)];
    await p.commit(
      keys.map((key, i) => put(101 + i, key, `value ${i}`)),
      { revision: 2100, compactedRevision: 100 },
    );
    // Which read each getAll serves: the range's queries are bounded above, the load's are not.
    const log: string[] = [];
    const original = FakeObjectStore.prototype.getAll;
    FakeObjectStore.prototype.getAll = function (this: IDBObjectStore, query?: unknown, count?: number) {
      log.push(query instanceof IDBKeyRange && query.upper !== undefined ? 'range' : 'load');
      return original.call(this, query as IDBKeyRange, count);
    };
    try {
      const load = p.loadCurrent();
      const range = p.rangeCurrent!('/a/');
      expect((await range).length).toBe(1000);
      expect((await load).length).toBe(2000);
    } finally {
      FakeObjectStore.prototype.getAll = original;
    }
    const first = log.indexOf('range');
    const last = log.lastIndexOf('range');
    expect(last - first).toBeGreaterThan(4);
    expect(log.slice(first, last).filter((entry) => entry === 'load').length).toBeLessThanOrEqual(1);
    await p.close();
  });
});
