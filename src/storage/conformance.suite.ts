// One conformance suite for every storage backend (memory, IndexedDB, file),
// after k8s.io/apiserver/pkg/storage/testing (store_tests.go,
// watcher_tests.go): what the API layer relies on, observed through the
// MvccStore contract only. Each test names the rule of src/core/storage/types.ts
// it checks.

import { afterEach, describe, expect, it as vitestIt } from 'vitest';
import { manualClock, type Clock } from '../core/clock';
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  KeyExistsError,
  NotFoundError,
  PersistenceError,
  StorageError,
  type KeyValue,
  type MvccStore,
  type Revision,
  type StoreEvent,
  type WatchHandle,
} from '../core/storage/types';
import type { PersistenceFaults } from './faulty-persistence';

export interface StoreFactory {
  /** A new, empty store. */
  open(clock: Clock): Promise<MvccStore>;
  /** Opens again what the latest `open` opened (the suite has closed that store): a restart. */
  reopen?(clock: Clock): Promise<MvccStore>;
  /** A new, empty store whose persistence is wrapped by `faults` (see faulty-persistence.ts). */
  openWithFaults?(clock: Clock, faults: PersistenceFaults): Promise<MvccStore>;
  /**
   * Rules of KubeTab's own engine that this backend does not follow because
   * it follows etcd's instead (the etcd store): test title → the reason. Such
   * a test is expected to fail (it.fails), so that it speaks up if the two
   * ever agree. See docs/decisions/0354-etcd-store.md.
   */
  readonly knownDifferences?: Readonly<Record<string, string>>;
}

const MINUTE = 60_000;

/** Stored text that carries its own revision, as the API layer's ValueFn does. */
const text = (s: string) => (rev: Revision) => `${s}@${rev}`;

function compact(kv: KeyValue | undefined) {
  return kv && { key: kv.key, value: kv.value, createRevision: kv.createRevision, modRevision: kv.modRevision, version: kv.version };
}

/** Collects watch events; `next(n)` waits for n more. */
function collector() {
  const events: StoreEvent[] = [];
  const closes: Error[] = [];
  let wake: (() => void) | undefined;
  return {
    events,
    closes,
    watcher: {
      onEvent(e: StoreEvent) {
        events.push(e);
        wake?.();
      },
      onClose(reason: Error) {
        closes.push(reason);
        wake?.();
      },
    },
    async waitFor(count: number, timeoutMs = 2000) {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} events, got ${events.length}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 10);
        });
      }
      return events;
    },
  };
}

/** Lets queued microtasks and timers run (watch replays start in a microtask). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

export function runStoreConformance(name: string, factory: StoreFactory): void {
  const known = factory.knownDifferences ?? {};
  const it = (title: string, fn: () => Promise<void>) =>
    known[title] !== undefined ? vitestIt.fails(`${title} — differs: ${known[title]}`, fn) : vitestIt(title, fn);
  describe(`storage conformance: ${name}`, () => {
    const opened: MvccStore[] = [];
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close().catch(() => {});
    });
    async function open(clock: Clock = manualClock()): Promise<MvccStore> {
      const store = await factory.open(clock);
      opened.push(store);
      return store;
    }
    async function reopen(previous: MvccStore, clock: Clock): Promise<MvccStore> {
      await previous.close();
      const store = await factory.reopen!(clock);
      opened.push(store);
      return store;
    }

    // ---- create / get (store_tests.go: RunTestCreate, RunTestGet, RunTestCreateWithKeyExist) ----

    it('starts a new store at a revision no lower than the clock (decision 0010)', async () => {
      const clock = manualClock();
      const store = await open(clock);
      await store.ready();
      expect(store.currentRevision()).toBeGreaterThanOrEqual(clock.now());
      expect(store.compactedRevision()).toBeLessThanOrEqual(store.currentRevision());
    });

    it('create stamps createRevision = modRevision = the next revision, version 1, and get returns it', async () => {
      const store = await open();
      const before = store.currentRevision();
      const kv = await store.create('/registry/pods/default/a', text('a'));
      expect(kv).toEqual({ key: '/registry/pods/default/a', value: `a@${before + 1}`, createRevision: before + 1, modRevision: before + 1, version: 1 });
      expect(store.currentRevision()).toBe(before + 1);
      expect(compact(await store.get('/registry/pods/default/a'))).toEqual(kv);
      expect(await store.get('/registry/pods/default/missing')).toBeUndefined();
    });

    it('create of an existing key fails with KeyExistsError and changes nothing', async () => {
      const store = await open();
      const kv = await store.create('/k', text('one'));
      await expect(store.create('/k', text('two'))).rejects.toBeInstanceOf(KeyExistsError);
      expect(store.currentRevision()).toBe(kv.modRevision);
      expect((await store.get('/k'))?.value).toBe(kv.value);
    });

    it('create hands the value to whileCommitting before it is visible, and not when the key exists', async () => {
      const store = await open();
      const seen: { kv: KeyValue; visibleThen: boolean }[] = [];
      const kv = await store.create('/w/a', text('a'), (staged) => {
        seen.push({ kv: staged, visibleThen: store.currentRevision() >= staged.modRevision });
      });
      expect(seen).toEqual([{ kv, visibleThen: false }]);
      const calls: KeyValue[] = [];
      await expect(store.create('/w/a', text('again'), (staged) => calls.push(staged))).rejects.toBeInstanceOf(KeyExistsError);
      expect(calls).toEqual([]);
      // What the callback throws is its own affair: the create goes through.
      const b = await store.create('/w/b', text('b'), () => {
        throw new Error('boom');
      });
      expect((await store.get('/w/b'))?.value).toBe(b.value);
    });

    it('get at an earlier revision returns the value as of then (absent before the create)', async () => {
      const store = await open();
      const start = store.currentRevision();
      const v1 = await store.create('/k', text('v1'));
      const v2 = await store.update('/k', v1.modRevision, text('v2'));
      expect((await store.get('/k', v1.modRevision))?.value).toBe(v1.value);
      expect((await store.get('/k', v2.modRevision))?.value).toBe(v2.value);
      expect(await store.get('/k', start)).toBeUndefined();
      await store.delete('/k', v2.modRevision);
      expect((await store.get('/k', v2.modRevision))?.value).toBe(v2.value);
      expect(await store.get('/k')).toBeUndefined();
    });

    it('the ValueFn sees the revision the write receives (stored text can carry its resourceVersion)', async () => {
      const store = await open();
      const seen: Revision[] = [];
      const kv = await store.create('/k', (rev) => {
        seen.push(rev);
        return JSON.stringify({ resourceVersion: String(rev) });
      });
      expect(seen).toEqual([kv.modRevision]);
      expect(JSON.parse(kv.value).resourceVersion).toBe(String(kv.modRevision));
    });

    // ---- update / delete with preconditions (RunTestConditionalDelete, RunTestUnconditionalDelete) ----

    it('update is a compare-and-swap on modRevision: version grows, createRevision stays', async () => {
      const store = await open();
      const v1 = await store.create('/k', text('v1'));
      const v2 = await store.update('/k', v1.modRevision, text('v2'));
      expect(v2).toMatchObject({ createRevision: v1.createRevision, modRevision: v1.modRevision + 1, version: 2 });
      const stale = store.update('/k', v1.modRevision, text('v3'));
      await expect(stale).rejects.toBeInstanceOf(ConflictError);
      const err = (await stale.catch((e) => e)) as ConflictError;
      expect(compact(err.current)).toEqual(v2);
      await expect(store.update('/missing', v1.modRevision, text('x'))).rejects.toBeInstanceOf(NotFoundError);
      expect(store.currentRevision()).toBe(v2.modRevision);
    });

    it('delete with a stale precondition conflicts; with the right one returns the tombstone', async () => {
      const store = await open();
      const v1 = await store.create('/k', text('v1'));
      const v2 = await store.update('/k', v1.modRevision, text('v2'));
      await expect(store.delete('/k', v1.modRevision)).rejects.toBeInstanceOf(ConflictError);
      expect((await store.get('/k'))?.value).toBe(v2.value);
      const gone = await store.delete('/k', v2.modRevision);
      expect(gone).toMatchObject({ key: '/k', value: v2.value, modRevision: v2.modRevision + 1 });
      expect(store.currentRevision()).toBe(gone.modRevision);
      expect(await store.get('/k')).toBeUndefined();
      await expect(store.delete('/k', gone.modRevision)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('a deleted key created again starts a new incarnation (version 1, new createRevision)', async () => {
      const store = await open();
      const v1 = await store.create('/k', text('v1'));
      const v2 = await store.update('/k', v1.modRevision, text('v2'));
      await store.delete('/k', v2.modRevision);
      const again = await store.create('/k', text('again'));
      expect(again.version).toBe(1);
      expect(again.createRevision).toBe(again.modRevision);
      expect(again.createRevision).toBeGreaterThan(v2.modRevision);
    });

    // ---- guaranteedUpdate (RunTestGuaranteedUpdate, ...WithConflict, ...WithSuggestionAndConflict) ----

    it('guaranteedUpdate puts, answers none without writing, deletes, and honours ignoreNotFound', async () => {
      const store = await open();
      await expect(store.guaranteedUpdate('/k', () => ({ action: 'put', value: text('x') }))).rejects.toBeInstanceOf(NotFoundError);
      const created = await store.guaranteedUpdate('/k', (cur) => {
        expect(cur).toBeUndefined();
        return { action: 'put', value: text('created') };
      }, { ignoreNotFound: true });
      expect(created).toMatchObject({ version: 1 });
      const updated = await store.guaranteedUpdate('/k', (cur) => ({ action: 'put', value: () => `${cur!.value}+1` }));
      expect(updated).toMatchObject({ value: `${created!.value}+1`, version: 2 });
      const rev = store.currentRevision();
      const same = await store.guaranteedUpdate('/k', () => ({ action: 'none' }));
      expect(compact(same)).toEqual(compact(updated));
      expect(store.currentRevision()).toBe(rev);
      const deleted = await store.guaranteedUpdate('/k', () => ({ action: 'delete' }));
      expect(deleted).toMatchObject({ value: updated!.value, modRevision: rev + 1 });
      expect(await store.get('/k')).toBeUndefined();
    });

    it('guaranteedUpdate propagates errors thrown by tryUpdate unchanged', async () => {
      const store = await open();
      await store.create('/k', text('v'));
      const boom = new Error('validation failed');
      await expect(store.guaranteedUpdate('/k', () => Promise.reject(boom))).rejects.toBe(boom);
    });

    it('guaranteedUpdate retries with the fresh value after a conflicting write', async () => {
      const store = await open();
      const v1 = await store.create('/k', text('1'));
      const seen: string[] = [];
      const result = await store.guaranteedUpdate('/k', async (cur) => {
        seen.push(cur!.value);
        if (seen.length === 1) await store.update('/k', v1.modRevision, () => 'interloper');
        return { action: 'put', value: () => `${cur!.value}!` };
      });
      expect(seen).toEqual([v1.value, 'interloper']);
      expect(result?.value).toBe('interloper!');
      expect(result?.version).toBe(3);
    });

    it('concurrent guaranteedUpdates all apply exactly once (optimistic concurrency)', async () => {
      const store = await open();
      await store.create('/counter', () => '0');
      const n = 25;
      await Promise.all(
        Array.from({ length: n }, () =>
          store.guaranteedUpdate('/counter', (cur) => ({ action: 'put', value: () => String(Number(cur!.value) + 1) })),
        ),
      );
      const final = await store.get('/counter');
      expect(final?.value).toBe(String(n));
      expect(final?.version).toBe(n + 1);
    });

    it('guaranteedUpdate gives up with ConflictError after maxRetries conflicts', async () => {
      const store = await open();
      await store.create('/k', () => '0');
      let calls = 0;
      const attempt = store.guaranteedUpdate(
        '/k',
        async (cur) => {
          calls++;
          await store.update('/k', cur!.modRevision, () => `other${calls}`);
          return { action: 'put', value: () => 'mine' };
        },
        { maxRetries: 2 },
      );
      await expect(attempt).rejects.toBeInstanceOf(ConflictError);
      expect(calls).toBe(3);
      expect((await store.get('/k'))?.value).toBe('other3');
    });

    it('concurrent compare-and-swaps on one key: exactly one wins (checks see queued writes)', async () => {
      const store = await open();
      const v1 = await store.create('/k', text('v1'));
      const results = await Promise.allSettled([
        store.update('/k', v1.modRevision, text('a')),
        store.update('/k', v1.modRevision, text('b')),
        store.delete('/k', v1.modRevision),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConflictError);
      const creates = await Promise.allSettled([store.create('/n', text('x')), store.create('/n', text('y'))]);
      expect(creates.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(creates.find((r) => r.status === 'rejected')).toMatchObject({ reason: expect.any(KeyExistsError) });
    });

    // ---- batch ----

    it('batch applies all ops at consecutive revisions, or none of them', async () => {
      const store = await open();
      const a = await store.create('/a', text('a'));
      const rev = store.currentRevision();
      await expect(
        store.batch([
          { op: 'create', key: '/b', value: text('b') },
          { op: 'update', key: '/a', expectedModRevision: a.modRevision - 1, value: text('a2') },
        ]),
      ).rejects.toBeInstanceOf(ConflictError);
      expect(store.currentRevision()).toBe(rev);
      expect(await store.get('/b')).toBeUndefined();
      const kvs = await store.batch([
        { op: 'create', key: '/b', value: text('b') },
        { op: 'update', key: '/a', expectedModRevision: a.modRevision, value: text('a2') },
        { op: 'create', key: '/c', value: text('c') },
      ]);
      const revs = kvs.map((kv) => kv.modRevision);
      expect(revs[1]).toBe(revs[0]! + 1);
      expect(revs[2]).toBe(revs[0]! + 2);
      expect(store.currentRevision()).toBe(revs[2]);
      const d = await store.batch([{ op: 'delete', key: '/c', expectedModRevision: kvs[2]!.modRevision }]);
      expect(d[0]).toMatchObject({ key: '/c', modRevision: revs[2]! + 1 });
      await expect(store.batch([{ op: 'create', key: '/x', value: text('1') }, { op: 'create', key: '/x', value: text('2') }])).rejects.toBeInstanceOf(StorageError);
    });

    // ---- list (RunTestList, RunTestListWithoutPaging, RunTestListContinuation, RunTestCount) ----

    async function seed(store: MvccStore, keys: string[]): Promise<KeyValue[]> {
      const out: KeyValue[] = [];
      for (const key of keys) out.push(await store.create(key, text(key)));
      return out;
    }

    it('range returns the keys under a prefix in ascending order at the current revision', async () => {
      const store = await open();
      await seed(store, ['/registry/pods/b/2', '/registry/pods/a/1', '/registry/pods/b/1', '/registry/services/a/1', '/registry/pods-x/a']);
      const r = await store.range({ prefix: '/registry/pods/' });
      expect(r.kvs.map((kv) => kv.key)).toEqual(['/registry/pods/a/1', '/registry/pods/b/1', '/registry/pods/b/2']);
      expect(r).toMatchObject({ revision: store.currentRevision(), more: false, remaining: 0 });
      const all = await store.range({ prefix: '', limit: 0 });
      expect(all.kvs).toHaveLength(5);
    });

    it('prefix isolation: /registry/pods/a/ does not see /registry/pods/ab/', async () => {
      const store = await open();
      await seed(store, ['/registry/pods/a/x', '/registry/pods/ab/y', '/registry/pods/a', '/registry/pods/a0/z']);
      const r = await store.range({ prefix: '/registry/pods/a/' });
      expect(r.kvs.map((kv) => kv.key)).toEqual(['/registry/pods/a/x']);
    });

    it('range at an earlier revision is exactly the state then (creates, updates, deletes, re-creates)', async () => {
      const store = await open();
      const snapshots: { rev: Revision; state: Map<string, string> }[] = [];
      const state = new Map<string, string>();
      const mods = new Map<string, Revision>();
      snapshots.push({ rev: store.currentRevision(), state: new Map(state) });
      let seedN = 7;
      const rand = (n: number) => {
        seedN = (seedN * 1103515245 + 12345) % 2147483648;
        return seedN % n;
      };
      for (let i = 0; i < 120; i++) {
        const key = `/registry/things/ns/k${rand(12)}`;
        let kv: KeyValue;
        if (!state.has(key)) kv = await store.create(key, text(`c${i}`));
        else if (rand(3) === 0) {
          kv = await store.delete(key, mods.get(key)!);
          state.delete(key);
          mods.delete(key);
          snapshots.push({ rev: kv.modRevision, state: new Map(state) });
          continue;
        } else kv = await store.update(key, mods.get(key)!, text(`u${i}`));
        state.set(key, kv.value);
        mods.set(key, kv.modRevision);
        snapshots.push({ rev: kv.modRevision, state: new Map(state) });
      }
      for (const snap of snapshots) {
        const r = await store.range({ prefix: '/registry/things/', revision: snap.rev });
        expect(r.revision).toBe(snap.rev);
        expect(r.kvs.map((kv) => [kv.key, kv.value])).toEqual([...snap.state.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
      }
    });

    it('paging with after/limit: more and remaining, and every page at the first page’s revision sees one snapshot', async () => {
      const store = await open();
      const keys = Array.from({ length: 7 }, (_, i) => `/registry/pods/ns/p${i}`);
      await seed(store, keys);
      await seed(store, ['/registry/pods/other/x']);
      const page1 = await store.range({ prefix: '/registry/pods/ns/', limit: 3 });
      expect(page1.kvs.map((kv) => kv.key)).toEqual(keys.slice(0, 3));
      expect(page1).toMatchObject({ more: true, remaining: 4 });
      // Writes between pages must not show in later pages read at page1.revision.
      const p4 = await store.get('/registry/pods/ns/p4');
      await store.update('/registry/pods/ns/p4', p4!.modRevision, text('changed'));
      await store.delete('/registry/pods/ns/p5', (await store.get('/registry/pods/ns/p5'))!.modRevision);
      await store.create('/registry/pods/ns/p35', text('new'));
      const page2 = await store.range({ prefix: '/registry/pods/ns/', limit: 3, after: page1.kvs[2]!.key, revision: page1.revision });
      expect(page2.kvs.map((kv) => kv.key)).toEqual(keys.slice(3, 6));
      expect(page2.kvs[1]!.value).toBe(text('/registry/pods/ns/p4')(page2.kvs[1]!.modRevision));
      expect(page2).toMatchObject({ more: true, remaining: 1, revision: page1.revision });
      const page3 = await store.range({ prefix: '/registry/pods/ns/', limit: 3, after: page2.kvs[2]!.key, revision: page1.revision });
      expect(page3.kvs.map((kv) => kv.key)).toEqual(keys.slice(6));
      expect(page3).toMatchObject({ more: false, remaining: 0 });
      // The same paging at the current revision sees the new state.
      const now = await store.range({ prefix: '/registry/pods/ns/', limit: 3, after: keys[2] });
      expect(now.kvs.map((kv) => kv.key)).toEqual(['/registry/pods/ns/p3', '/registry/pods/ns/p35', '/registry/pods/ns/p4']);
      expect(now).toMatchObject({ more: true, remaining: 1 });
    });

    it('a page that ends exactly at the last key reports no more', async () => {
      const store = await open();
      await seed(store, ['/p/a', '/p/b']);
      expect(await store.range({ prefix: '/p/', limit: 2 })).toMatchObject({ more: false, remaining: 0 });
      expect(await store.range({ prefix: '/p/', limit: 1 })).toMatchObject({ more: true, remaining: 1 });
      expect(await store.range({ prefix: '/p/', after: '/p/b' })).toMatchObject({ kvs: [], more: false });
    });

    it('filter applies before limit; more means more matches; remaining ignores the filter', async () => {
      const store = await open();
      await seed(store, ['/f/1', '/f/2', '/f/3', '/f/4', '/f/5', '/f/6']);
      const even = (kv: KeyValue) => Number(kv.key.slice(3)) % 2 === 0;
      const r1 = await store.range({ prefix: '/f/', limit: 2, filter: even });
      expect(r1.kvs.map((kv) => kv.key)).toEqual(['/f/2', '/f/4']);
      expect(r1).toMatchObject({ more: true, remaining: 2 });
      const r2 = await store.range({ prefix: '/f/', limit: 2, filter: even, after: '/f/4' });
      expect(r2.kvs.map((kv) => kv.key)).toEqual(['/f/6']);
      expect(r2.more).toBe(false);
      const onlyOne = await store.range({ prefix: '/f/', limit: 1, filter: (kv) => kv.key === '/f/1' });
      expect(onlyOne.kvs.map((kv) => kv.key)).toEqual(['/f/1']);
      expect(onlyOne.more).toBe(false);
      // The same at an earlier revision.
      const rev = store.currentRevision();
      await store.create('/f/8', text('8'));
      const old = await store.range({ prefix: '/f/', limit: 2, filter: even, after: '/f/4', revision: rev });
      expect(old.kvs.map((kv) => kv.key)).toEqual(['/f/6']);
      expect(old.more).toBe(false);
    });

    // ---- revisions out of range ----

    it('get and range at a future revision fail with FutureRevisionError', async () => {
      const store = await open();
      await store.create('/k', text('v'));
      const future = store.currentRevision() + 1;
      await expect(store.get('/k', future)).rejects.toBeInstanceOf(FutureRevisionError);
      await expect(store.range({ prefix: '/', revision: future })).rejects.toBeInstanceOf(FutureRevisionError);
    });

    it('compaction: reads below the compacted revision fail with CompactedError, reads at it still work', async () => {
      const store = await open();
      const v1 = await store.create('/c/k', text('v1'));
      const v2 = await store.update('/c/k', v1.modRevision, text('v2'));
      const other = await store.create('/c/o', text('o'));
      await store.compact(v2.modRevision);
      expect(store.compactedRevision()).toBe(v2.modRevision);
      await expect(store.get('/c/k', v1.modRevision)).rejects.toBeInstanceOf(CompactedError);
      await expect(store.range({ prefix: '/c/', revision: v1.modRevision })).rejects.toBeInstanceOf(CompactedError);
      expect(() => store.watch({ prefix: '/c/', afterRevision: v1.modRevision }, collector().watcher)).toThrow(CompactedError);
      expect((await store.get('/c/k', v2.modRevision))?.value).toBe(v2.value);
      const at = await store.range({ prefix: '/c/', revision: v2.modRevision });
      expect(at.kvs.map((kv) => kv.value)).toEqual([v2.value]);
      const c = collector();
      store.watch({ prefix: '/c/', afterRevision: v2.modRevision }, c.watcher);
      expect((await c.waitFor(1))[0]!.kv.value).toBe(other.value);
      await store.compact(v1.modRevision); // no-op: already compacted further
      expect(store.compactedRevision()).toBe(v2.modRevision);
    });

    it('compaction keeps deleted keys readable at revisions at or above it', async () => {
      const store = await open();
      const a = await store.create('/d/a', text('a'));
      const b = await store.create('/d/b', text('b'));
      const rev = store.currentRevision();
      await store.delete('/d/a', a.modRevision);
      await store.update('/d/b', b.modRevision, text('b2'));
      await store.compact(rev);
      const r = await store.range({ prefix: '/d/', revision: rev });
      expect(r.kvs.map((kv) => kv.value)).toEqual([a.value, b.value]);
      expect((await store.get('/d/a', rev))?.value).toBe(a.value);
    });

    // ---- watch (watcher_tests.go: RunTestWatch, RunTestDeleteTriggerWatch, RunTestWatchFromZero, RunTestWatchFromNonZero) ----

    it('watch after a revision replays every later change in order, then live ones, with prevKv', async () => {
      const store = await open();
      const a = await store.create('/w/a', text('a'));
      const b = await store.create('/w/b', text('b'));
      const b2 = await store.update('/w/b', b.modRevision, text('b2'));
      const c = collector();
      store.watch({ prefix: '/w/', afterRevision: a.modRevision }, c.watcher);
      await c.waitFor(2);
      const d = await store.create('/w/d', text('d'));
      const events = await c.waitFor(3);
      expect(events.map((e) => [e.type, e.kv.key, e.revision])).toEqual([
        ['put', '/w/b', b.modRevision],
        ['put', '/w/b', b2.modRevision],
        ['put', '/w/d', d.modRevision],
      ]);
      expect(events[0]!.prevKv).toBeUndefined();
      expect(compact(events[1]!.prevKv)).toEqual(b);
      expect(compact(events[1]!.kv)).toEqual(b2);
      for (const e of events) expect(e.revision).toBe(e.kv.modRevision);
    });

    it('delete events carry the previous value as prevKv and a tombstone at the delete revision', async () => {
      const store = await open();
      const a = await store.create('/w/a', text('a'));
      const a2 = await store.update('/w/a', a.modRevision, text('a2'));
      const c = collector();
      store.watch({ prefix: '/w/', afterRevision: a2.modRevision }, c.watcher);
      const gone = await store.delete('/w/a', a2.modRevision);
      const [e] = await c.waitFor(1);
      expect(e!.type).toBe('delete');
      expect(e!.revision).toBe(gone.modRevision);
      expect(e!.kv).toMatchObject({ key: '/w/a', value: a2.value, modRevision: gone.modRevision });
      expect(compact(e!.prevKv)).toEqual(a2);
    });

    it('watch from the revision of a list (how "from zero" is served) sees exactly the later changes', async () => {
      const store = await open();
      await seed(store, ['/z/a', '/z/b']);
      const list = await store.range({ prefix: '/z/' });
      const c = collector();
      store.watch({ prefix: '/z/', afterRevision: list.revision }, c.watcher);
      await settle();
      expect(c.events).toHaveLength(0);
      const x = await store.create('/z/x', text('x'));
      expect((await c.waitFor(1)).map((e) => e.revision)).toEqual([x.modRevision]);
    });

    it('watch from a future revision waits and delivers only changes after it', async () => {
      const store = await open();
      const now = store.currentRevision();
      const c = collector();
      store.watch({ prefix: '/f/', afterRevision: now + 2 }, c.watcher);
      await store.create('/f/1', text('1'));
      await store.create('/f/2', text('2'));
      const third = await store.create('/f/3', text('3'));
      const events = await c.waitFor(1);
      await settle();
      expect(events.map((e) => e.revision)).toEqual([third.modRevision]);
    });

    it('watch prefix isolation: /registry/pods/a/ gets nothing from /registry/pods/ab/', async () => {
      const store = await open();
      const c = collector();
      store.watch({ prefix: '/registry/pods/a/', afterRevision: store.currentRevision() }, c.watcher);
      await store.create('/registry/pods/ab/x', text('no'));
      await store.create('/registry/pods/a', text('no'));
      const yes = await store.create('/registry/pods/a/x', text('yes'));
      const events = await c.waitFor(1);
      await settle();
      expect(events.map((e) => e.kv.key)).toEqual([yes.key]);
    });

    it('concurrent writes reach every watcher once each, in strictly increasing revision order', async () => {
      const store = await open();
      const start = store.currentRevision();
      const early = collector();
      store.watch({ prefix: '/o/', afterRevision: start }, early.watcher);
      const writes = Array.from({ length: 60 }, (_, i) => store.create(`/o/k${i}`, text(String(i))));
      const late = collector();
      store.watch({ prefix: '/o/', afterRevision: start }, late.watcher);
      const kvs = await Promise.all(writes);
      await Promise.all(kvs.slice(0, 20).map((kv) => store.update(kv.key, kv.modRevision, text('u'))));
      for (const c of [early, late]) {
        const events = await c.waitFor(80);
        await settle();
        expect(events).toHaveLength(80);
        for (let i = 1; i < events.length; i++) expect(events[i]!.revision).toBeGreaterThan(events[i - 1]!.revision);
      }
      expect(early.events.map((e) => e.revision)).toEqual(late.events.map((e) => e.revision));
    });

    it('cancel stops delivery', async () => {
      const store = await open();
      const c = collector();
      const handle: WatchHandle = store.watch({ prefix: '/', afterRevision: store.currentRevision() }, c.watcher);
      await store.create('/a', text('a'));
      await c.waitFor(1);
      handle.cancel();
      await store.create('/b', text('b'));
      await settle();
      expect(c.events).toHaveLength(1);
    });

    it('a watcher can cancel itself from its first replayed event', async () => {
      const store = await open();
      await seed(store, ['/s/a', '/s/b']);
      const got: StoreEvent[] = [];
      const handle = store.watch(
        { prefix: '/s/', afterRevision: store.compactedRevision() },
        {
          onEvent(e) {
            got.push(e);
            handle.cancel();
          },
        },
      );
      await settle();
      expect(got).toHaveLength(1);
    });

    // ---- time-based compaction ----

    it('history older than the retention window (5 minutes) is compacted, by the clock', async () => {
      const clock = manualClock();
      const store = await open(clock);
      const r1 = await store.create('/t/a', text('a'));
      clock.advance(1 * MINUTE);
      const r2 = await store.update('/t/a', r1.modRevision, text('a2'));
      clock.advance(3 * MINUTE);
      expect((await store.get('/t/a', r1.modRevision))?.value).toBe(r1.value);
      clock.advance(1.5 * MINUTE); // r1 committed 5.5 min ago, r2 4.5 min ago: r1 stayed current into the window
      expect((await store.range({ prefix: '/t/', revision: r1.modRevision })).kvs).toHaveLength(1);
      await expect(store.get('/t/a', r1.modRevision - 1)).rejects.toBeInstanceOf(CompactedError);
      clock.advance(1 * MINUTE); // now r2 is 5.5 min old too
      await expect(store.range({ prefix: '/t/', revision: r1.modRevision })).rejects.toBeInstanceOf(CompactedError);
      expect(() => store.watch({ prefix: '/t/', afterRevision: r1.modRevision }, collector().watcher)).toThrow(CompactedError);
      expect(store.compactedRevision()).toBe(r2.modRevision);
      expect((await store.get('/t/a'))?.value).toBe(r2.value);
    });

    // ---- wipe ----

    it('wipe empties the store, restarts revisions above every earlier one and closes watches', async () => {
      const clock = manualClock();
      const store = await open(clock);
      const a = await store.create('/a', text('a'));
      const c = collector();
      store.watch({ prefix: '/', afterRevision: a.modRevision }, c.watcher);
      await settle();
      await store.wipe();
      expect(c.closes).toHaveLength(1);
      expect(store.currentRevision()).toBeGreaterThan(a.modRevision);
      expect(await store.get('/a')).toBeUndefined();
      expect((await store.range({ prefix: '/' })).kvs).toEqual([]);
      await expect(store.get('/a', a.modRevision)).rejects.toBeInstanceOf(CompactedError);
      const b = await store.create('/a', text('again'));
      expect(b.modRevision).toBeGreaterThan(a.modRevision);
      clock.advance(60 * MINUTE);
      const before = store.currentRevision();
      await store.wipe();
      expect(store.currentRevision()).toBeGreaterThanOrEqual(Math.max(clock.now(), before + 1));
    });

    // ---- persistence failures ----

    if (factory.openWithFaults) {
      const openFaulty = async (faults: PersistenceFaults, clock: Clock = manualClock()) => {
        const store = await factory.openWithFaults!(clock, faults);
        opened.push(store);
        await store.ready();
        return store;
      };

      it('a failed commit fails its writes with PersistenceError and leaves nothing visible', async () => {
        const { PersistenceFaults } = await import('./faulty-persistence');
        const faults = new PersistenceFaults();
        const store = await openFaulty(faults);
        const a = await store.create('/p/a', text('a'));
        const c = collector();
        store.watch({ prefix: '/p/', afterRevision: a.modRevision }, c.watcher);
        faults.failNextCommits(1);
        const results = await Promise.allSettled([
          store.create('/p/b', text('b')),
          store.update('/p/a', a.modRevision, text('a2')),
          store.batch([{ op: 'create', key: '/p/c', value: text('c') }]),
        ]);
        for (const r of results) {
          expect(r.status).toBe('rejected');
          expect((r as PromiseRejectedResult).reason).toBeInstanceOf(PersistenceError);
        }
        expect(store.currentRevision()).toBe(a.modRevision);
        expect(await store.get('/p/b')).toBeUndefined();
        expect((await store.get('/p/a'))?.value).toBe(a.value);
        expect((await store.range({ prefix: '/p/' })).kvs).toHaveLength(1);
        await settle();
        expect(c.events).toHaveLength(0);
        // The store goes on; revisions may skip but only grow.
        const b = await store.create('/p/b', text('b'));
        expect(b.modRevision).toBeGreaterThan(a.modRevision);
        const events = await c.waitFor(1);
        expect(events.map((e) => e.kv.key)).toEqual(['/p/b']);
        if (factory.reopen) {
          const again = await reopen(store, manualClock());
          expect((await again.range({ prefix: '/p/' })).kvs.map((kv) => kv.key)).toEqual(['/p/a', '/p/b']);
        }
      });

      it('a create whose commit fails rejects even though whileCommitting saw its value', async () => {
        const { PersistenceFaults } = await import('./faulty-persistence');
        const faults = new PersistenceFaults();
        const store = await openFaulty(faults);
        const before = store.currentRevision();
        faults.failNextCommits(1);
        const staged: KeyValue[] = [];
        await expect(store.create('/w/lost', text('x'), (kv) => staged.push(kv))).rejects.toBeInstanceOf(PersistenceError);
        expect(staged.map((kv) => kv.key)).toEqual(['/w/lost']);
        expect(await store.get('/w/lost')).toBeUndefined();
        expect(store.currentRevision()).toBe(before);
      });

      it('group commit: writes arriving while a commit is in flight share one commit', async () => {
        const { PersistenceFaults } = await import('./faulty-persistence');
        const faults = new PersistenceFaults();
        const store = await openFaulty(faults);
        const n = 1000;
        const kvs = await Promise.all(Array.from({ length: n }, (_, i) => store.create(`/bulk/${String(i).padStart(4, '0')}`, text(String(i)))));
        expect(faults.commits).toBeLessThanOrEqual(3);
        const revs = kvs.map((kv) => kv.modRevision).sort((x, y) => x - y);
        expect(new Set(revs).size).toBe(n);
        expect(revs[n - 1]! - revs[0]!).toBe(n - 1);
        expect((await store.range({ prefix: '/bulk/' })).kvs).toHaveLength(n);
      });
    }

    // ---- restart ----

    if (factory.reopen) {
      it('after a restart, state, revisions and history survive', async () => {
        const clock = manualClock();
        const store = await open(clock);
        const a = await store.create('/r/a', text('a'));
        const b = await store.create('/r/b', text('b'));
        const a2 = await store.update('/r/a', a.modRevision, text('a2'));
        const gone = await store.delete('/r/b', b.modRevision);
        const c = await store.create('/r/c', text('c'));
        const top = store.currentRevision();
        const again = await reopen(store, clock);
        await again.ready();
        expect(again.currentRevision()).toBe(top);
        expect((await again.range({ prefix: '/r/' })).kvs.map(compact)).toEqual([a2, c]);
        expect((await again.range({ prefix: '/r/', revision: b.modRevision })).kvs.map(compact)).toEqual([a, b]);
        expect((await again.get('/r/b', a2.modRevision))?.value).toBe(b.value);
        const w = collector();
        again.watch({ prefix: '/r/', afterRevision: a.modRevision }, w.watcher);
        const events = await w.waitFor(4);
        expect(events.map((e) => [e.type, e.kv.key, e.revision])).toEqual([
          ['put', '/r/b', b.modRevision],
          ['put', '/r/a', a2.modRevision],
          ['delete', '/r/b', gone.modRevision],
          ['put', '/r/c', c.modRevision],
        ]);
        expect(compact(events[1]!.prevKv)).toEqual(a);
        expect(compact(events[2]!.prevKv)).toEqual(b);
        const d = await again.create('/r/d', text('d'));
        expect(d.modRevision).toBe(top + 1);
        expect((await w.waitFor(5))[4]!.revision).toBe(d.modRevision);
      });

      it('after a restart, a compaction survives and reads at the compacted revision still work', async () => {
        const clock = manualClock();
        const store = await open(clock);
        const a = await store.create('/r/a', text('a'));
        const a2 = await store.update('/r/a', a.modRevision, text('a2'));
        const b = await store.create('/r/b', text('b'));
        await store.compact(a2.modRevision);
        const a3 = await store.update('/r/a', a2.modRevision, text('a3'));
        const again = await reopen(store, clock);
        await again.ready();
        expect(again.compactedRevision()).toBe(a2.modRevision);
        await expect(again.get('/r/a', a.modRevision)).rejects.toBeInstanceOf(CompactedError);
        expect((await again.get('/r/a', a2.modRevision))?.value).toBe(a2.value);
        expect((await again.range({ prefix: '/r/', revision: b.modRevision })).kvs.map(compact)).toEqual([a2, b]);
        const w = collector();
        again.watch({ prefix: '/r/', afterRevision: a2.modRevision }, w.watcher);
        const events = await w.waitFor(2);
        expect(events.map((e) => e.revision)).toEqual([b.modRevision, a3.modRevision]);
        expect(compact(events[1]!.prevKv)).toEqual(a2);
      });

      it('after a restart, get answers at once and ready() resolves; time-based compaction uses the stored commit times', async () => {
        const clock = manualClock();
        const store = await open(clock);
        const a = await store.create('/r/a', text('a'));
        clock.advance(10 * MINUTE);
        const b = await store.create('/r/b', text('b'));
        const again = await reopen(store, clock);
        expect((await again.get('/r/a'))?.value).toBe(a.value);
        expect(await again.get('/r/none')).toBeUndefined();
        await again.ready();
        // a was committed 10 minutes ago, b just now: history up to a is gone.
        await expect(again.get('/r/a', a.modRevision - 1)).rejects.toBeInstanceOf(CompactedError);
        expect((await again.range({ prefix: '/r/', revision: a.modRevision })).kvs.map(compact)).toEqual([a]);
        expect((await again.range({ prefix: '/r/' })).kvs.map(compact)).toEqual([a, b]);
      });

      it('after a wipe and a restart, revisions continue above every earlier one', async () => {
        const clock = manualClock();
        const store = await open(clock);
        const a = await store.create('/a', text('a'));
        await store.wipe();
        const wiped = store.currentRevision();
        const again = await reopen(store, clock);
        await again.ready();
        expect(again.currentRevision()).toBe(wiped);
        expect(wiped).toBeGreaterThan(a.modRevision);
        expect((await again.range({ prefix: '/' })).kvs).toEqual([]);
        const b = await again.create('/a', text('b'));
        expect(b.modRevision).toBeGreaterThan(wiped);
      });
    }
  });
}

