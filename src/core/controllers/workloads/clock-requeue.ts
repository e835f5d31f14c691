// A work-queue key re-added at a time of the cluster's Clock (a pod
// becoming available after minReadySeconds, a Deployment's progress
// deadline, a Job's back-off or activeDeadlineSeconds, a CronJob's next run,
// a TTL), through the shared ClockTimers: the WorkQueue's addAfter waits on
// the host's timers, which moving the Clock would not hurry, whereas this
// fires at once when the Clock moves forward. One timer per key, the
// earliest asked for; waiting is not work for `idle()`.

import type { ClockTimers, TimerHandle } from '../../util/clock-timers';

export class ClockRequeue {
  private readonly timers = new Map<string, TimerHandle>();
  private stopped = false;

  constructor(
    private readonly clockTimers: ClockTimers,
    private readonly add: (key: string) => void,
  ) {}

  /** Re-adds `key` once the Clock reads `atMs` (an earlier pending time wins). */
  at(key: string, atMs: number): void {
    if (this.stopped) return;
    const current = this.timers.get(key);
    if (current && current.at <= atMs) return;
    this.clockTimers.cancel(current);
    const handle = this.clockTimers.at(atMs, () => {
      if (this.timers.get(key) === handle) this.timers.delete(key);
      this.add(key);
    });
    this.timers.set(key, handle);
  }

  /** Re-adds `key` after `ms` of Clock time. */
  after(key: string, ms: number): void {
    this.at(key, this.clockTimers.clock.now() + Math.max(0, ms));
  }

  /** Drops the pending re-add of `key`, if any (its object is gone). */
  forget(key: string): void {
    this.clockTimers.cancel(this.timers.get(key));
    this.timers.delete(key);
  }

  stop(): void {
    this.stopped = true;
    for (const handle of this.timers.values()) this.clockTimers.cancel(handle);
    this.timers.clear();
  }
}
