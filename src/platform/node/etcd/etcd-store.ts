// The MvccStore over etcd v3 (docs/decisions/0354-etcd-store.md): the same
// contract as KubeTab's own engine, with etcd as the one source of truth so
// that several API servers can share it.
//
// - Writes are etcd transactions, as kube-apiserver's etcd3 store makes them:
//   create = If(create_revision == 0) Then(Put); update and delete =
//   If(mod_revision == expected) Then(Put | DeleteRange); the Else branch reads
//   the key, so a conflict carries the current value. A batch is one
//   transaction: all of it or nothing, at one revision (etcd's rule).
// - Reads and watches are served by the watch cache (mirror.ts), which one
//   etcd watch keeps current. A write is acknowledged once the cache has
//   applied its revision, so a server reads its own writes and its watchers
//   have the event before the writer has the answer. A read at the current
//   revision first asks etcd for its revision and waits for the cache to reach
//   it (kube's consistent read from the cache), so a write through another
//   server is seen too.
// - resourceVersions are etcd revisions. Compaction is etcd's, issued by
//   kube's compactor on --etcd-compaction-interval (compactor.ts).
// - Keys and values are kube-apiserver's (kube-keys.ts, value-codec.ts).

import type { Clock } from '../../../core/clock';
import type { OpenedStore } from '../../../core/storage/mvcc-store';
import { prefixEnd } from '../../../core/storage/sorted-keys';
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  KeyExistsError,
  NotFoundError,
  StorageError,
  type BatchOp,
  type GuaranteedUpdateOptions,
  type KeyValue,
  type RangeOptions,
  type RangeResult,
  type Revision,
  type StoreEvent,
  type UpdateDecision,
  type Watcher,
  type WatchHandle,
  type WatchOptions,
} from '../../../core/storage/types';
import { Compactor } from './compactor';
import { EtcdUnavailableError, mapEtcdError, type EtcdClient, type WatchStream } from './etcd-client';
import type { RpcCompare, RpcEvent, RpcKeyValue, RpcRequestOp, RpcWatchResponse } from './etcd-rpc';
import type { KubeKeyLayout, MappedKey } from './kube-keys';
import { Mirror } from './mirror';
import { EtcdMasterLeases } from './master-leases';
import { decodeValue, encodeValue } from './value-codec';

export interface EtcdStoreOptions {
  readonly client: EtcdClient;
  readonly layout: KubeKeyLayout;
  readonly clock: Clock;
  /** --etcd-compaction-interval; 0 or Infinity: this server never compacts (kube's "0" disables it). */
  readonly compactionIntervalMs?: number;
  /** How long a read waits for the cache to reach etcd's revision before it fails (kube waits 3 s for a resourceVersion). */
  readonly syncTimeoutMs?: number;
  /** Reports what the store cannot hand to a caller (a lost watch stream, a failed compaction). */
  readonly log?: (message: string) => void;
}

/** Keys are read from etcd in pages of this many. */
const PAGE = 1000;
/** After this long without the awaited events, a lagging cache checks with etcd whether any are due at all. */
const QUIET_CHECK_MS = 5;

export async function openEtcdStore(options: EtcdStoreOptions): Promise<EtcdStore> {
  const store = new EtcdStore(options);
  await store.start();
  return store;
}

export class EtcdStore implements OpenedStore {
  private readonly client: EtcdClient;
  private readonly layout: KubeKeyLayout;
  private readonly root: Buffer;
  private readonly rootEnd: Buffer;
  private mirror!: Mirror;
  /** Keys under the prefix that exist in etcd (KubeTab's and any others), at the mirror's revision. */
  private etcdCount = 0;
  private stream: WatchStream | undefined;
  private watchId: number | undefined;
  private closed = false;
  private readonly readyPromise: Promise<void>;
  private settleReady: (err?: unknown) => void = () => {};
  private lastPredicted = 0;
  private readonly compactor: Compactor | undefined;
  private readonly syncTimeoutMs: number;
  private reconnectDelayMs = 100;
  /** The watch stream is open and created: etcd answers (the /readyz etcd check). */
  private watching = false;
  /** The last write of this server on each key still in flight (see write). */
  private readonly keyChains = new Map<string, Promise<void>>();

  constructor(private readonly options: EtcdStoreOptions) {
    this.client = options.client;
    this.layout = options.layout;
    this.root = Buffer.from(this.layout.root);
    this.rootEnd = Buffer.from(prefixEnd(this.layout.root)!);
    this.syncTimeoutMs = options.syncTimeoutMs ?? 10_000;
    this.readyPromise = new Promise<void>((resolve, reject) => {
      this.settleReady = (err) => (err === undefined ? resolve() : reject(err));
    });
    this.readyPromise.catch(() => {});
    const interval = options.compactionIntervalMs ?? 5 * 60_000;
    if (interval > 0 && Number.isFinite(interval)) {
      this.compactor = new Compactor({
        client: this.client,
        clock: options.clock,
        intervalMs: interval,
        onCompacted: (revision) => this.mirror?.compactTo(revision),
        onError: (err) => this.log(`etcd compaction failed: ${(err as Error).message}`),
      });
    }
  }

  // ---- start: the state at etcd's compacted revision, then its history and live changes through the watch ----

  async start(): Promise<void> {
    try {
      for (;;) {
        const compacted = await this.compactedInEtcd();
        const current = (await this.client.range({ key: this.root, countOnly: true })).header.revision;
        let base: RpcKeyValue[];
        try {
          base = await this.readAll(compacted);
        } catch (err) {
          if (err instanceof CompactedError) continue; // compacted further meanwhile: start again
          throw err;
        }
        const kvs: KeyValue[] = [];
        for (const raw of base) {
          const kv = this.toKeyValue(raw);
          if (kv) kvs.push(kv);
        }
        this.mirror = new Mirror(kvs, compacted);
        this.etcdCount = base.length;
        this.openWatch(compacted + 1);
        await this.waitForMirror(current);
        break;
      }
      this.compactor?.start();
      this.settleReady();
    } catch (err) {
      this.settleReady(err);
      this.closeStream();
      throw err;
    }
  }

  /**
   * etcd's compacted revision: a watch from revision 1 on a key nobody writes
   * is cancelled with the compacted revision when history was compacted; a
   * range at revision 1 answers when it was not.
   */
  private async compactedInEtcd(): Promise<Revision> {
    try {
      await this.client.range({ key: this.root, revision: 1, countOnly: true });
      return 1;
    } catch (err) {
      if (!(err instanceof CompactedError)) throw err;
    }
    const stream = this.client.watchStream();
    try {
      return await new Promise<Revision>((resolve, reject) => {
        stream.on('data', (response: RpcWatchResponse) => {
          if (response.compactRevision > 0) resolve(response.compactRevision);
        });
        stream.on('error', (err) => reject(mapEtcdError(err)));
        stream.write({ createRequest: { key: Buffer.from(`${this.layout.root}kubetab.io/compaction-probe`), startRevision: 1 } });
      });
    } finally {
      stream.cancel();
    }
  }

  /** Every key-value under the prefix at `revision`, paged. */
  private async readAll(revision: Revision): Promise<RpcKeyValue[]> {
    const out: RpcKeyValue[] = [];
    let from = this.root;
    for (;;) {
      let response;
      try {
        response = await this.client.range({ key: from, rangeEnd: this.rootEnd, revision, limit: PAGE });
      } catch (err) {
        throw err instanceof CompactedError ? new CompactedError(revision, revision) : err;
      }
      out.push(...response.kvs);
      if (!response.more || response.kvs.length === 0) return out;
      from = Buffer.concat([response.kvs[response.kvs.length - 1]!.key, Buffer.from([0])]);
    }
  }

  // ---- the watch that keeps the cache current ----

  private openWatch(fromRevision: Revision): void {
    if (this.closed) return;
    const stream = this.client.watchStream();
    this.stream = stream;
    this.watchId = undefined;
    stream.on('data', (response: RpcWatchResponse) => {
      if (this.stream !== stream) return;
      this.reconnectDelayMs = 100;
      this.onWatchResponse(response);
    });
    const lost = (err?: Error) => {
      if (this.stream !== stream || this.closed) return;
      this.stream = undefined;
      this.watching = false;
      this.log(`etcd watch stream lost${err ? `: ${err.message}` : ''}; resuming from revision ${this.mirror.revision + 1}`);
      this.client.failover();
      const delay = this.reconnectDelayMs;
      this.reconnectDelayMs = Math.min(delay * 2, 5000);
      // Host time, not the cluster's: this waits for a network peer.
      setTimeout(() => this.openWatch(this.mirror.revision + 1), delay).unref?.();
    };
    stream.on('error', (err: Error) => lost(err));
    stream.on('end', () => lost());
    stream.write({ createRequest: { key: this.root, rangeEnd: this.rootEnd, startRevision: fromRevision, prevKv: true } });
  }

  private onWatchResponse(response: RpcWatchResponse): void {
    if (response.created) {
      this.watchId = response.watchId;
      this.watching = true;
      return;
    }
    if (response.canceled) {
      if (response.compactRevision > 0) {
        // Our history is gone from etcd (we were away longer than the compaction window): start over.
        this.resync(response.compactRevision);
        return;
      }
      this.log(`etcd cancelled the watch: ${response.cancelReason}`);
      this.stream?.cancel();
      return;
    }
    if (response.events.length === 0) return;
    const time = this.options.clock.now();
    const events: StoreEvent[] = [];
    let top = this.mirror.revision;
    for (const raw of response.events) {
      const revision = raw.kv.modRevision;
      if (revision <= this.mirror.revision) continue; // replayed after a reconnect
      if (revision > top) top = revision;
      if (raw.type === 'DELETE') this.etcdCount--;
      else if (raw.kv.version === 1) this.etcdCount++;
      const event = this.toEvent(raw);
      if (event) events.push(event);
    }
    if (top > this.mirror.revision) this.mirror.apply(events, time, top);
  }

  /** The cache lost its place in etcd's history: reload the current state; watches must start over (410). */
  private resync(compacted: Revision): void {
    this.closeStream();
    this.log(`etcd history was compacted to ${compacted} while this server was behind; reloading`);
    this.mirror.hub.closeAll(new CompactedError(this.mirror.revision, compacted));
    void (async () => {
      try {
        const current = (await this.client.range({ key: this.root, countOnly: true })).header.revision;
        const base = await this.readAll(current);
        const kvs: KeyValue[] = [];
        for (const raw of base) {
          const kv = this.toKeyValue(raw);
          if (kv) kvs.push(kv);
        }
        // The reloaded state is the cache's new base: nothing older is retained.
        this.mirror = new Mirror(kvs, current);
        this.etcdCount = base.length;
        this.openWatch(current + 1);
      } catch (err) {
        this.log(`reloading from etcd failed: ${(err as Error).message}`);
        if (!this.closed) setTimeout(() => this.resync(compacted), 1000).unref?.();
      }
    })();
  }

  private closeStream(): void {
    const stream = this.stream;
    this.stream = undefined;
    if (stream) {
      try {
        stream.cancel();
      } catch {
        // already ended
      }
    }
  }

  // ---- decoding etcd's key-values ----

  private mapped(etcdKey: string): { key: string; mapped: MappedKey } | undefined {
    const mapped = this.layout.fromEtcd(etcdKey);
    const key = mapped && this.layout.kubeTabKey(etcdKey);
    return mapped && key !== undefined ? { key, mapped } : undefined;
  }

  private toKeyValue(raw: RpcKeyValue): KeyValue | undefined {
    const found = this.mapped(raw.key.toString('utf8'));
    if (!found) return undefined;
    return {
      key: found.key,
      value: decodeValue(found.mapped, raw.value, raw.modRevision),
      createRevision: raw.createRevision,
      modRevision: raw.modRevision,
      version: raw.version,
    };
  }

  private toEvent(raw: RpcEvent): StoreEvent | undefined {
    const found = this.mapped(raw.kv.key.toString('utf8'));
    if (!found) return undefined;
    const revision = raw.kv.modRevision;
    // A prevKv older than the cache's own copy is the cache's copy (same bytes): reuse it, decoded once.
    const prevKv = raw.prevKv && raw.prevKv.modRevision > 0 ? (this.mirror.at(found.key, revision - 1) ?? this.toKeyValue(raw.prevKv)) : undefined;
    if (raw.type === 'DELETE') {
      const kv: KeyValue = prevKv
        ? { ...prevKv, modRevision: revision }
        : { key: found.key, value: '', createRevision: 0, modRevision: revision, version: 0 };
      return prevKv ? { type: 'delete', kv, prevKv, revision } : { type: 'delete', kv, revision };
    }
    const kv: KeyValue = {
      key: found.key,
      value: decodeValue(found.mapped, raw.kv.value, revision),
      createRevision: raw.kv.createRevision,
      modRevision: revision,
      version: raw.kv.version,
    };
    return prevKv && raw.kv.version > 1 ? { type: 'put', kv, prevKv, revision } : { type: 'put', kv, revision };
  }

  // ---- waiting for the cache ----

  /** Resolves when the cache has reached `revision` (which etcd has reached). */
  private async waitForMirror(revision: Revision): Promise<void> {
    if (this.mirror.revision >= revision) return;
    const deadline = Date.now() + this.syncTimeoutMs;
    for (let wait = QUIET_CHECK_MS; ; wait = Math.min(wait * 2, 1000)) {
      if (await this.reachedWithin(revision, wait)) return;
      // No event came: perhaps none is due (the writes since were outside the prefix, such as compact_rev_key).
      if (await this.nothingDueUpTo(revision)) {
        this.mirror.advance(revision);
        return;
      }
      if (Date.now() >= deadline) {
        throw new EtcdUnavailableError(`timed out waiting for the watch cache to reach revision ${revision} (at ${this.mirror.revision})`);
      }
    }
  }

  private reachedWithin(revision: Revision, ms: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(this.mirror.revision >= revision), ms);
      void this.mirror.reached(revision).then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /**
   * Whether the cache already holds the prefix as of `revision`: no key under
   * the prefix was written after the cache's revision (modified keys would show
   * with min_mod_revision) and none was deleted (the count is unchanged, since
   * a delete offset by a create would show the create).
   */
  private async nothingDueUpTo(revision: Revision): Promise<boolean> {
    const seen = this.mirror.revision;
    const count = this.etcdCount;
    const [modified, total] = await Promise.all([
      this.client.range({ key: this.root, rangeEnd: this.rootEnd, revision, keysOnly: true, limit: 1, minModRevision: seen + 1 }),
      this.client.range({ key: this.root, rangeEnd: this.rootEnd, revision, countOnly: true }),
    ]);
    return this.mirror.revision === seen && modified.kvs.length === 0 && total.count === count;
  }

  /** kube's consistent read: etcd's current revision, then the cache at (at least) it. */
  private async sync(): Promise<void> {
    const current = (await this.client.range({ key: this.root, countOnly: true })).header.revision;
    await this.waitForMirror(current);
  }

  private async whenReady(): Promise<void> {
    if (this.closed) throw new StorageError('the store is closed');
    await this.readyPromise;
    if (this.closed) throw new StorageError('the store is closed');
  }

  // ---- the MvccStore contract: reads ----

  ready(): Promise<void> {
    return this.readyPromise;
  }

  currentRevision(): Revision {
    return this.mirror?.revision ?? 0;
  }

  compactedRevision(): Revision {
    return this.mirror?.compacted ?? 0;
  }

  async get(key: string, revision?: Revision): Promise<KeyValue | undefined> {
    await this.whenReady();
    if (revision === undefined || revision === 0) {
      await this.sync();
      return this.mirror.current(key);
    }
    await this.checkReadable(revision);
    return this.mirror.at(key, revision);
  }

  async range(options: RangeOptions): Promise<RangeResult> {
    await this.whenReady();
    let revision = options.revision;
    if (revision === undefined || revision === 0) {
      await this.sync();
      revision = this.mirror.revision;
    } else await this.checkReadable(revision);
    return this.mirror.range(options, revision);
  }

  private async checkReadable(revision: Revision): Promise<void> {
    // A revision another server handed out may be newer than this cache: etcd says whether it exists yet.
    if (revision > this.mirror.revision) await this.sync();
    if (revision > this.mirror.revision) throw new FutureRevisionError(revision, this.mirror.revision);
    if (revision < this.mirror.compacted) throw new CompactedError(revision, this.mirror.compacted);
  }

  watch(options: WatchOptions, watcher: Watcher): WatchHandle {
    if (this.closed) throw new StorageError('the store is closed');
    if (this.mirror && options.afterRevision < this.mirror.compacted) throw new CompactedError(options.afterRevision, this.mirror.compacted);
    const register = () => this.mirror.hub.register(options.prefix, options.afterRevision, watcher);
    if (this.mirror) {
      const { state, handle } = register();
      queueMicrotask(() => this.catchUp(state));
      return handle;
    }
    let inner: WatchHandle | undefined;
    let cancelled = false;
    this.readyPromise.then(
      () => {
        if (cancelled) return;
        if (options.afterRevision < this.mirror.compacted) {
          watcher.onClose?.(new CompactedError(options.afterRevision, this.mirror.compacted));
          return;
        }
        const { state, handle } = register();
        inner = handle;
        this.catchUp(state);
      },
      (err: unknown) => watcher.onClose?.(err instanceof Error ? err : new StorageError(String(err))),
    );
    return {
      cancel: () => {
        cancelled = true;
        inner?.cancel();
      },
    };
  }

  private catchUp(state: Parameters<Mirror['hub']['catchUp']>[0]): void {
    if (state.closed) return;
    if (state.seen < this.mirror.compacted) {
      this.mirror.hub.close(state, new CompactedError(state.seen, this.mirror.compacted));
      return;
    }
    this.mirror.hub.catchUp(state, this.mirror.eventsAfter(state.seen, state.prefix));
  }

  // ---- writes ----

  create(key: string, value: (revision: Revision) => string, whileCommitting?: (kv: KeyValue) => void): Promise<KeyValue> {
    return this.write([{ op: 'create', key, value }], whileCommitting).then((kvs) => kvs[0]!);
  }

  update(key: string, expectedModRevision: Revision, value: (revision: Revision) => string): Promise<KeyValue> {
    return this.write([{ op: 'update', key, expectedModRevision, value }]).then((kvs) => kvs[0]!);
  }

  delete(key: string, expectedModRevision: Revision): Promise<KeyValue> {
    return this.write([{ op: 'delete', key, expectedModRevision }]).then((kvs) => kvs[0]!);
  }

  async batch(ops: readonly BatchOp[]): Promise<KeyValue[]> {
    const seen = new Set<string>();
    for (const op of ops) {
      if (seen.has(op.key)) throw new StorageError(`duplicate key given in txn request: ${op.key}`, op.key);
      seen.add(op.key);
    }
    if (ops.length === 0) return [];
    return this.write(ops);
  }

  async guaranteedUpdate(
    key: string,
    tryUpdate: (current: KeyValue | undefined) => UpdateDecision | Promise<UpdateDecision>,
    options: GuaranteedUpdateOptions = {},
  ): Promise<KeyValue | undefined> {
    const maxRetries = options.maxRetries ?? 100;
    await this.whenReady();
    // As kube: the cache's copy is a suggestion; a stale one costs one conflict, which brings etcd's.
    let current = this.mirror.current(key);
    for (let attempt = 0; ; attempt++) {
      if (current === undefined && !options.ignoreNotFound) {
        current = await this.get(key);
        if (current === undefined) throw new NotFoundError('key not found', key);
      }
      const decision = await tryUpdate(current);
      try {
        if (decision.action === 'none') return current;
        if (decision.action === 'delete') {
          if (current === undefined) return undefined;
          return await this.delete(key, current.modRevision);
        }
        return current === undefined ? await this.create(key, decision.value) : await this.update(key, current.modRevision, decision.value);
      } catch (err) {
        if (err instanceof ConflictError) current = err.current;
        else if (err instanceof KeyExistsError) current = await this.get(key);
        else if (err instanceof NotFoundError) current = undefined;
        else throw err;
        if (attempt >= maxRetries) throw err;
      }
    }
  }

  /**
   * One etcd transaction for `ops`; resolves once the cache has applied it.
   * Writes of this server to one key reach etcd in the order they were made
   * (each waits for the one before it on its keys, as the engine's queue
   * orders them); writes to different keys go to etcd together.
   */
  private async write(ops: readonly BatchOp[], whileCommitting?: (kv: KeyValue) => void): Promise<KeyValue[]> {
    await this.whenReady();
    const before = ops.map((op) => this.keyChains.get(op.key)).filter((p): p is Promise<void> => p !== undefined);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    for (const op of ops) this.keyChains.set(op.key, mine);
    try {
      if (before.length > 0) await Promise.all(before);
      return await this.commit(ops, whileCommitting);
    } finally {
      for (const op of ops) if (this.keyChains.get(op.key) === mine) this.keyChains.delete(op.key);
      release();
    }
  }

  private async commit(ops: readonly BatchOp[], whileCommitting?: (kv: KeyValue) => void): Promise<KeyValue[]> {
    // etcd assigns the revision; the ValueFn gets the one this write will receive if nothing else commits first.
    // KubeTab's objects do not depend on it: their resourceVersion is not stored but set from mod_revision on read.
    const predicted = Math.max(this.mirror.revision, this.lastPredicted) + 1;
    this.lastPredicted = predicted;
    const compare: RpcCompare[] = [];
    const success: RpcRequestOp[] = [];
    const failure: RpcRequestOp[] = [];
    const targets: { etcdKey: Buffer; mapped: MappedKey; bytes?: Buffer }[] = [];
    try {
      for (const op of ops) {
        const mapped = this.layout.toEtcd(op.key);
        const etcdKey = Buffer.from(mapped.etcdKey);
        failure.push({ requestRange: { key: etcdKey } });
        if (op.op === 'create') {
          compare.push({ result: 'EQUAL', target: 'CREATE', key: etcdKey, createRevision: 0 });
        } else {
          compare.push({ result: 'EQUAL', target: 'MOD', key: etcdKey, modRevision: op.expectedModRevision });
        }
        if (op.op === 'delete') {
          success.push({ requestDeleteRange: { key: etcdKey } });
          targets.push({ etcdKey, mapped });
        } else {
          const bytes = encodeValue(mapped, op.value(predicted), op.key);
          success.push({ requestPut: { key: etcdKey, value: bytes } });
          targets.push({ etcdKey, mapped, bytes });
        }
      }
    } catch (err) {
      if (this.lastPredicted === predicted) this.lastPredicted--;
      throw err;
    }
    const response = await this.client.txn({ compare, success, failure });
    if (!response.succeeded) {
      if (this.lastPredicted === predicted) this.lastPredicted--;
      throw this.failureOf(ops, response.responses.map((r) => r.responseRange?.kvs[0]));
    }
    const revision = response.header.revision;
    if (whileCommitting && ops.length === 1 && ops[0]!.op === 'create') {
      // The value as the cache will hold it, for the caller to prepare its answer while the cache catches up.
      try {
        const target = targets[0]!;
        whileCommitting({ key: ops[0]!.key, value: decodeValue(target.mapped, target.bytes!, revision), createRevision: revision, modRevision: revision, version: 1 });
      } catch {
        // The caller's own affair.
      }
    }
    await this.waitForMirror(revision);
    return ops.map((op) => {
      if (op.op !== 'delete') {
        const kv = this.mirror.at(op.key, revision);
        if (kv && kv.modRevision === revision) return kv;
        // Written but no longer retained here (a later write, compaction): what the write stored.
        throw new StorageError(`the write of ${op.key} at revision ${revision} is not in the watch cache`, op.key);
      }
      const before = this.mirror.at(op.key, revision - 1);
      return before ? { ...before, modRevision: revision } : { key: op.key, value: '', createRevision: 0, modRevision: revision, version: 0 };
    });
  }

  /** The error of a failed transaction: the first operation whose condition did not hold. */
  private failureOf(ops: readonly BatchOp[], currents: (RpcKeyValue | undefined)[]): Error {
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      const raw = currents[i];
      if (op.op === 'create') {
        if (raw) return new KeyExistsError('key exists', op.key);
        continue;
      }
      if (!raw) return new NotFoundError('key not found', op.key);
      if (raw.modRevision !== op.expectedModRevision) {
        return new ConflictError(
          `the key has been modified: expected modRevision ${op.expectedModRevision}, found ${raw.modRevision}`,
          op.key,
          this.toKeyValue(raw),
        );
      }
    }
    return new ConflictError('the transaction failed its comparisons', ops[0]!.key, undefined);
  }

  // ---- compaction ----

  async compact(revision: Revision): Promise<void> {
    await this.whenReady();
    if (revision > this.mirror.revision) await this.sync();
    if (revision > this.mirror.revision) throw new FutureRevisionError(revision, this.mirror.revision);
    try {
      await this.client.compact(revision);
    } catch (err) {
      // Already compacted further: nothing to do, as in the engine.
      if (!(err instanceof CompactedError)) throw err;
    }
    this.mirror.compactTo(revision);
  }

  /** Compaction runs on its own interval (compactor.ts), as kube-apiserver's; nothing is due on demand. */
  async compactExpired(): Promise<void> {
    await this.whenReady();
  }

  // ---- lifecycle ----

  /** Deletes every key under the prefix and compacts etcd to that delete: nothing of it can be read any more. */
  async wipe(): Promise<void> {
    await this.whenReady();
    const response = await this.client.txn({ compare: [], success: [{ requestDeleteRange: { key: this.root, rangeEnd: this.rootEnd } }], failure: [] });
    const revision = response.header.revision;
    await this.waitForMirror(revision);
    try {
      await this.client.compact(revision);
    } catch (err) {
      if (!(err instanceof CompactedError)) throw err;
    }
    this.mirror.hub.closeAll(new StorageError('the store was wiped'));
    this.mirror.clear(revision);
  }

  /** Whether etcd answers: the watch stream is up (lost when etcd goes, created again when it returns). */
  healthy(): boolean {
    return !this.closed && this.watching;
  }

  /** kube's endpoint reconciler records of the API servers on this etcd (master-leases.ts). */
  masterLeases(): EtcdMasterLeases {
    return new EtcdMasterLeases(this.client, this.layout.root);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.compactor?.stop();
    this.closeStream();
    this.mirror?.hub.closeAll(new StorageError('the store is closed'));
    this.client.close();
  }

  private log(message: string): void {
    (this.options.log ?? ((m: string) => console.warn(m)))(message);
  }
}
