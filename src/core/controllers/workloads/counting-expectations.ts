// kube's plain ControllerExpectations (pkg/controller/controller_utils.go),
// as the Job and DaemonSet controllers use it: after asking for n creations
// and m deletions, a controller does not decide again until its informers
// have shown that many of its pods created and deleted (any of its pods
// counts, not only the ones it named) or five minutes of cluster Clock have
// passed. The ReplicaSet family tracks deletions by pod instead: see
// ControllerExpectations in ./expectations.

import type { Clock } from '../../clock';
import { EXPECTATIONS_TIMEOUT_MS } from './expectations';

interface Counts {
  add: number;
  del: number;
  setAt: number;
}

export class CountingExpectations {
  private readonly byKey = new Map<string, Counts>();

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

  /** SetExpectations: replaces what is awaited with `add` creations and `del` deletions. */
  set(key: string, add: number, del: number): void {
    this.byKey.set(key, { add, del, setAt: this.clock.now() });
  }

  /** ExpectCreations. */
  expectCreations(key: string, count: number): void {
    this.set(key, count, 0);
  }

  /** ExpectDeletions. */
  expectDeletions(key: string, count: number): void {
    this.set(key, 0, count);
  }

  /** CreationObserved (also for a creation that will never happen: a skipped or failed one). */
  creationObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.add--;
  }

  /** DeletionObserved (also for a deletion that failed). */
  deletionObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.del--;
  }

  /** LowerExpectations: `add` creations and `del` deletions will not happen. */
  lower(key: string, add: number, del: number): void {
    const e = this.byKey.get(key);
    if (!e) return;
    e.add -= add;
    e.del -= del;
  }

  /** DeleteExpectations: the owner is gone. */
  delete(key: string): void {
    this.byKey.delete(key);
  }
}
