// The browser's durable home for the store: one IndexedDB database.
//
// Object stores (docs/decisions/0012-indexeddb-layout.md):
// - meta:    'meta' → { revision, compactedRevision }
// - kv:      key → { value, createRevision, modRevision, version } (current values)
// - changes: revision → PersistedChange (the retained history)
// Keys are out-of-line (the object key for kv, the revision for changes), so
// a record whose value cannot be decoded still has a usable key.
//
// A put's change record does not repeat the value it wrote (docs/decisions/
// 0130): that value is either still current (the kv record) or it is the
// `prev` of the key's next change, which every update and delete stores. The
// load puts it back, so loadHistory returns whole changes. Each object's
// text is thus written once per write instead of twice, and read once at a
// cold start instead of twice. Changes at or below the commit's compacted
// revision are not written at all (an import writes its objects as already
// compacted history): they would be dropped unread.
//
// Loads read in chunks of CHUNK records, each chunk one request issued after
// the previous one has arrived, and while direct reads (getCurrent,
// rangeCurrent: the requests a cold start serves before the load ends) are
// under way the load asks for no more: they wait for at most the chunk in
// flight, not for the whole database (docs/decisions/0131).
//
// Each commit is one readwrite transaction (kv and changes, and meta when it
// must be written): every request is issued synchronously, the transaction
// is committed explicitly, then awaited. Nothing
// but IndexedDB is awaited while it is open (an await on anything else would
// let the transaction auto-commit half-way). A failed request or transaction
// (quota, disk) aborts it, so nothing of the commit is kept, and the commit
// rejects with PersistenceError.
//
// Damage is refused, never loaded short (issue 16 item 15): IndexedDB
// commits whole transactions, so unlike a file log nothing is ever torn, and
// a meta record that is missing (beside other records) or malformed, a change
// record that cannot be decoded, or a current record newer than the revision
// the history reaches (its newest change records lost) rejects the load with
// a PersistenceError naming the database and what to do. Loading short would
// hand out resourceVersions lower than some already handed out. A current
// record that cannot be decoded is the exception: it reads as absent, a
// request for it answers kube's StoreReadError, and it can be deleted
// (undecodableKeys, dropUndecodable).

import { unwrap, wrap, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { prefixEnd } from '../core/storage/sorted-keys';
import {
  PersistenceError,
  type KeyValue,
  type PersistedChange,
  type PersistedMeta,
  type Persistence,
  type Revision,
} from '../core/storage/types';

interface StoredValue {
  readonly value: string;
  readonly createRevision: Revision;
  readonly modRevision: Revision;
  readonly version: number;
}

interface StoreSchema extends DBSchema {
  meta: { key: string; value: PersistedMeta };
  kv: { key: string; value: StoredValue };
  changes: { key: number; value: StoredChange };
}

const SCHEMA_VERSION = 1;
const META_KEY = 'meta';
/** Records per load request: small enough that a point read never waits long behind one, large enough to keep round trips few. */
const CHUNK = 128;

/** What a `changes` record holds: a put's value is left out (see above), older records may still have it. */
type StoredChange = Omit<PersistedChange, 'value'> & { readonly value?: string };

export interface IndexedDbPersistenceOptions {
  readonly dbName: string;
  /** Defaults to the global `indexedDB`. */
  readonly indexedDB?: IDBFactory;
}

export interface IndexedDbPersistence extends Persistence {
  /** Keys of current-value records that could not be decoded at the last load (they read as absent). */
  undecodableKeys(): readonly string[];
  /** Deletes the current-value records that cannot be decoded; returns their keys. */
  dropUndecodable(): Promise<string[]>;
}

export function createIndexedDbPersistence(options: IndexedDbPersistenceOptions): IndexedDbPersistence {
  let db: IDBPDatabase<StoreSchema> | undefined;
  let undecodable: string[] = [];
  /** The revision open() found, raised by every commit: no stored record may be newer (the revision floor). */
  let knownRevision: number | undefined;
  const damaged = (what: string) =>
    new PersistenceError(`IndexedDB database ${options.dbName}: ${what}; restore the cluster from an exported archive, or reset its storage to start an empty cluster`);
  /**
   * The current records as one load read them. loadHistory needs them to put
   * back the values its put changes leave out, and the engine asks for both at
   * once: one read serves the two. Any write drops it (it would be stale).
   */
  let currentSnapshot: Promise<KeyValue[]> | undefined;
  /** Direct reads under way, which a load lets go first. */
  const foreground = new Set<Promise<unknown>>();

  /** Runs a direct read; a load holds its next chunk back until the reads under way have ended. */
  function directRead<T>(read: () => Promise<T>): Promise<T> {
    const running = read();
    const settled: Promise<unknown> = running.then(
      () => foreground.delete(settled),
      () => foreground.delete(settled),
    );
    foreground.add(settled);
    return running;
  }
  /** The reads under way now (not those that come later: a steady stream of reads must not starve the load). */
  const waitForForeground = (): Promise<void> | undefined =>
    foreground.size === 0 ? undefined : Promise.all([...foreground]).then(() => undefined);

  function database(): IDBPDatabase<StoreSchema> {
    if (!db) throw new PersistenceError(`IndexedDB database ${options.dbName} is not open`);
    return db;
  }

  /**
   * Runs one readwrite transaction whose requests `issue` makes synchronously,
   * on the plain IndexedDB objects: a commit is on every write's path, and
   * idb's promise and listeners per request cost more than the puts
   * themselves (docs/decisions/0130). A request that fails aborts the
   * transaction (its default action), so `abort` reports every failure.
   */
  type StoreName = 'meta' | 'kv' | 'changes';
  async function write(stores: StoreName[], issue: (tx: IDBTransaction) => void): Promise<void> {
    currentSnapshot = undefined;
    let tx: IDBTransaction;
    try {
      tx = unwrap(database()).transaction(stores, 'readwrite');
    } catch (err) {
      throw asPersistenceError(err);
    }
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onabort = () => reject(tx.error ?? new DOMException('The transaction was aborted.', 'AbortError'));
    });
    try {
      issue(tx);
      // Every request is issued: commit now rather than when their success
      // events have come back to this thread (auto-commit), one round trip
      // less on every write's path (about a third of a millisecond in
      // Chromium). A request that fails still aborts the transaction.
      tx.commit();
    } catch (err) {
      // A request could not even be made (e.g. an invalid key): give everything up.
      try {
        tx.abort();
      } catch {
        // already finished
      }
      await done.catch(() => {});
      throw asPersistenceError(err);
    }
    try {
      await done;
    } catch (err) {
      throw asPersistenceError(err);
    }
  }

  /** Every current record, read in chunks (see above); records that cannot be decoded are counted in `undecodable`. */
  async function readCurrent(): Promise<KeyValue[]> {
    try {
      const out: KeyValue[] = [];
      const bad: string[] = [];
      await readChunks(
        database(),
        'kv',
        null,
        (keys, values) => {
          for (let i = 0; i < keys.length; i++) {
            const kv = decodeValue(keys[i]!, values[i]);
            if (!kv) bad.push(keys[i]!);
            else if (knownRevision !== undefined && kv.modRevision > knownRevision) {
              throw damaged(`the current record of ${kv.key} was written at revision ${kv.modRevision}, after the newest change record (${knownRevision}): change records are missing`);
            } else out.push(kv);
          }
        },
        waitForForeground,
      );
      undecodable = bad;
      if (bad.length > 0) console.warn(`kubetab storage: skipped ${bad.length} undecodable record(s): ${bad.slice(0, 5).join(', ')}`);
      return out;
    } catch (err) {
      currentSnapshot = undefined;
      throw asPersistenceError(err);
    }
  }

  let connecting: Promise<IDBPDatabase<StoreSchema>> | undefined;
  /** One connection for connect() and open(); a failed one is not kept, so the next call tries again. */
  const connection = (): Promise<IDBPDatabase<StoreSchema>> => {
    connecting ??= openDatabase(options.indexedDB ?? indexedDB, options.dbName).catch((err: unknown) => {
      connecting = undefined;
      throw err;
    });
    return connecting;
  };

  return {
    async connect() {
      try {
        await connection();
      } catch (err) {
        throw asPersistenceError(err);
      }
    },

    async open(initialRevision) {
      try {
        db = await connection();
        const tx = db.transaction(['meta', 'kv', 'changes'], 'readwrite');
        const stored = await tx.objectStore('meta').get(META_KEY);
        // Commits that write history leave the meta record alone: the newest change's key is the revision then.
        const newest = await tx.objectStore('changes').openKeyCursor(null, 'prev');
        let meta = stored === undefined ? undefined : decodeMeta(stored);
        if (stored !== undefined && !meta) throw damaged('the meta record is damaged');
        if (!meta) {
          // Every database that holds anything has its meta record (open() writes it first): without it the revision is unknown.
          const anyCurrent = await tx.objectStore('kv').openKeyCursor();
          if (newest || anyCurrent) throw damaged('the meta record is missing');
          meta = { revision: initialRevision, compactedRevision: initialRevision };
          await tx.objectStore('meta').put(meta, META_KEY);
        }
        await tx.done;
        if (newest && typeof newest.key === 'number' && newest.key > meta.revision) meta = { ...meta, revision: newest.key };
        knownRevision = meta.revision;
        return meta;
      } catch (err) {
        throw asPersistenceError(err);
      }
    },

    getCurrent(key) {
      return directRead(async () => {
        try {
          const stored = await database().get('kv', key);
          return stored === undefined ? undefined : decodeValue(key, stored);
        } catch (err) {
          throw asPersistenceError(err);
        }
      });
    },

    loadCurrent() {
      currentSnapshot ??= readCurrent();
      return currentSnapshot;
    },

    rangeCurrent(prefix, after) {
      return directRead(async () => {
        try {
          const exclusive = after !== undefined && after >= prefix;
          const from = exclusive ? after : prefix;
          const end = prefixEnd(prefix);
          const range = end === undefined ? IDBKeyRange.lowerBound(from, exclusive) : IDBKeyRange.bound(from, end, exclusive, true);
          const out: KeyValue[] = [];
          await readChunks(database(), 'kv', range, (keys, values) => {
            for (let i = 0; i < keys.length; i++) {
              // An undecodable record reads as absent, as in the full load.
              const kv = decodeValue(keys[i]!, values[i]);
              if (kv) out.push(kv);
            }
          });
          return out;
        } catch (err) {
          throw asPersistenceError(err);
        }
      });
    },

    async loadHistory() {
      try {
        const compacted = (decodeMeta(await database().get('meta', META_KEY))?.compactedRevision) ?? 0;
        const stored: StoredChange[] = [];
        await readChunks(
          database(),
          'changes',
          IDBKeyRange.lowerBound(compacted, true),
          (keys, values) => {
            for (let i = 0; i < keys.length; i++) {
              const change = decodeChange(values[i]);
              if (!change || change.revision !== keys[i]) throw damaged(`the change record of revision ${keys[i]} is damaged`);
              stored.push(change);
            }
          },
          waitForForeground,
        );
        const needsCurrent = stored.some((c) => c.type === 'put' && c.value === undefined);
        const current = needsCurrent ? await (currentSnapshot ?? readCurrent()) : [];
        currentSnapshot = undefined;
        return withValues(stored, current);
      } catch (err) {
        throw asPersistenceError(err);
      }
    },

    commit(changes, meta) {
      knownRevision = Math.max(knownRevision ?? 0, meta.revision);
      return write(commitStores(changes, meta), (tx) => putChanges(tx, changes, meta));
    },

    replace(changes, meta) {
      knownRevision = meta.revision;
      // One transaction: a failure (quota) leaves the previous contents as they were.
      return write(['meta', 'kv', 'changes'], (tx) => {
        tx.objectStore('kv').clear();
        tx.objectStore('changes').clear();
        tx.objectStore('meta').clear();
        putChanges(tx, changes, meta, true);
      });
    },

    compact(meta) {
      return write(['meta', 'changes'], (tx) => {
        tx.objectStore('changes').delete(IDBKeyRange.upperBound(meta.compactedRevision, true));
        tx.objectStore('meta').put(meta, META_KEY);
      });
    },

    wipe(meta) {
      knownRevision = meta.revision;
      return write(['meta', 'kv', 'changes'], (tx) => {
        tx.objectStore('kv').clear();
        tx.objectStore('changes').clear();
        tx.objectStore('meta').clear();
        tx.objectStore('meta').put(meta, META_KEY);
      });
    },

    async close() {
      currentSnapshot = undefined;
      const pending = connecting;
      connecting = undefined;
      db?.close();
      db = undefined;
      // Connected but never opened (a start that failed before open): close that connection too.
      await pending?.then((opened) => opened.close()).catch(() => undefined);
    },

    undecodableKeys: () => undecodable,

    async dropUndecodable() {
      currentSnapshot = undefined;
      const keys = undecodable;
      // Checked again inside the transaction: the key may have been written (and so repaired) since the load.
      const dropped: string[] = [];
      const tx = database().transaction('kv', 'readwrite');
      const found = await Promise.all(keys.map((key) => tx.store.get(key)));
      const deletes: Promise<unknown>[] = [];
      found.forEach((stored, i) => {
        if (stored !== undefined && decodeValue(keys[i]!, stored) === undefined) {
          dropped.push(keys[i]!);
          deletes.push(tx.store.delete(keys[i]!));
        }
      });
      try {
        await Promise.all([...deletes, tx.done]);
      } catch (err) {
        throw asPersistenceError(err);
      }
      undecodable = [];
      return dropped;
    },
  };
}

/**
 * The stores a commit writes. The meta record is written only when no
 * history record carries the commit's revision (open() reads it from the
 * newest change otherwise): one put less per commit. The compacted revision
 * is recorded by compact(); until then more history than needed is kept,
 * never less.
 */
function commitStores(changes: readonly PersistedChange[], meta: PersistedMeta): ('meta' | 'kv' | 'changes')[] {
  return recordsRevision(changes, meta) ? ['kv', 'changes'] : ['meta', 'kv', 'changes'];
}

function recordsRevision(changes: readonly PersistedChange[], meta: PersistedMeta): boolean {
  const newest = changes[changes.length - 1];
  return newest !== undefined && newest.revision === meta.revision && !(newest.revision <= meta.compactedRevision);
}

/** Issues a commit's puts in `tx` (synchronously); `withMeta` writes the meta record whatever the changes. */
function putChanges(tx: IDBTransaction, changes: readonly PersistedChange[], meta: PersistedMeta, withMeta = false): void {
  const kv = tx.objectStore('kv');
  const log = tx.objectStore('changes');
  for (const change of changes) {
    // History at or below the compacted revision would be dropped unread (an import writes such changes).
    if (!(change.revision <= meta.compactedRevision)) log.put(storedChange(change), change.revision);
    if (change.type === 'delete') kv.delete(change.key);
    else {
      const stored: StoredValue = { value: change.value ?? '', createRevision: change.createRevision, modRevision: change.revision, version: change.version };
      kv.put(stored, change.key);
    }
  }
  if (withMeta || !recordsRevision(changes, meta)) tx.objectStore('meta').put(meta, META_KEY);
}

/**
 * Reads every record of `storeName` in `range` in ascending key order, CHUNK
 * at a time, in a readonly transaction (one consistent snapshot). The next
 * chunk is asked for only when the previous one has arrived, so requests of
 * other transactions get their turn in between. When `yieldTo` gives a
 * promise (direct reads are under way), the read lets the transaction end,
 * waits, and goes on in a new one: that happens only before a store's load
 * has ended, when nothing writes (docs/decisions/0131).
 */
async function readChunks<Name extends 'kv' | 'changes'>(
  database: IDBPDatabase<StoreSchema>,
  storeName: Name,
  range: IDBKeyRange | null,
  onChunk: (keys: StoreSchema[Name]['key'][], values: unknown[]) => void,
  yieldTo?: () => Promise<void> | undefined,
): Promise<void> {
  let tx: IDBPTransaction<StoreSchema, [Name], 'readonly'> | undefined;
  const ends: Promise<void>[] = [];
  let from = range;
  for (;;) {
    const wait = yieldTo?.();
    if (wait) {
      tx = undefined;
      await wait;
    }
    if (!tx) {
      tx = database.transaction(storeName, 'readonly');
      const done = tx.done;
      // Awaited at the end; a failure before then must not go unhandled.
      done.catch(() => {});
      ends.push(done);
    }
    // Keys and values of one range come back in the same (key) order: zip them.
    const [keys, values] = await Promise.all([tx.store.getAllKeys(from, CHUNK), tx.store.getAll(from, CHUNK)]);
    onChunk(keys, values);
    if (keys.length < CHUNK) break;
    const last = keys[keys.length - 1]!;
    from = range?.upper !== undefined ? IDBKeyRange.bound(last, range.upper, true, range.upperOpen) : IDBKeyRange.lowerBound(last, true);
  }
  await Promise.all(ends);
}

/** The record a change is stored as: a put's value lives in the kv record (and later in the next change's `prev`). */
function storedChange(change: PersistedChange): StoredChange {
  const { value: _value, ...rest } = change;
  return change.type === 'put' ? rest : change;
}

/**
 * Puts back the values that stored put changes leave out: the `prev` of the
 * key's next change, or else the key's current value. A put whose value is
 * found in neither (its current record could not be decoded) is dropped, as
 * an undecodable history record is.
 */
function withValues(stored: readonly StoredChange[], current: readonly KeyValue[]): PersistedChange[] {
  let byKey: Map<string, KeyValue> | undefined;
  /** Per key, the `prev` of the next (later) change seen so far, walking backwards. */
  const nextPrev = new Map<string, KeyValue | undefined>();
  const out: PersistedChange[] = [];
  for (let i = stored.length - 1; i >= 0; i--) {
    const change = stored[i]!;
    let full: PersistedChange | undefined = change as PersistedChange;
    if (change.type === 'put' && change.value === undefined) {
      let source: KeyValue | undefined;
      if (nextPrev.has(change.key)) source = nextPrev.get(change.key);
      else {
        byKey ??= new Map(current.map((kv) => [kv.key, kv]));
        source = byKey.get(change.key);
      }
      full = source !== undefined && source.modRevision === change.revision ? { ...change, value: source.value } : undefined;
    }
    nextPrev.set(change.key, change.prev);
    if (full) out.push(full);
  }
  return out.reverse();
}

function openDatabase(factory: IDBFactory, name: string): Promise<IDBPDatabase<StoreSchema>> {
  const request = factory.open(name, SCHEMA_VERSION);
  request.onupgradeneeded = () => {
    const raw = request.result;
    for (const store of ['meta', 'kv', 'changes']) if (!raw.objectStoreNames.contains(store)) raw.createObjectStore(store);
  };
  return (wrap(request) as Promise<IDBPDatabase<StoreSchema>>).then((opened) => {
    // Another tab upgrading or deleting the database: let it, this connection is done.
    opened.addEventListener('versionchange', () => opened.close());
    return opened;
  });
}

const isRevision = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

function decodeMeta(stored: unknown): PersistedMeta | undefined {
  const m = stored as Partial<PersistedMeta> | null;
  if (!m || typeof m !== 'object' || !isRevision(m.revision) || !isRevision(m.compactedRevision) || m.compactedRevision > m.revision) return undefined;
  return { revision: m.revision, compactedRevision: m.compactedRevision };
}

function decodeValue(key: string, stored: unknown): KeyValue | undefined {
  const s = stored as Partial<StoredValue> | null;
  if (!s || typeof s !== 'object' || typeof s.value !== 'string' || !isRevision(s.createRevision) || !isRevision(s.modRevision)) return undefined;
  if (!isRevision(s.version) || s.version < 1) return undefined;
  return { key, value: s.value, createRevision: s.createRevision, modRevision: s.modRevision, version: s.version };
}

function decodeChange(stored: unknown): StoredChange | undefined {
  const c = stored as Partial<PersistedChange> | null;
  if (!c || typeof c !== 'object' || typeof c.key !== 'string' || !isRevision(c.revision)) return undefined;
  if ((c.type !== 'put' && c.type !== 'delete') || !isRevision(c.createRevision) || !isRevision(c.version) || typeof c.time !== 'number') return undefined;
  // A put's value is absent in records written since docs/decisions/0130 and a string in older ones.
  if (c.type === 'put' && c.value !== undefined && typeof c.value !== 'string') return undefined;
  let prev: KeyValue | undefined;
  if (c.prev !== undefined) {
    prev = decodeValue(c.key, c.prev);
    if (!prev) return undefined;
  }
  const base = { revision: c.revision, type: c.type, key: c.key, createRevision: c.createRevision, version: c.version, time: c.time };
  return {
    ...base,
    ...(c.type === 'put' && c.value !== undefined ? { value: c.value } : {}),
    ...(prev ? { prev } : {}),
  };
}

function asPersistenceError(err: unknown): PersistenceError {
  if (err instanceof PersistenceError) return err;
  const name = (err as { name?: string } | null)?.name;
  const message = (err as { message?: string } | null)?.message ?? String(err);
  return new PersistenceError(`IndexedDB: ${name ? `${name}: ` : ''}${message}`);
}
