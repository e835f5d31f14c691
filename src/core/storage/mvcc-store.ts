// The storage engine: an etcd3-like multi-version store held in memory and
// written through to an optional Persistence. It is also the API server's
// watch cache: once loaded, no read touches the persistence.
//
// Shape (see docs/decisions/0011-storage-engine.md):
// - `records` maps each key to its retained versions (O(1) get); two sorted
//   key sets serve range reads: `live` (keys with a current value) and `all`
//   (keys with any retained version, for reads at earlier revisions).
// - `log` holds the retained changes in revision order, with commit times:
//   watches replay from it and time-based compaction measures it.
// - Writes go through one queue. The queue is drained by a single loop that
//   takes every waiting write, checks each against the committed state
//   (compare-and-swap), assigns revisions, and commits them all in ONE
//   persistence.commit (group commit). Only after that commit succeeds are
//   they applied, fanned out to watchers and acknowledged. A key written by
//   an earlier write of the same group makes a later write on it wait for the
//   next group, so every check sees every write ordered before it.

import type { Clock } from '../clock';
import { ChangeLog } from './change-log';
import { currentOf, trimHistory, valueAt, type KeyHistory } from './key-history';
import { SortedKeys, prefixSlice } from './sorted-keys';
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  KeyExistsError,
  NotFoundError,
  PersistenceError,
  StorageError,
  type BatchOp,
  type GuaranteedUpdateOptions,
  type KeyValue,
  type MvccStore,
  type PersistedChange,
  type PersistedMeta,
  type Persistence,
  type RangeOptions,
  type RangeResult,
  type Revision,
  type StoreEvent,
  type UpdateDecision,
  type Watcher,
  type WatchHandle,
  type WatchOptions,
} from './types';
import { WatchHub, type WatchState } from './watch-hub';
import { afterCurrentTask } from '../util/after-current-task';

export interface OpenStoreOptions {
  readonly persistence?: Persistence;
  readonly clock: Clock;
  /** How long history is kept (kube-apiserver's --etcd-compaction-interval); default 5 minutes. */
  readonly retentionMs?: number;
}

/** The engine's surface: the storage contract plus what hosts drive themselves. */
export interface OpenedStore extends MvccStore {
  /** Compacts history older than the retention window now (hosts may call it on a timer). */
  compactExpired(): Promise<void>;
}

export const DEFAULT_RETENTION_MS = 5 * 60_000;
/** How long an opened store waits for a first request before it starts its full load anyway. */
const LOAD_DELAY_MS = 25;

/**
 * Opens a store. With a persistence it resolves as soon as the persistence is
 * open; the full load continues in the background (see `ready()`), and until
 * it ends `get(key)` and `range` at the current revision read the persistence
 * directly (range when the persistence offers rangeCurrent), so no request
 * waits for every object to load. Writes, reads of earlier revisions and
 * watch replays wait for the load.
 */
export async function openStore(options: OpenStoreOptions): Promise<OpenedStore> {
  const retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
  // A new store starts at the clock's milliseconds: see docs/decisions/0010.
  const initial = Math.floor(options.clock.now());
  const persistence = options.persistence;
  if (!persistence) return new Engine(options.clock, retentionMs, undefined, { revision: initial, compactedRevision: initial });
  let meta: PersistedMeta;
  try {
    meta = await persistence.open(initial);
  } catch (err) {
    throw asPersistenceError(err);
  }
  const engine = new Engine(options.clock, retentionMs, persistence, meta);
  engine.startLoad();
  return engine;
}

interface WriteWork {
  readonly kind: 'write';
  readonly ops: readonly BatchOp[];
  readonly resolve: (kvs: KeyValue[]) => void;
  readonly reject: (err: unknown) => void;
  /** Called with the staged results while persistence commits them (see MvccStore.create). */
  readonly whileCommitting?: (kvs: KeyValue[]) => void;
}

interface ControlWork {
  readonly kind: 'control';
  readonly run: () => Promise<void>;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}

type Work = WriteWork | ControlWork;

/** A write checked and given its revisions, waiting for the commit. */
interface Staged {
  readonly work: WriteWork;
  readonly changes: PersistedChange[];
  readonly events: StoreEvent[];
  readonly results: KeyValue[];
}

class Engine implements OpenedStore {
  private readonly records = new Map<string, KeyHistory>();
  private readonly live = new SortedKeys();
  private readonly all = new SortedKeys();
  private readonly log = new ChangeLog();
  private readonly hub = new WatchHub();

  private revision: Revision;
  private compacted: Revision;
  /** Highest revision handed to a write; above `revision` after a failed commit (revisions may skip). */
  private lastAssigned: Revision;

  private loaded: boolean;
  /** The load failed: nothing is served any more, not even from the persistence directly. */
  private loadFailed = false;
  private loadStarted = false;
  private loadTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly readyPromise: Promise<void>;
  private settleReady: (err?: unknown) => void = () => {};
  private waitingCatchUps: WatchState[] = [];

  private queue: Work[] = [];
  private draining = false;
  private closed = false;

  /** Lazy compactions are persisted at most this often (commits carry the compacted revision anyway). */
  private readonly compactPersistEveryMs: number;
  private lastCompactPersist: number;
  private compactPersistQueued = false;
  private persistedCompacted: Revision;

  constructor(
    private readonly clock: Clock,
    private readonly retentionMs: number,
    private readonly persistence: Persistence | undefined,
    meta: PersistedMeta,
  ) {
    this.revision = meta.revision;
    this.compacted = meta.compactedRevision;
    this.lastAssigned = meta.revision;
    this.persistedCompacted = meta.compactedRevision;
    this.compactPersistEveryMs = Math.max(1000, retentionMs / 10);
    this.lastCompactPersist = clock.now();
    this.loaded = persistence === undefined;
    if (this.loaded) {
      this.readyPromise = Promise.resolve();
    } else {
      this.readyPromise = new Promise<void>((resolve, reject) => {
        this.settleReady = (err) => (err === undefined ? resolve() : reject(err));
      });
      // Nobody may be waiting yet; a failed load must not surface as an unhandled rejection.
      this.readyPromise.catch(() => {});
    }
  }

  // ---- loading ----

  /**
   * The full load starts when something needs it (a write, a watch, a read of
   * history, close), when the first direct read has been answered, or after
   * LOAD_DELAY_MS: a cold start's first request reads its object alone, not
   * behind the load's first chunks and their decoding (docs/decisions/0340).
   */
  startLoad(): void {
    this.loadTimer = setTimeout(() => this.beginLoad(), LOAD_DELAY_MS);
  }

  /**
   * After a direct read: the load's first requests are issued once the reader has had its turn
   * (its decoding and its response run in this task's microtasks), not in front of it.
   */
  private beginLoadAfterAnswer(): void {
    afterCurrentTask(() => this.beginLoad());
  }

  private beginLoad(): void {
    if (this.loadStarted) return;
    this.loadStarted = true;
    clearTimeout(this.loadTimer);
    const persistence = this.persistence!;
    Promise.all([persistence.loadCurrent(), persistence.loadHistory()]).then(
      ([current, history]) => {
        this.restore(current, history);
        this.loaded = true;
        this.settleReady();
        const waiting = this.waitingCatchUps;
        this.waitingCatchUps = [];
        for (const state of waiting) this.catchUp(state);
      },
      (err) => {
        const error = asPersistenceError(err);
        this.loadFailed = true;
        this.settleReady(error);
        this.hub.closeAll(error);
      },
    );
  }

  private restore(current: readonly KeyValue[], history: readonly PersistedChange[]): void {
    let top = this.revision;
    for (const change of history) {
      if (change.revision <= this.compacted) continue;
      let record = this.records.get(change.key);
      if (!record) {
        record = { versions: [] };
        this.records.set(change.key, record);
      }
      // The first retained change of a key carries the value it replaced: the key's state at the compacted revision.
      if (record.versions.length === 0 && change.prev) record.versions.push({ revision: change.prev.modRevision, kv: change.prev });
      let event: StoreEvent;
      if (change.type === 'put') {
        const kv: KeyValue = {
          key: change.key,
          value: change.value ?? '',
          createRevision: change.createRevision,
          modRevision: change.revision,
          version: change.version,
        };
        record.versions.push({ revision: change.revision, kv });
        event = change.prev ? { type: 'put', kv, prevKv: change.prev, revision: change.revision } : { type: 'put', kv, revision: change.revision };
      } else {
        const tombstone = change.prev
          ? { ...change.prev, modRevision: change.revision }
          : { key: change.key, value: '', createRevision: change.createRevision, modRevision: change.revision, version: change.version };
        record.versions.push({ revision: change.revision, kv: undefined });
        event = change.prev
          ? { type: 'delete', kv: tombstone, prevKv: change.prev, revision: change.revision }
          : { type: 'delete', kv: tombstone, revision: change.revision };
      }
      this.log.append({ event, time: change.time });
      if (change.revision > top) top = change.revision;
    }
    const present = new Set<string>();
    for (const kv of current) {
      present.add(kv.key);
      if (kv.modRevision > top) top = kv.modRevision;
      const record = this.records.get(kv.key);
      if (!record) {
        this.records.set(kv.key, { versions: [{ revision: kv.modRevision, kv }] });
      } else if (currentOf(record)?.modRevision !== kv.modRevision) {
        // History and current state disagree (cannot happen with atomic commits): the current state wins.
        record.versions = record.versions.filter((v) => v.revision < kv.modRevision);
        record.versions.push({ revision: kv.modRevision, kv });
      }
    }
    for (const [key, record] of this.records) {
      // A key whose current record could not be decoded was skipped by the
      // persistence: it is absent now, even if its history says otherwise.
      if (!present.has(key) && currentOf(record) !== undefined) record.versions.push({ revision: top, kv: undefined });
      this.all.add(key);
      if (currentOf(record) !== undefined) this.live.add(key);
    }
    this.revision = top;
    this.lastAssigned = top;
  }

  ready(): Promise<void> {
    return this.readyPromise;
  }

  private async whenLoaded(): Promise<void> {
    if (this.closed) throw new StorageError('the store is closed');
    if (!this.loaded) {
      this.beginLoad();
      await this.readyPromise;
    }
    if (this.closed) throw new StorageError('the store is closed');
  }

  // ---- reads ----

  currentRevision(): Revision {
    return this.revision;
  }

  compactedRevision(): Revision {
    if (this.loaded) this.maybeCompactExpired();
    return this.compacted;
  }

  async get(key: string, revision?: Revision): Promise<KeyValue | undefined> {
    if (!this.loaded && !this.loadFailed && !this.closed && (revision === undefined || revision === 0 || revision === this.revision)) {
      // Cold start: answer the first requests from the persistence instead of waiting for the full load.
      try {
        return await this.persistence!.getCurrent(key);
      } catch (err) {
        throw asPersistenceError(err);
      } finally {
        this.beginLoadAfterAnswer();
      }
    }
    await this.whenLoaded();
    this.maybeCompactExpired();
    const record = this.records.get(key);
    if (revision === undefined || revision === 0 || revision === this.revision) return record && currentOf(record);
    this.checkReadable(revision);
    return record && valueAt(record, revision);
  }

  async range(options: RangeOptions): Promise<RangeResult> {
    const limit = options.limit !== undefined && options.limit > 0 ? options.limit : Infinity;
    const rangeCurrent = this.persistence?.rangeCurrent;
    if (!this.loaded && !this.loadFailed && !this.closed && rangeCurrent && (options.revision === undefined || options.revision === 0 || options.revision === this.revision)) {
      // Cold start: no write happens before the load ends, so what the persistence holds now is the current revision.
      const revision = this.revision;
      let kvs: KeyValue[];
      try {
        kvs = await rangeCurrent.call(this.persistence, options.prefix, options.after);
      } catch (err) {
        throw asPersistenceError(err);
      } finally {
        this.beginLoadAfterAnswer();
      }
      const byKey = new Map(kvs.map((kv) => [kv.key, kv]));
      return this.rangeKeys(
        kvs.map((kv) => kv.key),
        options,
        limit,
        revision,
        (key) => byKey.get(key),
        false,
      );
    }
    await this.whenLoaded();
    this.maybeCompactExpired();
    const revision = options.revision === undefined || options.revision === 0 ? this.revision : options.revision;
    if (revision !== this.revision) this.checkReadable(revision);
    if (revision === this.revision || this.unchangedSince(revision, options.prefix)) {
      return this.rangeKeys(this.live.keys(), options, limit, revision, (key) => currentOf(this.records.get(key)!), false);
    }
    return this.rangeKeys(this.all.keys(), options, limit, revision, (key) => valueAt(this.records.get(key)!, revision), true);
  }

  /** True when no retained change after `revision` touched a key under `prefix` (an old read equals a current one). */
  private unchangedSince(revision: Revision, prefix: string): boolean {
    for (const entry of this.log.after(revision)) {
      if (entry.event.kv.key.startsWith(prefix)) return false;
    }
    return true;
  }

  private rangeKeys(
    keys: readonly string[],
    options: RangeOptions,
    limit: number,
    revision: Revision,
    valueOf: (key: string) => KeyValue | undefined,
    sparse: boolean,
  ): RangeResult {
    const filter = options.filter;
    const [start, end] = prefixSlice(keys, options.prefix, options.after);
    const kvs: KeyValue[] = [];
    let i = start;
    for (; i < end; i++) {
      const kv = valueOf(keys[i]!);
      if (kv === undefined) continue;
      if (kvs.length >= limit) break;
      if (!filter || filter(kv)) kvs.push(kv);
    }
    if (i >= end) return { kvs, revision, more: false, remaining: 0 };
    // The page is full and keys[i] exists at `revision`. `remaining` counts the
    // keys after the page (filter ignored, as etcd's count); `more` asks
    // whether any of them passes the filter. Without `more` there is nothing
    // left to page through, so `remaining` is 0 then.
    if (!sparse && !filter) return { kvs, revision, more: true, remaining: end - i };
    let remaining = 0;
    let more = false;
    for (let j = i; j < end; j++) {
      const kv = valueOf(keys[j]!);
      if (kv === undefined) continue;
      remaining++;
      if (!more && (!filter || filter(kv))) {
        more = true;
        if (!sparse) {
          remaining = end - i;
          break;
        }
      }
    }
    return { kvs, revision, more, remaining: more ? remaining : 0 };
  }

  private checkReadable(revision: Revision): void {
    if (revision > this.revision) throw new FutureRevisionError(revision, this.revision);
    if (revision < this.compacted) throw new CompactedError(revision, this.compacted);
  }

  // ---- watch ----

  watch(options: WatchOptions, watcher: Watcher): WatchHandle {
    if (this.closed) throw new StorageError('the store is closed');
    if (this.loaded) this.maybeCompactExpired();
    if (options.afterRevision < this.compacted) throw new CompactedError(options.afterRevision, this.compacted);
    const { state, handle } = this.hub.register(options.prefix, options.afterRevision, watcher);
    if (this.loaded) queueMicrotask(() => this.catchUp(state));
    else {
      this.waitingCatchUps.push(state);
      this.beginLoad();
    }
    return handle;
  }

  private catchUp(state: WatchState): void {
    if (state.closed) return;
    if (state.seen < this.compacted) {
      this.hub.close(state, new CompactedError(state.seen, this.compacted));
      return;
    }
    // Copied first: a watcher's callback may read the store, which may compact the log.
    const events: StoreEvent[] = [];
    for (const entry of this.log.after(state.seen)) if (entry.event.kv.key.startsWith(state.prefix)) events.push(entry.event);
    this.hub.catchUp(state, events);
  }

  // ---- writes ----

  create(key: string, value: (revision: Revision) => string, whileCommitting?: (kv: KeyValue) => void): Promise<KeyValue> {
    return this.submit([{ op: 'create', key, value }], whileCommitting && ((kvs) => whileCommitting(kvs[0]!))).then((kvs) => kvs[0]!);
  }

  update(key: string, expectedModRevision: Revision, value: (revision: Revision) => string): Promise<KeyValue> {
    return this.submit([{ op: 'update', key, expectedModRevision, value }]).then((kvs) => kvs[0]!);
  }

  delete(key: string, expectedModRevision: Revision): Promise<KeyValue> {
    return this.submit([{ op: 'delete', key, expectedModRevision }]).then((kvs) => kvs[0]!);
  }

  async batch(ops: readonly BatchOp[]): Promise<KeyValue[]> {
    const seen = new Set<string>();
    for (const op of ops) {
      // As etcd's Txn: one operation per key in a transaction.
      if (seen.has(op.key)) throw new StorageError(`duplicate key given in txn request: ${op.key}`, op.key);
      seen.add(op.key);
    }
    if (ops.length === 0) return [];
    return this.submit([...ops]);
  }

  async guaranteedUpdate(
    key: string,
    tryUpdate: (current: KeyValue | undefined) => UpdateDecision | Promise<UpdateDecision>,
    options: GuaranteedUpdateOptions = {},
  ): Promise<KeyValue | undefined> {
    const maxRetries = options.maxRetries ?? 100;
    await this.whenLoaded();
    let current = this.currentValue(key);
    for (let attempt = 0; ; attempt++) {
      if (current === undefined && !options.ignoreNotFound) throw new NotFoundError('key not found', key);
      const decision = await tryUpdate(current);
      try {
        if (decision.action === 'none') return current;
        if (decision.action === 'delete') {
          if (current === undefined) return undefined;
          return await this.delete(key, current.modRevision);
        }
        return current === undefined ? await this.create(key, decision.value) : await this.update(key, current.modRevision, decision.value);
      } catch (err) {
        // Someone else wrote the key between our read and our write: read again and retry.
        if (err instanceof ConflictError) current = err.current;
        else if (err instanceof KeyExistsError) current = this.currentValue(key);
        else if (err instanceof NotFoundError) current = undefined;
        else throw err;
        if (attempt >= maxRetries) throw err;
      }
    }
  }

  private currentValue(key: string): KeyValue | undefined {
    const record = this.records.get(key);
    return record && currentOf(record);
  }

  private async submit(ops: readonly BatchOp[], whileCommitting?: (kvs: KeyValue[]) => void): Promise<KeyValue[]> {
    if (!this.loaded || this.closed) await this.whenLoaded();
    this.maybeCompactExpired();
    return new Promise<KeyValue[]>((resolve, reject) => {
      this.enqueue({ kind: 'write', ops, resolve, reject, ...(whileCommitting ? { whileCommitting } : {}) });
    });
  }

  private enqueue(work: Work): void {
    this.queue.push(work);
    if (!this.draining) {
      this.draining = true;
      // A microtask, so that writes issued in the same turn share the first commit too.
      queueMicrotask(() => void this.drain());
    }
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const head = this.queue[0]!;
        if (head.kind === 'control') {
          this.queue.shift();
          try {
            await head.run();
            head.resolve();
          } catch (err) {
            head.reject(err);
          }
          continue;
        }
        let n = 0;
        while (n < this.queue.length && this.queue[n]!.kind === 'write') n++;
        const writes = this.queue.splice(0, n) as WriteWork[];
        try {
          await this.commitGroup(writes);
        } catch (err) {
          // A bug, not a storage failure; settled writes ignore this, the rest must not hang.
          for (const work of writes) work.reject(err);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /** Checks, commits (once) and applies a group of writes. */
  private async commitGroup(writes: WriteWork[]): Promise<void> {
    const staged: Staged[] = [];
    const touched = new Set<string>();
    const deferred: WriteWork[] = [];
    const time = this.clock.now();
    for (const work of writes) {
      if (work.ops.some((op) => touched.has(op.key))) {
        // An earlier write of this group holds one of its keys: check it against that write's outcome, next round.
        deferred.push(work);
        for (const op of work.ops) touched.add(op.key);
        continue;
      }
      const result = this.stage(work, time);
      if (result instanceof Error) {
        work.reject(result);
        continue;
      }
      staged.push(result);
      for (const op of work.ops) touched.add(op.key);
    }
    if (deferred.length > 0) this.queue = (deferred as Work[]).concat(this.queue);
    if (staged.length === 0) return;

    const changes: PersistedChange[] = [];
    for (const s of staged) for (const c of s.changes) changes.push(c);
    const meta: PersistedMeta = { revision: changes[changes.length - 1]!.revision, compactedRevision: this.compacted };
    if (this.persistence) {
      try {
        // The commit's requests are issued before it returns; the writers'
        // own preparations overlap with the wait for durability.
        const committing = this.persistence.commit(changes, meta);
        letWritersPrepare(staged);
        await committing;
      } catch (err) {
        // Nothing of the group was kept: nothing becomes visible, every write of it fails.
        const error = asPersistenceError(err);
        for (const s of staged) s.work.reject(error);
        return;
      }
    } else {
      letWritersPrepare(staged);
    }
    const events: StoreEvent[] = [];
    for (const s of staged) {
      for (const event of s.events) {
        this.apply(event, time);
        events.push(event);
      }
    }
    this.revision = meta.revision;
    this.hub.dispatch(events);
    for (const s of staged) s.work.resolve(s.results);
  }

  /** Checks one write against the committed state and gives it revisions; an Error when it cannot apply. */
  private stage(work: WriteWork, time: number): Staged | Error {
    const changes: PersistedChange[] = [];
    const events: StoreEvent[] = [];
    const results: KeyValue[] = [];
    let revision = this.lastAssigned;
    try {
      for (const op of work.ops) {
        revision++;
        const current = this.currentValue(op.key);
        if (op.op === 'create') {
          if (current !== undefined) return new KeyExistsError('key exists', op.key);
          const kv: KeyValue = { key: op.key, value: op.value(revision), createRevision: revision, modRevision: revision, version: 1 };
          changes.push({ revision, type: 'put', key: op.key, value: kv.value, createRevision: revision, version: 1, time });
          events.push({ type: 'put', kv, revision });
          results.push(kv);
          continue;
        }
        if (current === undefined) return new NotFoundError('key not found', op.key);
        if (current.modRevision !== op.expectedModRevision) {
          return new ConflictError(
            `the key has been modified: expected modRevision ${op.expectedModRevision}, found ${current.modRevision}`,
            op.key,
            current,
          );
        }
        if (op.op === 'update') {
          const kv: KeyValue = {
            key: op.key,
            value: op.value(revision),
            createRevision: current.createRevision,
            modRevision: revision,
            version: current.version + 1,
          };
          changes.push({ revision, type: 'put', key: op.key, value: kv.value, createRevision: kv.createRevision, version: kv.version, time, prev: current });
          events.push({ type: 'put', kv, prevKv: current, revision });
          results.push(kv);
        } else {
          const tombstone: KeyValue = { ...current, modRevision: revision };
          changes.push({ revision, type: 'delete', key: op.key, createRevision: current.createRevision, version: current.version, time, prev: current });
          events.push({ type: 'delete', kv: tombstone, prevKv: current, revision });
          results.push(tombstone);
        }
      }
    } catch (err) {
      // A ValueFn threw: this write fails alone, and its revisions are not used.
      return err instanceof Error ? err : new StorageError(String(err));
    }
    this.lastAssigned = revision;
    return { work, changes, events, results };
  }

  private apply(event: StoreEvent, time: number): void {
    const key = event.kv.key;
    let record = this.records.get(key);
    if (!record) {
      record = { versions: [] };
      this.records.set(key, record);
      this.all.add(key);
    }
    const wasLive = currentOf(record) !== undefined;
    if (event.type === 'put') {
      record.versions.push({ revision: event.revision, kv: event.kv });
      if (!wasLive) this.live.add(key);
    } else {
      record.versions.push({ revision: event.revision, kv: undefined });
      if (wasLive) this.live.delete(key);
    }
    this.log.append({ event, time });
  }

  // ---- compaction ----

  async compact(revision: Revision): Promise<void> {
    await this.whenLoaded();
    if (revision > this.revision) throw new FutureRevisionError(revision, this.revision);
    this.compactTo(revision);
    await this.persistCompaction();
  }

  async compactExpired(): Promise<void> {
    await this.whenLoaded();
    // Also catches up on a lazy compaction whose persisting was deferred.
    if (this.compactExpiredInMemory() || this.persistedCompacted < this.compacted) await this.persistCompaction();
  }

  /** Cheap check run by every operation: compacts when the oldest retained change has expired. */
  private maybeCompactExpired(): void {
    const oldest = this.log.oldest();
    if (oldest === undefined || oldest.time > this.clock.now() - this.retentionMs) return;
    if (!this.compactExpiredInMemory()) return;
    if (this.persistence && !this.compactPersistQueued && this.clock.now() - this.lastCompactPersist >= this.compactPersistEveryMs) {
      this.persistCompaction().catch(() => {
        // Retried with the next compaction; commits record the compacted revision meanwhile.
      });
    }
  }

  /**
   * Compacts to the newest revision committed at least `retentionMs` ago: that
   * revision stayed current into the retention window, so it stays readable.
   */
  private compactExpiredInMemory(): boolean {
    const target = this.log.lastRevisionAtOrBefore(this.clock.now() - this.retentionMs);
    return target !== undefined && this.compactTo(target);
  }

  private compactTo(revision: Revision): boolean {
    if (revision <= this.compacted) return false;
    const dropped = this.log.dropThrough(revision);
    this.compacted = revision;
    const keys = new Set<string>();
    for (const entry of dropped) keys.add(entry.event.kv.key);
    for (const key of keys) {
      const record = this.records.get(key);
      if (record && trimHistory(record, revision)) {
        this.records.delete(key);
        this.all.delete(key);
      }
    }
    return true;
  }

  private persistCompaction(): Promise<void> {
    const persistence = this.persistence;
    if (!persistence) return Promise.resolve();
    this.compactPersistQueued = true;
    return this.control(async () => {
      this.compactPersistQueued = false;
      this.lastCompactPersist = this.clock.now();
      const compacted = this.compacted;
      try {
        await persistence.compact({ revision: this.revision, compactedRevision: compacted });
        this.persistedCompacted = Math.max(this.persistedCompacted, compacted);
      } catch (err) {
        throw asPersistenceError(err);
      }
    });
  }

  /** Runs `run` in the write queue's order, between group commits. */
  private control(run: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => this.enqueue({ kind: 'control', run, resolve, reject }));
  }

  // ---- lifecycle ----

  async wipe(): Promise<void> {
    await this.whenLoaded();
    await this.control(async () => {
      // Above anything handed out before, even revisions of failed commits: docs/decisions/0010.
      const start = Math.max(Math.floor(this.clock.now()), this.lastAssigned + 1);
      const meta: PersistedMeta = { revision: start, compactedRevision: start };
      if (this.persistence) {
        try {
          await this.persistence.wipe(meta);
        } catch (err) {
          throw asPersistenceError(err);
        }
      }
      this.records.clear();
      this.live.clear();
      this.all.clear();
      this.log.clear();
      this.revision = start;
      this.compacted = start;
      this.persistedCompacted = start;
      this.lastAssigned = start;
      this.hub.closeAll(new StorageError('the store was wiped'));
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (!this.loaded) {
      this.beginLoad();
      await this.readyPromise.catch(() => {});
    }
    // Let queued writes finish, then refuse new work.
    await this.control(async () => {});
    this.closed = true;
    this.hub.closeAll(new StorageError('the store is closed'));
    if (this.persistence) await this.persistence.close();
  }
}

function asPersistenceError(err: unknown): PersistenceError {
  if (err instanceof PersistenceError) return err;
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return new PersistenceError(message);
}

/** Hands each staged write its results before they are durable; a writer's failure there is its own business. */
function letWritersPrepare(staged: readonly Staged[]): void {
  for (const s of staged) {
    if (!s.work.whileCommitting) continue;
    try {
      s.work.whileCommitting(s.results);
    } catch {
      // Ignored: the writer does the same work again once the commit is durable.
    }
  }
}
