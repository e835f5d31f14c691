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

  it('cold start: get reads the persistence while the load is held; range, watch and writes wait for it', async () => {
    const clock = manualClock();
    const persistence = createMemoryPersistence();
    const first = await openStore({ clock, persistence });
    const a = await first.create('/a', () => 'a');
    await first.close();
    const faults = new PersistenceFaults();
    const release = faults.holdLoad();
    const store = await openStore({ clock, persistence: withFaults(persistence, faults) });
    const order: string[] = [];
    const events: StoreEvent[] = [];
    store.watch({ prefix: '/', afterRevision: a.modRevision - 1 }, { onEvent: (e) => events.push(e) });
    const list = store.range({ prefix: '/' }).then(() => order.push('range'));
    const write = store.create('/b', () => 'b').then(() => order.push('create'));
    expect((await store.get('/a'))?.value).toBe('a');
    order.push('get');
    release();
    await Promise.all([list, write, store.ready()]);
    expect(order).toEqual(['get', 'range', 'create']);
    expect(events.map((e) => e.kv.key)).toEqual(['/a', '/b']);
  });

  it('a failed load rejects ready() and every request that waits for it with PersistenceError', async () => {
    const broken = { ...createMemoryPersistence(), loadCurrent: () => Promise.reject(new Error('disk on fire')) };
    const store = await openStore({ clock: manualClock(), persistence: broken });
    await expect(store.ready()).rejects.toBeInstanceOf(PersistenceError);
    await expect(store.range({ prefix: '/' })).rejects.toBeInstanceOf(PersistenceError);
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
