// Graceful deletion as k8s.io/apiserver's rest.BeforeDelete does it for kinds
// with a graceful delete strategy (pods). A first delete marks the object
// with deletionTimestamp = now + grace and deletionGracePeriodSeconds =
// grace; it stays (Terminating) until someone deletes it again with a shorter
// grace (the kubelet, with 0) — or, with grace 0, it is removed right after
// the mark. A repeated delete may only shorten the grace; one that does not
// changes nothing.

import { rfc3339 } from '../clock';
import type { KubeObject, Strategy } from './types';

export interface GracefulDeletionMark {
  readonly deletionTimestamp: string;
  readonly deletionGracePeriodSeconds: number;
}

/**
 * undefined: not a graceful deletion (the object is deleted, or waits for
 * finalizers, as any other); 'pending': a graceful deletion is under way and
 * this request changes nothing; a mark: the fields to set.
 */
export function gracefulDeletionMark(
  strategy: Strategy,
  obj: KubeObject,
  requestedGraceSeconds: number | undefined,
  nowMs: number,
): GracefulDeletionMark | 'pending' | undefined {
  if (!strategy.gracefulDeletion) return undefined;
  // Negative values mean 1 s on the delete path.
  const requested = requestedGraceSeconds !== undefined && requestedGraceSeconds < 0 ? 1 : requestedGraceSeconds;
  const meta = obj.metadata ?? {};
  if (meta.deletionTimestamp) {
    const raw = meta.deletionGracePeriodSeconds;
    const current = raw !== undefined && raw < 0 ? 1 : raw;
    // Marked with no grace (or by finalizers only): delete now, as any other kind.
    if (current === undefined || current === 0) return undefined;
    if (requested === undefined || requested >= current) return 'pending';
    // Only a shorter grace: the deadline moves back by the difference.
    const deadline = Date.parse(meta.deletionTimestamp) - current * 1000 + requested * 1000;
    return { deletionTimestamp: rfc3339(deadline), deletionGracePeriodSeconds: requested };
  }
  const grace = strategy.gracefulDeletion(obj, requested);
  if (grace === undefined) return undefined;
  return { deletionTimestamp: rfc3339(nowMs + grace * 1000), deletionGracePeriodSeconds: grace };
}
