// Elapsed time for judging leases, read from the cluster Clock but blind to
// its jumps. kube judges a lease by how long a candidate has watched it go
// unrenewed, on the host's monotonic clock. KubeTab's cluster runs on its
// Clock, which Settings, a tutorial or a test can move forward by an hour at
// once: that hour was no time in which the leader could have renewed, so it
// must not expire the leader's lease for the others, nor make the leader
// think its own renewals are overdue.
//
// The election reads this at every step of its loop (every retry period), so
// between two readings no more than a step's planned wait passes; anything
// beyond `maxStepMs` between readings is a jump and counts as `maxStepMs`.

import type { Clock } from '../../clock';

export class SteadyTime {
  private last: number;
  private elapsed = 0;

  constructor(
    private readonly clock: Clock,
    private readonly maxStepMs: number,
  ) {
    this.last = clock.now();
  }

  /** Milliseconds since construction, with each gap between readings capped at maxStepMs. */
  now(): number {
    const current = this.clock.now();
    const step = current - this.last;
    this.last = current;
    if (step > 0) this.elapsed += Math.min(step, this.maxStepMs);
    return this.elapsed;
  }
}
