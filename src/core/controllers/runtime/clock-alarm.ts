// Wake-ups at a time of the cluster's Clock rather than of the host. A
// tutorial (or a test) may move the Clock forward at any moment, and nothing
// tells the controllers; so an alarm sleeps on a real timer for at most
// `pollMs` at a time and looks at the Clock again when it wakes. A due time
// reached by the host's own time is noticed on time; one reached by moving
// the Clock is noticed within `pollMs`. Waiting is not work: alarms never
// hold up `idle()`.

import type { Clock } from '../../clock';

/** How often a pending alarm re-reads the Clock (kube's controllers use real time only). */
export const DEFAULT_CLOCK_POLL_MS = 1000;

export class ClockAlarms {
  private readonly timers = new Map<string, { at: number; id: ReturnType<typeof setTimeout> }>();
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly fire: (key: string) => void,
    private readonly pollMs = DEFAULT_CLOCK_POLL_MS,
  ) {}

  /** Calls `fire(key)` once the Clock reads `at` or later; an earlier alarm for the key wins. */
  set(key: string, at: number): void {
    if (this.stopped) return;
    const pending = this.timers.get(key);
    if (pending && pending.at <= at) return;
    if (pending) clearTimeout(pending.id);
    this.arm(key, at);
  }

  private arm(key: string, at: number): void {
    const wait = Math.max(0, Math.min(at - this.clock.now(), this.pollMs));
    const id = setTimeout(() => {
      this.timers.delete(key);
      if (this.stopped) return;
      if (this.clock.now() >= at) this.fire(key);
      else this.arm(key, at);
    }, wait);
    this.timers.set(key, { at, id });
  }

  cancel(key: string): void {
    const pending = this.timers.get(key);
    if (!pending) return;
    clearTimeout(pending.id);
    this.timers.delete(key);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t.id);
    this.timers.clear();
  }
}
