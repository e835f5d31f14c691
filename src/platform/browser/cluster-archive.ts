// Export and import of a whole cluster, below the API: every stored key with
// its revisions (objects carry their resourceVersion in their text, so the
// revisions must come back as they were), plus the configuration and the
// clock. Works on a Persistence, so the same code serves IndexedDB and tests.
//
// An import never moves the revision counter back: the store continues from
// the higher of its own and the archive's revision, compacted there, so a
// client that resumes a watch from before the import gets 410 Gone and lists
// again, as after an etcd restore.
//
// The archive travels as a file (a Blob): the page hands the worker the
// user's File and downloads the Blob an export answers, and the worker reads
// and parses it (docs/decisions/0310).

import type { KeyValue, PersistedChange, PersistedMeta, Persistence } from '../../core/storage/types';
import { rfc3339 } from '../../core/clock';
import type { ClusterConfiguration } from './cluster-config';
import type { ClusterArchive } from './messages';

/**
 * The archive as the file a user keeps: its JSON in one Blob. A Blob goes
 * from the worker to the page (and a chosen file from the page to the
 * worker) by reference: the page neither receives nor sends a structured
 * copy of every object, and never parses 20 MB on its own thread.
 */
export function archiveFile(archive: ClusterArchive): Blob {
  return new Blob([JSON.stringify(archive)], { type: 'application/json' });
}

/**
 * Reads a cluster file (what the user picked, or an exported Blob): its text,
 * parsed and its shape checked. Throws with the problem; nothing has changed
 * then. The configuration is the caller's to validate.
 */
export async function readArchiveFile(file: unknown): Promise<ClusterArchive> {
  if (!(file instanceof Blob)) throw new Error('the archive must be sent as a file (a Blob)');
  let text: string;
  try {
    text = await file.text();
  } catch (err) {
    throw new Error(`the file could not be read (${err instanceof Error ? err.message : String(err)})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`the file is not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const problem = archiveProblem(parsed);
  if (problem) throw new Error(problem);
  return parsed as ClusterArchive;
}

export async function exportCluster(persistence: Persistence, extra: { configuration: ClusterConfiguration; clockOffsetMs: number; now: number }): Promise<ClusterArchive> {
  const meta = await persistence.open(Math.floor(extra.now));
  const items = (await persistence.loadCurrent()).sort((a, b) => a.modRevision - b.modRevision);
  // Sorted: the last item has the highest modRevision (no spread of every item into Math.max's arguments).
  const revision = Math.max(meta.revision, items[items.length - 1]?.modRevision ?? 0);
  return {
    apiVersion: 'kubetab.dev/v1',
    kind: 'ClusterArchive',
    exportedAt: rfc3339(extra.now),
    configuration: extra.configuration,
    clockOffsetMs: extra.clockOffsetMs,
    revision,
    items: items.map(({ key, value, createRevision, modRevision, version }) => ({ key, value, createRevision, modRevision, version })),
  };
}

const isRevision = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 1;

/** Checks an archive's shape (not its configuration: the caller validates that). Returns the problem, if any. */
export function archiveProblem(input: unknown): string | undefined {
  const a = input as Partial<ClusterArchive> | null;
  if (!a || typeof a !== 'object') return 'not a KubeTab cluster archive (expected a JSON object)';
  if (a.apiVersion !== 'kubetab.dev/v1' || a.kind !== 'ClusterArchive') return 'not a KubeTab cluster archive (apiVersion kubetab.dev/v1, kind ClusterArchive)';
  if (!isRevision(a.revision)) return 'revision must be a positive integer';
  if (typeof a.clockOffsetMs !== 'number' || !(a.clockOffsetMs >= 0)) return 'clockOffsetMs must be a number >= 0';
  if (!Array.isArray(a.items)) return 'items must be a list';
  const items: readonly unknown[] = a.items;
  const seenKeys = new Set<string>();
  // An export lists its items by modRevision: while they ascend, each is new, and no set of them is needed.
  let seenRevisions: Set<number> | undefined;
  let previous = 0;
  for (let i = 0; i < items.length; i++) {
    const kv = items[i] as Partial<KeyValue> | null;
    if (!kv || typeof kv.key !== 'string' || typeof kv.value !== 'string') return `items[${i}]: key and value must be strings`;
    const { key, createRevision, modRevision, version } = kv;
    if (!isRevision(createRevision) || !isRevision(modRevision) || !isRevision(version)) return `items[${i}]: createRevision, modRevision and version must be positive integers`;
    if (modRevision > a.revision || createRevision > modRevision) return `items[${i}]: revisions out of order`;
    if (seenKeys.has(key)) return `items[${i}]: duplicate key ${key}`;
    seenKeys.add(key);
    if (modRevision > previous && !seenRevisions) previous = modRevision;
    else {
      seenRevisions ??= new Set(items.slice(0, i).map((item) => (item as KeyValue).modRevision));
      if (seenRevisions.has(modRevision)) return `items[${i}]: two keys with modRevision ${modRevision}`;
      seenRevisions.add(modRevision);
    }
  }
  return undefined;
}

/**
 * Replaces everything in the persistence with the archive's keys, in one
 * transaction when the persistence offers `replace` (IndexedDB and memory
 * do): a failed import (quota) leaves the cluster as it was, never empty.
 * The store must be closed. Resolves with the current values now stored
 * (see primedPersistence).
 */
export async function importCluster(persistence: Persistence, archive: ClusterArchive, now: number): Promise<KeyValue[]> {
  const current = await persistence.open(Math.floor(now));
  const revision = Math.max(current.revision, archive.revision);
  // Compacted at the top: the archive's objects are current values, with no history to replay.
  const meta = { revision, compactedRevision: revision };
  const changes: PersistedChange[] = [...archive.items]
    .sort((a, b) => a.modRevision - b.modRevision)
    .map((kv) => ({ revision: kv.modRevision, type: 'put', key: kv.key, value: kv.value, createRevision: kv.createRevision, version: kv.version, time: now }));
  if (persistence.replace) {
    await persistence.replace(changes, meta);
  } else {
    // A persistence without replace: wipe, then every object in one commit.
    await persistence.wipe(meta);
    if (changes.length) await persistence.commit(changes, meta);
    // The writes above are history below the compacted revision: drop it.
    await persistence.compact(meta);
  }
  return changes
    .map((c) => ({ key: c.key, value: c.value!, createRevision: c.createRevision, modRevision: c.revision, version: c.version }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The persistence for the store that starts right after an import: its full
 * load is answered with the values the import just wrote (and no history:
 * the import left none), instead of reading 20 MB back from IndexedDB before
 * the cluster is ready again. Only that first load: everything else, and any
 * later load, goes to `base`. Nothing can write in between — the store loads
 * before it takes any write.
 */
export function primedPersistence(base: Persistence, current: readonly KeyValue[]): Persistence {
  let primedCurrent: readonly KeyValue[] | undefined = current;
  let primedHistory = true;
  return {
    open: (initialRevision) => base.open(initialRevision),
    getCurrent: (key) => base.getCurrent(key),
    ...(base.rangeCurrent ? { rangeCurrent: (prefix: string, after?: string) => base.rangeCurrent!(prefix, after) } : {}),
    loadCurrent: () => {
      const primed = primedCurrent;
      primedCurrent = undefined;
      return primed ? Promise.resolve([...primed]) : base.loadCurrent();
    },
    loadHistory: () => {
      const primed = primedHistory;
      primedHistory = false;
      return primed ? Promise.resolve([]) : base.loadHistory();
    },
    commit: (changes, meta) => base.commit(changes, meta),
    compact: (meta) => base.compact(meta),
    wipe: (meta) => base.wipe(meta),
    ...(base.replace ? { replace: (changes: readonly PersistedChange[], meta: PersistedMeta) => base.replace!(changes, meta) } : {}),
    close: () => base.close(),
  };
}

/** Removes every key; the revision counter continues above any it handed out. The store must be closed. */
export async function wipeCluster(persistence: Persistence, now: number): Promise<void> {
  const current = await persistence.open(Math.floor(now));
  await persistence.wipe({ revision: current.revision, compactedRevision: current.revision });
}
