// Drops watch history older than the retention window, as kube-apiserver's
// periodic etcd compaction does. The store also compacts lazily as it is
// used; the hosts run this timer so that an idle server lets go of old history
// too (a service worker only lives while it has work, so it also compacts on start).

import type { OpenedStore } from '../../core/storage/mvcc-store';

/** Runs the store's compactExpired() every so often; returns a function that stops it. */
export function startExpiryCompaction(store: Pick<OpenedStore, 'compactExpired'>, retentionMs: number, maxPeriodMs = 60_000): () => void {
  if (!Number.isFinite(retentionMs)) return () => {};
  // Often enough that history is never kept much past its window, rarely enough to cost nothing.
  const period = Math.max(1000, Math.min(maxPeriodMs, retentionMs / 2));
  const timer = setInterval(() => {
    store.compactExpired().catch((error: unknown) => console.warn('compaction failed', error));
  }, period);
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}
