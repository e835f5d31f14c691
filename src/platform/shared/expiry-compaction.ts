// Drops watch history older than the retention window, as kube-apiserver's
// periodic etcd compaction does. Both hosts run this while they are alive (a
// service worker only lives while it has work, so it also compacts on start).

import type { MvccStore } from '../../core/storage/types';

/** The store's time-based compaction, when it offers one. */
interface ExpiringStore {
  compactExpired?: () => Promise<unknown> | unknown;
}

/** Runs the store's compactExpired() every so often; returns a function that stops it. */
export function startExpiryCompaction(store: MvccStore, retentionMs: number, maxPeriodMs = 60_000): () => void {
  const expiring = store as MvccStore & ExpiringStore;
  if (typeof expiring.compactExpired !== 'function' || !Number.isFinite(retentionMs)) return () => {};
  // Often enough that history is never kept much past its window, rarely enough to cost nothing.
  const period = Math.max(1000, Math.min(maxPeriodMs, retentionMs / 2));
  const timer = setInterval(() => {
    Promise.resolve()
      .then(() => expiring.compactExpired!())
      .catch((error: unknown) => console.warn('compaction failed', error));
  }, period);
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}
