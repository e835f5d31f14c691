// The conformance suite against the engine alone (no persistence), and
// against the engine over the in-memory Persistence (restart and failure
// scenarios without a disk or a browser).

import { describe, expect, it } from 'vitest';
import { manualClock } from '../core/clock';
import { createMemoryPersistence, type MemoryPersistence } from '../core/storage/memory-persistence';
import { openStore } from '../core/storage/mvcc-store';
import { PersistenceError, type KeyValue, type StoreEvent } from '../core/storage/types';
import { runStoreConformance } from './conformance.suite';
import { PersistenceFaults, withFaults } from './faulty-persistence';

runStoreConformance('memory', {
  open: (clock) => openStore({ clock }),
  openWithFaults: (clock, faults) => openStore({ clock, persistence: withFaults(createMemoryPersistence(), faults) }),
});

let last: MemoryPersistence | undefined;
runStoreConformance('memory persistence', {
  open: (clock) => openStore({ clock, persistence: (last = createMemoryPersistence()) }),
  reopen: (clock) => openStore({ clock, persistence: last! }),
  openWithFaults: (clock, faults) => openStore({ clock, persistence: withFaults((last = createMemoryPersistence()), faults) }),
});

// ---- engine behaviour that is the same for every backend, checked once ----

describe('mvcc engine', () => {
  it('a ValueFn that throws fails only its own write; the others of the group commit without a revision gap', async () => {
    const store = await openStore({ clock: manualClock() });
    const boom = new Error('encode failed');
    const results = await Promise.allSettled([
      store.create('/a', () => 'a'),
      store.create('/b', () => {
        throw boom;
      }),
      store.create('/c', () => 'c'),
    ]);
    expect(results[1]).toEqual({ status: 'rejected', reason: boom });
    const a = (results[0] as PromiseFulfilledResult<KeyValue>).value;
    const c = (results[2] as PromiseFulfilledResult<KeyValue>).value;
    expect(c.modRevision).toBe(a.modRevision + 1);
    expect(await store.get('/b')).toBeUndefined();
  });

  it('a watcher whose onEvent throws is closed alone; the others keep receiving', async () => {
    const store = await openStore({ clock: manualClock() });
    const good: StoreEvent[] = [];
    const closed: Error[] = [];
    store.watch({ prefix: '/', afterRevision: store.currentRevision() }, {
      onEvent() {
        throw new Error('bad watcher');
      },
      onClose: (e) => closed.push(e),
    });
    store.watch({ prefix: '/', afterRevision: store.currentRevision() }, { onEvent: (e) => good.push(e) });
    await store.create('/a', () => 'a');
    await store.create('/b', () => 'b');
    expect(good.map((e) => e.kv.key)).toEqual(['/a', '/b']);
    expect(closed.map((e) => e.message)).toEqual(['bad watcher']);
  });

  it('cold start: get and range at the current revision read the persistence while the load is held; older reads, watch replays and writes wait (decision 0131)', async () => {
    const clock = manualClock();
    const persistence = createMemoryPersistence();
    const first = await openStore({ clock, persistence });
    const a = await first.create('/a', () => 'a');
    const c = await first.create('/c', () => 'c');
    await first.close();
    const faults = new PersistenceFaults();
    const release = faults.holdLoad();
    const store = await openStore({ clock, persistence: withFaults(persistence, faults) });
    const order: string[] = [];
    const events: StoreEvent[] = [];
    store.watch({ prefix: '/', afterRevision: a.modRevision - 1 }, { onEvent: (e) => events.push(e) });
    const old = store.range({ prefix: '/', revision: a.modRevision }).then((r) => (order.push('old range'), r));
    const write = store.create('/b', () => 'b').then(() => order.push('create'));
    expect((await store.get('/a'))?.value).toBe('a');
    order.push('get');
    const now = await store.range({ prefix: '/' });
    order.push('range');
    expect(now.revision).toBe(c.modRevision);
    expect(now.kvs.map((kv) => [kv.key, kv.value])).toEqual([
      ['/a', 'a'],
      ['/c', 'c'],
    ]);
    // Paging and filters behave as after the load.
    const page = await store.range({ prefix: '/', limit: 1 });
    expect([page.kvs.map((kv) => kv.key), page.more, page.remaining]).toEqual([['/a'], true, 1]);
    const rest = await store.range({ prefix: '/', after: '/a' });
    expect(rest.kvs.map((kv) => kv.key)).toEqual(['/c']);
    const filtered = await store.range({ prefix: '/', filter: (kv) => kv.value === 'c' });
    expect(filtered.kvs.map((kv) => kv.key)).toEqual(['/c']);
    expect(events).toEqual([]);
    release();
    await Promise.all([old, write, store.ready()]);
    expect(order).toEqual(['get', 'range', 'old range', 'create']);
    expect((await old).kvs.map((kv) => kv.key)).toEqual(['/a']);
    expect(events.map((e) => e.kv.key)).toEqual(['/a', '/c', '/b']);
  });

  it('cold start: the full load begins after the first direct read\'s reader has had its turn, not in front of it', async () => {
    const clock = manualClock();
    const persistence = createMemoryPersistence();
    const first = await openStore({ clock, persistence });
    await first.create('/a', () => 'a');
    await first.close();
    const order: string[] = [];
    const store = await openStore({
      clock,
      persistence: {
        ...persistence,
        loadCurrent: () => (order.push('load'), persistence.loadCurrent()),
      },
    });
    // The reader's continuation: what a request does with the value (decode, encode, respond) in microtasks.
    const answered = store.get('/a').then(async (kv) => {
      order.push('read');
      for (let i = 0; i < 20; i++) await Promise.resolve();
      order.push('answered');
      return kv;
    });
    expect((await answered)?.value).toBe('a');
    await store.ready();
    expect(order).toEqual(['read', 'answered', 'load']);
    await store.close();
  });

  it('a list answered before the load and a watch from its revision see exactly the writes after it', async () => {
    const clock = manualClock();
    const persistence = createMemoryPersistence();
    const first = await openStore({ clock, persistence });
    await first.create('/a', () => 'a');
    await first.close();
    const faults = new PersistenceFaults();
    const release = faults.holdLoad();
    const store = await openStore({ clock, persistence: withFaults(persistence, faults) });
    const listed = await store.range({ prefix: '/' });
    const events: StoreEvent[] = [];
    store.watch({ prefix: '/', afterRevision: listed.revision }, { onEvent: (e) => events.push(e) });
    const b = store.create('/b', () => 'b');
    release();
    await b;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(events.map((e) => [e.type, e.kv.key])).toEqual([['put', '/b']]);
  });

  it('a failed load rejects ready() and every request that waits for it with PersistenceError', async () => {
    const broken = { ...createMemoryPersistence(), loadCurrent: () => Promise.reject(new Error('disk on fire')) };
    const store = await openStore({ clock: manualClock(), persistence: broken });
    await expect(store.ready()).rejects.toBeInstanceOf(PersistenceError);
    await expect(store.range({ prefix: '/' })).rejects.toBeInstanceOf(PersistenceError);
    await expect(store.get('/a')).rejects.toBeInstanceOf(PersistenceError);
    await expect(store.create('/a', () => 'a')).rejects.toBeInstanceOf(PersistenceError);
  });

  it('compactExpired() compacts by the clock and forgets the history in the persistence too', async () => {
    const clock = manualClock();
    const persistence = createMemoryPersistence();
    const store = await openStore({ clock, persistence, retentionMs: 1000 });
    const a = await store.create('/a', () => 'a');
    const a2 = await store.update('/a', a.modRevision, () => 'a2');
    clock.advance(1001);
    await store.compactExpired();
    expect(store.compactedRevision()).toBe(a2.modRevision);
    expect(await persistence.loadHistory()).toEqual([]);
    // Nothing expired since: a second call changes nothing.
    await store.compactExpired();
    expect(store.compactedRevision()).toBe(a2.modRevision);
  });

  it('writes after close are refused', async () => {
    const store = await openStore({ clock: manualClock() });
    await store.close();
    await expect(store.create('/a', () => 'a')).rejects.toThrow('the store is closed');
  });

  it('range over 10,000 keys written concurrently returns all of them in key order (speed is measured by npm run bench)', async () => {
    const store = await openStore({ clock: manualClock() });
    await Promise.all(Array.from({ length: 10_000 }, (_, i) => store.create(`/registry/pods/ns${i % 10}/p${i}`, () => '{}')));
    await store.range({ prefix: '/registry/pods/' }); // first call merges the sorted keys
    const r = await store.range({ prefix: '/registry/pods/' });
    expect(r.kvs).toHaveLength(10_000);
    const keys = r.kvs.map((kv) => kv.key);
    expect(keys).toEqual([...keys].sort());
  });
});
