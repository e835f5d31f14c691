// Delayed re-syncs on the cluster's Clock (the WorkQueue's addAfter waits on
// the host's timers, which moving the Clock would not hurry): a key comes
// back into the queue once the Clock reaches its time, the sooner of two
// requests winning, so a Job's back-off, an activeDeadlineSeconds, a
// CronJob's next run or a TTL fires at once when the Clock is moved forward.

import type { ClockTimers, TimerHandle } from '../../util/clock-timers';

export class ClockRequeue {
  private readonly pending = new Map<string, TimerHandle>();
  private stopped = false;

  constructor(
    private readonly timers: ClockTimers,
    private readonly add: (key: string) => void,
  ) {}

  /** Queues the key once `ms` of Clock time have passed (0 or less: now). */
  after(key: string, ms: number): void {
    this.at(key, this.timers.clock.now() + Math.max(0, ms));
  }

  at(key: string, atMs: number): void {
    if (this.stopped) return;
    const existing = this.pending.get(key);
    if (existing && existing.at <= atMs) return;
    this.timers.cancel(existing);
    const handle = this.timers.at(atMs, () => {
      if (this.pending.get(key) === handle) this.pending.delete(key);
      if (!this.stopped) this.add(key);
    });
    this.pending.set(key, handle);
  }

  forget(key: string): void {
    this.timers.cancel(this.pending.get(key));
    this.pending.delete(key);
  }

  stop(): void {
    this.stopped = true;
    for (const h of this.pending.values()) this.timers.cancel(h);
    this.pending.clear();
  }
}
