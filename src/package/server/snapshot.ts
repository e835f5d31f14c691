// Snapshots of a running cluster for per-test isolation: every stored key
// with its revisions (objects carry their resourceVersion in their text, so
// they come back as they were), as the browser's cluster archive keeps them
// (src/platform/browser/cluster-archive.ts), plus what the snapshot must
// agree on with the server that restores it: the KubeTab version and the
// simulated nodes. Plain JSON data: a test may keep one in a file.

import { rfc3339 } from '../../core/clock';
import type { KeyValue, MvccStore } from '../../core/storage/types';

export const SNAPSHOT_API_VERSION = 'kubetab.dev/v1';
export const SNAPSHOT_KIND = 'ClusterSnapshot';

export interface KubeTabSnapshot {
  readonly apiVersion: typeof SNAPSHOT_API_VERSION;
  readonly kind: typeof SNAPSHOT_KIND;
  /** The KubeTab version that took it: only the same version restores it. */
  readonly kubetabVersion: string;
  readonly takenAt: string;
  /** The store's revision when it was taken. */
  readonly revision: number;
  /** The names of the simulated nodes of the server that took it. */
  readonly nodes: readonly string[];
  readonly items: readonly KeyValue[];
}

export async function takeSnapshot(store: MvccStore, version: string, nodes: readonly string[], now: number): Promise<KubeTabSnapshot> {
  const range = await store.range({ prefix: '' });
  return {
    apiVersion: SNAPSHOT_API_VERSION,
    kind: SNAPSHOT_KIND,
    kubetabVersion: version,
    takenAt: rfc3339(now),
    revision: range.revision,
    nodes: [...nodes],
    items: range.kvs.map(({ key, value, createRevision, modRevision, version: v }) => ({ key, value, createRevision, modRevision, version: v })),
  };
}

const isRevision = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 1;

/** Why a value cannot be restored by this server, if it cannot: a clear sentence naming what to do. */
export function snapshotProblem(input: unknown, version: string, nodes: readonly string[]): string | undefined {
  const s = input as Partial<KubeTabSnapshot> | null;
  if (!s || typeof s !== 'object' || s.apiVersion !== SNAPSHOT_API_VERSION || s.kind !== SNAPSHOT_KIND) {
    return `not a KubeTab snapshot (apiVersion ${SNAPSHOT_API_VERSION}, kind ${SNAPSHOT_KIND}): pass what kube.snapshot() returned`;
  }
  if (s.kubetabVersion !== version) {
    return `the snapshot was taken by KubeTab ${String(s.kubetabVersion)} and this is KubeTab ${version}: take the snapshot again with this version (stored objects and defaults differ between versions)`;
  }
  const theirs = Array.isArray(s.nodes) ? s.nodes.join(', ') || 'none' : 'unknown';
  if (theirs !== (nodes.join(', ') || 'none')) {
    return `the snapshot was taken on a cluster with nodes [${theirs}] and this one has [${nodes.join(', ') || 'none'}]: restore it on a server started with the same nodes option`;
  }
  if (!isRevision(s.revision) || !Array.isArray(s.items)) return 'the snapshot is damaged (revision or items missing)';
  for (const [i, kv] of s.items.entries()) {
    if (!kv || typeof kv.key !== 'string' || typeof kv.value !== 'string' || !isRevision(kv.createRevision) || !isRevision(kv.modRevision) || !isRevision(kv.version) || kv.modRevision > s.revision) {
      return `the snapshot is damaged (items[${i}])`;
    }
  }
  return undefined;
}
