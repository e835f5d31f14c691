// The storage contract: an etcd3-like multi-version key-value store.
//
// Kubernetes' resourceVersion semantics are etcd3's revision semantics seen
// through the API, so the store reproduces them rather than inventing its own:
//
// - One global revision counter. Every successful write (create, update,
//   delete) advances it by exactly one and is stamped with the new value.
//   Revisions are decimal integers that only grow; a new or wiped store starts
//   above any revision it could have handed out before (see `Persistence`).
// - Per key: `createRevision` (revision of the write that created this
//   incarnation of the key), `modRevision` (revision of its last write; this
//   is the object's metadata.resourceVersion) and `version` (writes since the
//   key was created, 1 for a fresh key; deleted keys start again at 1).
// - Writes are compare-and-swap on `modRevision` (etcd's Txn
//   If(mod_revision == X) Then(Put) Else(Get)); `guaranteedUpdate` wraps that
//   in the optimistic-concurrency retry loop that kube-apiserver uses.
// - Reads are at the current revision or at any retained earlier revision.
// - Watches start after a given revision and deliver every later change to
//   keys under a prefix, in revision order, each with the previous value.
// - History older than the retention window is compacted. After compaction to
//   revision C, reads at revisions >= C still work; reads at revisions < C and
//   watches starting before C fail with `CompactedError` (the API turns that
//   into 410 Gone). Note: etcd's compact(C) keeps the state *at* C readable,
//   as here.
//
// Values are opaque strings to the store (the API layer stores JSON text).
// A write's value may depend on the revision it will get (`ValueFn`), so the
// stored text can carry its own resourceVersion and be served without
// re-encoding.

export type Revision = number;

export interface KeyValue {
  readonly key: string;
  readonly value: string;
  readonly createRevision: Revision;
  readonly modRevision: Revision;
  readonly version: number;
}

/** Produces the value to store, given the revision the write will receive. */
export type ValueFn = (revision: Revision) => string;

export interface RangeOptions {
  /** Keys that start with this prefix. Use a trailing '/' to mean "children of". */
  readonly prefix: string;
  /** Read the state as of this revision (default: current). */
  readonly revision?: Revision;
  /** Only keys strictly greater than this (continuation after the last key returned). */
  readonly after?: string;
  /** At most this many keys (0 or absent: no limit). */
  readonly limit?: number;
  /** Optional filter applied before `limit` counts (selectors); does not change `remaining`'s meaning: see RangeResult. */
  readonly filter?: (kv: KeyValue) => boolean;
}

export interface RangeResult {
  /** Matching keys in ascending key order. */
  readonly kvs: KeyValue[];
  /** The revision the range was read at. */
  readonly revision: Revision;
  /** True when more keys (after filtering) follow the last one returned. */
  readonly more: boolean;
  /**
   * Number of keys under the prefix after the last one returned, not counting the
   * filter (it is only meaningful without a filter, as in etcd's count).
   */
  readonly remaining: number;
}

export type WatchEventType = 'put' | 'delete';

export interface StoreEvent {
  readonly type: WatchEventType;
  /** For a put: the new value. For a delete: a tombstone with the previous value and the delete's modRevision. */
  readonly kv: KeyValue;
  /** The value before this change (absent for a create). */
  readonly prevKv?: KeyValue;
  /** The revision of this change (== kv.modRevision). */
  readonly revision: Revision;
}

export interface WatchOptions {
  readonly prefix: string;
  /** Deliver every change with revision > afterRevision. */
  readonly afterRevision: Revision;
}

export interface Watcher {
  /**
   * Called for each change, in revision order, synchronously after the change is
   * durable. Must not throw and must not block; buffer if needed.
   */
  onEvent(event: StoreEvent): void;
  /** Called once if the store cannot keep the watch going (closed, reset). */
  onClose?(reason: Error): void;
}

export interface WatchHandle {
  cancel(): void;
}

export type TryUpdate = (current: KeyValue) => UpdateDecision | Promise<UpdateDecision>;
export type UpdateDecision =
  | { readonly action: 'put'; readonly value: ValueFn }
  | { readonly action: 'delete' }
  | { readonly action: 'none' };

export interface GuaranteedUpdateOptions {
  /** When the key is absent: call tryUpdate with undefined instead of failing with NotFoundError. */
  readonly ignoreNotFound?: boolean;
  /** Give up after this many CAS conflicts (default 100). */
  readonly maxRetries?: number;
}

/** A write in a batch commit: all of a batch succeeds or none of it does. */
export type BatchOp =
  | { readonly op: 'create'; readonly key: string; readonly value: ValueFn }
  | { readonly op: 'update'; readonly key: string; readonly expectedModRevision: Revision; readonly value: ValueFn }
  | { readonly op: 'delete'; readonly key: string; readonly expectedModRevision: Revision };

export interface MvccStore {
  /** Resolves when the store can answer every kind of request (history and full state loaded). */
  ready(): Promise<void>;

  currentRevision(): Revision;
  /**
   * Whether the backing store answers now (kube-apiserver's etcd health check); absent: always (a
   * store in this process). /readyz and /livez report it as their `etcd` check.
   */
  healthy?(): boolean;
  /** Lowest revision that can still be read (see compaction above). */
  compactedRevision(): Revision;

  get(key: string, revision?: Revision): Promise<KeyValue | undefined>;
  range(options: RangeOptions): Promise<RangeResult>;

  /**
   * Fails with KeyExistsError when the key exists. `whileCommitting` gets the
   * value as it will be stored once the commit has been handed to persistence
   * and before it is durable: the caller can prepare its answer in the
   * meantime, and must drop it if the create then fails. What it throws is
   * ignored.
   */
  create(key: string, value: ValueFn, whileCommitting?: (kv: KeyValue) => void): Promise<KeyValue>;
  /** Fails with NotFoundError when absent, ConflictError when modRevision differs. */
  update(key: string, expectedModRevision: Revision, value: ValueFn): Promise<KeyValue>;
  /** Returns the deleted value (with the delete's revision as modRevision). Same failures as update. */
  delete(key: string, expectedModRevision: Revision): Promise<KeyValue>;
  /** Several writes, atomically, consecutive revisions. Same failures as the single ops. */
  batch(ops: readonly BatchOp[]): Promise<KeyValue[]>;

  /**
   * Read-modify-write with retries: reads the current value, asks tryUpdate
   * what to do, and applies it with a compare-and-swap; on a conflict reads
   * again and retries. Returns the stored value (or the deleted one), or the
   * current value when tryUpdate answered 'none'. Errors thrown by tryUpdate
   * propagate unchanged.
   */
  guaranteedUpdate(
    key: string,
    tryUpdate: (current: KeyValue | undefined) => UpdateDecision | Promise<UpdateDecision>,
    options?: GuaranteedUpdateOptions,
  ): Promise<KeyValue | undefined>;

  /** Fails synchronously with CompactedError when afterRevision < compactedRevision(). */
  watch(options: WatchOptions, watcher: Watcher): WatchHandle;

  /** Drops history below `revision` (no-op if already compacted further). */
  compact(revision: Revision): Promise<void>;

  /** Removes everything and restarts the revision counter above any previous one. */
  wipe(): Promise<void>;

  close(): Promise<void>;
}

// ---- errors: the API layer maps these to Status responses ----

export class StorageError extends Error {
  constructor(message: string, readonly key?: string) {
    super(message);
    this.name = new.target.name;
  }
}
/**
 * The backend (etcd) did not answer before the request's deadline: nothing is known about the
 * outcome of a write. The API answers it as kube-apiserver's request timeout does (504).
 */
export class StorageUnavailableError extends StorageError {}
export class KeyExistsError extends StorageError {}
export class NotFoundError extends StorageError {}
export class ConflictError extends StorageError {
  constructor(message: string, key: string, readonly current: KeyValue | undefined) {
    super(message, key);
  }
}
/** The requested revision is older than the compacted one. */
export class CompactedError extends StorageError {
  constructor(readonly requested: Revision, readonly compacted: Revision) {
    super(`required revision ${requested} has been compacted (compacted revision ${compacted})`);
  }
}
/** The requested revision is newer than the current one. */
export class FutureRevisionError extends StorageError {
  constructor(readonly requested: Revision, readonly current: Revision) {
    super(`required revision ${requested} is a future revision (current ${current})`);
  }
}
/** The persistent layer failed (quota, I/O): nothing of the write was kept. */
export class PersistenceError extends StorageError {}
/** A stored record could not be decoded. */
export class CorruptRecordError extends StorageError {}

// ---- persistence: what a durable backend provides to the in-memory engine ----

/** A committed change as persisted, enough to rebuild state and history. */
export interface PersistedChange {
  readonly revision: Revision;
  readonly type: WatchEventType;
  readonly key: string;
  /** New value for a put; absent for a delete. */
  readonly value?: string;
  readonly createRevision: Revision;
  readonly version: number;
  /** Commit time (clock milliseconds), used by time-based compaction after a restart. */
  readonly time: number;
  /**
   * The key's value just before this change (absent for a create). Without it
   * a restarted store could not give the first change after the compacted
   * revision its prevKv, nor answer a read at the compacted revision for a key
   * changed since (added for the engine; see docs/decisions/0011).
   */
  readonly prev?: KeyValue;
}

export interface PersistedMeta {
  readonly revision: Revision;
  readonly compactedRevision: Revision;
}

/**
 * A durable home for the store. The engine keeps the current state and the
 * retained history in memory and writes through to this; on start it loads
 * from it. One `commit` call is one atomic transaction.
 */
export interface Persistence {
  /**
   * Optional: opens the connection only, reading nothing; open() then uses it.
   * A host can connect while it waits for what must come before open (the
   * store's lock), so that a cold start does not wait for both in turn.
   */
  connect?(): Promise<void>;
  /** Opens (creating if needed) and returns the persisted meta; a new store chooses its starting revision. */
  open(initialRevision: Revision): Promise<PersistedMeta>;
  /** Current value of one key, read directly (used before the full load finishes). */
  getCurrent(key: string): Promise<KeyValue | undefined>;
  /**
   * Optional (added for cold starts, docs/decisions/0131): the current values
   * of the keys under `prefix`, strictly after `after` when given, in
   * ascending key order, read directly — so that a range at the current
   * revision need not wait for the full load either.
   */
  rangeCurrent?(prefix: string, after?: string): Promise<KeyValue[]>;
  /** Every current key-value, in any order. */
  loadCurrent(): Promise<KeyValue[]>;
  /** The retained changes with revision > compactedRevision, ascending. */
  loadHistory(): Promise<PersistedChange[]>;
  /** Writes changes and the new meta atomically. Rejects with PersistenceError and keeps nothing on failure. */
  commit(changes: readonly PersistedChange[], meta: PersistedMeta): Promise<void>;
  /** Forgets changes with revision < compactedRevision and records it. */
  compact(meta: PersistedMeta): Promise<void>;
  /** Removes everything, then records the given meta. */
  wipe(meta: PersistedMeta): Promise<void>;
  /**
   * Optional (added for the cluster import, docs/decisions/0172): removes
   * everything and writes `changes` and `meta`, all in ONE atomic
   * transaction — a failure keeps the previous contents whole. Changes at or
   * below `meta.compactedRevision` leave no history.
   */
  replace?(changes: readonly PersistedChange[], meta: PersistedMeta): Promise<void>;
  close(): Promise<void>;
}
