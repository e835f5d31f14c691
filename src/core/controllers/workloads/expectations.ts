// kube's ControllerExpectations (pkg/controller/controller_utils.go), with
// deletions tracked by pod key as UIDTrackingControllerExpectations does:
// after asking for n pods a controller expects to see n creations (and the
// deletions of the pods it named) through its watch before it trusts its
// cache enough to decide again, so that a burst of watch events never makes
// it create or delete twice. Expectations older than five minutes (on the
// cluster's clock) are trusted as met, as kube's ExpectationsTimeout.

import type { Clock } from '../../clock';

/** controller.ExpectationsTimeout. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

interface Expectation {
  add: number;
  del: number;
  /** The pod keys whose deletion is awaited. */
  deleting: Set<string>;
  setAt: number;
}

export class ControllerExpectations {
  private readonly byKey = new Map<string, Expectation>();

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs = EXPECTATIONS_TIMEOUT_MS,
  ) {}

  /** SatisfiedExpectations: nothing awaited, everything seen, or the wait has expired. */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.clock.now() - e.setAt > this.timeoutMs;
  }

  /** ExpectCreations: replaces the expectation with `count` creations. */
  expectCreations(key: string, count: number): void {
    this.byKey.set(key, { add: count, del: 0, deleting: new Set(), setAt: this.clock.now() });
  }

  /** ExpectDeletions with the keys ("<ns>/<name>") of the pods being deleted. */
  expectDeletions(key: string, podKeys: readonly string[]): void {
    this.byKey.set(key, { add: 0, del: podKeys.length, deleting: new Set(podKeys), setAt: this.clock.now() });
  }

  /** CreationObserved (also for a creation that will never happen: a skipped or failed one). */
  creationObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.add--;
  }

  /** DeletionObserved: counts only a pod whose deletion was expected, once. */
  deletionObserved(key: string, podKey: string): void {
    const e = this.byKey.get(key);
    if (e && e.deleting.delete(podKey)) e.del--;
  }

  /** DeleteExpectations: the owner is gone. */
  delete(key: string): void {
    this.byKey.delete(key);
  }

  /** What is still awaited (for tests and logs). */
  pending(key: string): { add: number; del: number } | undefined {
    const e = this.byKey.get(key);
    return e ? { add: e.add, del: e.del } : undefined;
  }
}
