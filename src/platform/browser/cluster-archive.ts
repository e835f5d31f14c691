// Export and import of a whole cluster, below the API: every stored key with
// its revisions (objects carry their resourceVersion in their text, so the
// revisions must come back as they were), plus the configuration and the
// clock. Works on a Persistence, so the same code serves IndexedDB and tests.
//
// An import never moves the revision counter back: the store continues from
// the higher of its own and the archive's revision, compacted there, so a
// client that resumes a watch from before the import gets 410 Gone and lists
// again, as after an etcd restore.

import type { KeyValue, PersistedChange, Persistence } from '../../core/storage/types';
import { rfc3339 } from '../../core/clock';
import type { ClusterConfiguration } from './cluster-config';
import type { ClusterArchive } from './messages';

export async function exportCluster(persistence: Persistence, extra: { configuration: ClusterConfiguration; clockOffsetMs: number; now: number }): Promise<ClusterArchive> {
  const meta = await persistence.open(Math.floor(extra.now));
  const items = (await persistence.loadCurrent()).sort((a, b) => a.modRevision - b.modRevision);
  const revision = Math.max(meta.revision, ...items.map((kv) => kv.modRevision));
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
  const seenKeys = new Set<string>();
  const seenRevisions = new Set<number>();
  for (const [i, item] of a.items.entries()) {
    const kv = item as Partial<KeyValue> | null;
    if (!kv || typeof kv.key !== 'string' || typeof kv.value !== 'string') return `items[${i}]: key and value must be strings`;
    if (!isRevision(kv.createRevision) || !isRevision(kv.modRevision) || !isRevision(kv.version)) return `items[${i}]: createRevision, modRevision and version must be positive integers`;
    if (kv.modRevision > a.revision || kv.createRevision > kv.modRevision) return `items[${i}]: revisions out of order`;
    if (seenKeys.has(kv.key)) return `items[${i}]: duplicate key ${kv.key}`;
    if (seenRevisions.has(kv.modRevision)) return `items[${i}]: two keys with modRevision ${kv.modRevision}`;
    seenKeys.add(kv.key);
    seenRevisions.add(kv.modRevision);
  }
  return undefined;
}

/**
 * Replaces everything in the persistence with the archive's keys, in one
 * transaction when the persistence offers `replace` (IndexedDB and memory
 * do): a failed import (quota) leaves the cluster as it was, never empty.
 * The store must be closed.
 */
export async function importCluster(persistence: Persistence, archive: ClusterArchive, now: number): Promise<void> {
  const current = await persistence.open(Math.floor(now));
  const revision = Math.max(current.revision, archive.revision);
  // Compacted at the top: the archive's objects are current values, with no history to replay.
  const meta = { revision, compactedRevision: revision };
  const changes: PersistedChange[] = [...archive.items]
    .sort((a, b) => a.modRevision - b.modRevision)
    .map((kv) => ({ revision: kv.modRevision, type: 'put', key: kv.key, value: kv.value, createRevision: kv.createRevision, version: kv.version, time: now }));
  if (persistence.replace) {
    await persistence.replace(changes, meta);
    return;
  }
  // A persistence without replace: wipe, then every object in one commit.
  await persistence.wipe(meta);
  if (changes.length) await persistence.commit(changes, meta);
  // The writes above are history below the compacted revision: drop it.
  await persistence.compact(meta);
}

/** Removes every key; the revision counter continues above any it handed out. The store must be closed. */
export async function wipeCluster(persistence: Persistence, now: number): Promise<void> {
  const current = await persistence.open(Math.floor(now));
  await persistence.wipe({ revision: current.revision, compactedRevision: current.revision });
}
