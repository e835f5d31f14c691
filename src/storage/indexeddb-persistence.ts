// The browser's durable home for the store: one IndexedDB database.
//
// Object stores (docs/decisions/0012-indexeddb-layout.md):
// - meta:    'meta' → { revision, compactedRevision }
// - kv:      key → { value, createRevision, modRevision, version } (current values)
// - changes: revision → PersistedChange (the retained history)
// Keys are out-of-line (the object key for kv, the revision for changes), so
// a record whose value cannot be decoded still has a usable key.
//
// Each commit is one readwrite transaction over the three stores: every
// request is issued synchronously, then the transaction is awaited. Nothing
// but IndexedDB is awaited while it is open (an await on anything else would
// let the transaction auto-commit half-way). A failed request or transaction
// (quota, disk) aborts it, so nothing of the commit is kept, and the commit
// rejects with PersistenceError.

import { wrap, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
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
  changes: { key: number; value: PersistedChange };
}

const SCHEMA_VERSION = 1;
const META_KEY = 'meta';

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

  function database(): IDBPDatabase<StoreSchema> {
    if (!db) throw new PersistenceError(`IndexedDB database ${options.dbName} is not open`);
    return db;
  }

  /** Runs one readwrite transaction whose requests `issue` makes synchronously. */
  type StoreName = 'meta' | 'kv' | 'changes';
  async function write(
    stores: StoreName[],
    issue: (tx: IDBPTransaction<StoreSchema, StoreName[], 'readwrite'>, requests: Promise<unknown>[]) => void,
  ): Promise<void> {
    let tx;
    try {
      tx = database().transaction(stores, 'readwrite');
    } catch (err) {
      throw asPersistenceError(err);
    }
    // Filled as requests are made, so that those made before a throw are awaited too.
    const requests: Promise<unknown>[] = [];
    try {
      issue(tx, requests);
    } catch (err) {
      // A request could not even be made (e.g. an invalid key): give everything up.
      try {
        tx.abort();
      } catch {
        // already finished
      }
      await Promise.allSettled([...requests, tx.done]);
      throw asPersistenceError(err);
    }
    try {
      // Awaiting every request too, so that none of their failures goes unhandled.
      await Promise.all([...requests, tx.done]);
    } catch (err) {
      await Promise.allSettled([...requests, tx.done]);
      throw asPersistenceError(tx.error ?? err);
    }
  }

  return {
    async open(initialRevision) {
      try {
        db = await openDatabase(options.indexedDB ?? indexedDB, options.dbName);
        const tx = db.transaction('meta', 'readwrite');
        const stored = await tx.store.get(META_KEY);
        let meta = stored && decodeMeta(stored);
        if (!meta) {
          meta = { revision: initialRevision, compactedRevision: initialRevision };
          await tx.store.put(meta, META_KEY);
        }
        await tx.done;
        return meta;
      } catch (err) {
        throw asPersistenceError(err);
      }
    },

    async getCurrent(key) {
      try {
        const stored = await database().get('kv', key);
        return stored === undefined ? undefined : decodeValue(key, stored);
      } catch (err) {
        throw asPersistenceError(err);
      }
    },

    async loadCurrent() {
      try {
        const tx = database().transaction('kv', 'readonly');
        // Keys and values come back in the same (key) order: zip them.
        const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll(), tx.done]);
        const out: KeyValue[] = [];
        const bad: string[] = [];
        for (let i = 0; i < keys.length; i++) {
          const kv = decodeValue(keys[i]!, values[i]);
          if (kv) out.push(kv);
          else bad.push(keys[i]!);
        }
        undecodable = bad;
        if (bad.length > 0) console.warn(`kubetab storage: skipped ${bad.length} undecodable record(s): ${bad.slice(0, 5).join(', ')}`);
        return out;
      } catch (err) {
        throw asPersistenceError(err);
      }
    },

    async loadHistory() {
      try {
        const tx = database().transaction(['meta', 'changes'], 'readonly');
        const stored = await tx.objectStore('meta').get(META_KEY);
        const compacted = (stored && decodeMeta(stored)?.compactedRevision) ?? 0;
        const values = await tx.objectStore('changes').getAll(IDBKeyRange.lowerBound(compacted, true));
        await tx.done;
        // History records that cannot be decoded are dropped: only reads of old revisions lose them.
        return values.map(decodeChange).filter((c): c is PersistedChange => c !== undefined);
      } catch (err) {
        throw asPersistenceError(err);
      }
    },

    commit(changes, meta) {
      return write(['meta', 'kv', 'changes'], (tx, requests) => {
        const kv = tx.objectStore('kv');
        const log = tx.objectStore('changes');
        for (const change of changes) {
          requests.push(log.put(change, change.revision));
          if (change.type === 'delete') requests.push(kv.delete(change.key));
          else
            requests.push(
              kv.put(
                { value: change.value ?? '', createRevision: change.createRevision, modRevision: change.revision, version: change.version },
                change.key,
              ),
            );
        }
        requests.push(tx.objectStore('meta').put(meta, META_KEY));
      });
    },

    compact(meta) {
      return write(['meta', 'changes'], (tx, requests) => {
        requests.push(tx.objectStore('changes').delete(IDBKeyRange.upperBound(meta.compactedRevision, true)));
        requests.push(tx.objectStore('meta').put(meta, META_KEY));
      });
    },

    wipe(meta) {
      return write(['meta', 'kv', 'changes'], (tx, requests) => {
        requests.push(tx.objectStore('kv').clear());
        requests.push(tx.objectStore('changes').clear());
        requests.push(tx.objectStore('meta').clear());
        requests.push(tx.objectStore('meta').put(meta, META_KEY));
      });
    },

    async close() {
      db?.close();
      db = undefined;
    },

    undecodableKeys: () => undecodable,

    async dropUndecodable() {
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
  if (!m || !isRevision(m.revision) || !isRevision(m.compactedRevision)) return undefined;
  return { revision: m.revision, compactedRevision: m.compactedRevision };
}

function decodeValue(key: string, stored: unknown): KeyValue | undefined {
  const s = stored as Partial<StoredValue> | null;
  if (!s || typeof s !== 'object' || typeof s.value !== 'string' || !isRevision(s.createRevision) || !isRevision(s.modRevision)) return undefined;
  if (!isRevision(s.version) || s.version < 1) return undefined;
  return { key, value: s.value, createRevision: s.createRevision, modRevision: s.modRevision, version: s.version };
}

function decodeChange(stored: unknown): PersistedChange | undefined {
  const c = stored as Partial<PersistedChange> | null;
  if (!c || typeof c !== 'object' || typeof c.key !== 'string' || !isRevision(c.revision)) return undefined;
  if ((c.type !== 'put' && c.type !== 'delete') || !isRevision(c.createRevision) || !isRevision(c.version) || typeof c.time !== 'number') return undefined;
  if (c.type === 'put' && typeof c.value !== 'string') return undefined;
  let prev: KeyValue | undefined;
  if (c.prev !== undefined) {
    prev = decodeValue(c.key, c.prev);
    if (!prev) return undefined;
  }
  const base = { revision: c.revision, type: c.type, key: c.key, createRevision: c.createRevision, version: c.version, time: c.time };
  return {
    ...base,
    ...(c.type === 'put' ? { value: c.value } : {}),
    ...(prev ? { prev } : {}),
  };
}

function asPersistenceError(err: unknown): PersistenceError {
  if (err instanceof PersistenceError) return err;
  const name = (err as { name?: string } | null)?.name;
  const message = (err as { message?: string } | null)?.message ?? String(err);
  return new PersistenceError(`IndexedDB: ${name ? `${name}: ` : ''}${message}`);
}
