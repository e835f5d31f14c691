// A Persistence that lives in memory. It outlives the store that uses it, so
// closing a store and opening another on the same object behaves like a
// restart: tests use it for restart and failure scenarios without a disk or a
// browser, and a host can use it where nothing needs to survive the process.

import { prefixEnd } from './sorted-keys';
import type { KeyValue, PersistedChange, PersistedMeta, Persistence, Revision } from './types';

export interface MemoryPersistence extends Persistence {
  /** Number of successful commit calls so far (group commit is observable through it). */
  readonly commits: number;
}

export function createMemoryPersistence(): MemoryPersistence {
  let meta: PersistedMeta | undefined;
  let current = new Map<string, KeyValue>();
  let changes: PersistedChange[] = [];
  let commits = 0;

  return {
    get commits() {
      return commits;
    },
    async open(initialRevision: Revision) {
      if (!meta) meta = { revision: initialRevision, compactedRevision: initialRevision };
      return meta;
    },
    async getCurrent(key) {
      return current.get(key);
    },
    async loadCurrent() {
      return [...current.values()];
    },
    async rangeCurrent(prefix, after) {
      const end = prefixEnd(prefix);
      const from = after !== undefined && after >= prefix ? after : undefined;
      return [...current.values()]
        .filter((kv) => kv.key.startsWith(prefix) && (end === undefined || kv.key < end) && (from === undefined || kv.key > from))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async loadHistory() {
      const compacted = meta?.compactedRevision ?? 0;
      return changes.filter((c) => c.revision > compacted);
    },
    async commit(batch, nextMeta) {
      for (const change of batch) {
        changes.push(change);
        if (change.type === 'delete') current.delete(change.key);
        else
          current.set(change.key, {
            key: change.key,
            value: change.value ?? '',
            createRevision: change.createRevision,
            modRevision: change.revision,
            version: change.version,
          });
      }
      meta = nextMeta;
      commits++;
    },
    async compact(nextMeta) {
      changes = changes.filter((c) => c.revision >= nextMeta.compactedRevision);
      meta = nextMeta;
    },
    async replace(batch, nextMeta) {
      // All at once (nothing is awaited in between): as one transaction.
      current = new Map();
      changes = [];
      for (const change of batch) {
        if (change.revision > nextMeta.compactedRevision) changes.push(change);
        if (change.type === 'delete') current.delete(change.key);
        else current.set(change.key, { key: change.key, value: change.value ?? '', createRevision: change.createRevision, modRevision: change.revision, version: change.version });
      }
      meta = nextMeta;
      commits++;
    },
    async wipe(nextMeta) {
      current = new Map();
      changes = [];
      meta = nextMeta;
    },
    async close() {},
  };
}
