// Timers on the cluster's Clock rather than on the host's. Everything the
// simulated cluster waits for (a container's `sleep`, a probe's period, a
// back-off, a grace period, a lease's renewal, a CronJob's schedule) waits
// here, so that moving the Clock forward (Settings, a tutorial, a test)
// fires every timer that has come due at once, earliest first, instead of
// some seconds later; and a host that scales time (--time-scale) shortens
// the real waits by its rate.
//
// Timers fire in order of their due time, ties in the order they were set.
// A timer set for a time already reached fires after the current task (a
// sleeping loop catching up after an advance runs at a task per step, never
// as one unbroken chain of microtasks that would starve requests).

import type { Clock } from '../clock';
import { afterCurrentTask } from './after-current-task';

export interface TimerHandle {
  /** When the timer fires, on the Clock (ms since the epoch). */
  readonly at: number;
}

interface Timer extends TimerHandle {
  readonly seq: number;
  readonly fire: () => void;
  cancelled: boolean;
}

/** A real timer never waits longer than this: a setTimeout beyond 2^31-1 ms fires at once. */
const MAX_REAL_WAIT_MS = 60_000;

export class ClockTimers {
  private readonly heap: Timer[] = [];
  private seq = 0;
  private real: ReturnType<typeof setTimeout> | undefined;
  private realAt = Infinity;
  private drainQueued = false;
  private stopped = false;
  private readonly unsubscribe: (() => void) | undefined;

  constructor(
    readonly clock: Clock,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.unsubscribe = clock.onAdvance?.(() => this.drain());
  }

  /** Calls `fire` once the Clock reads `at` or later. */
  at(at: number, fire: () => void): TimerHandle {
    const timer: Timer = { at, seq: this.seq++, fire, cancelled: false };
    if (this.stopped) {
      timer.cancelled = true;
      return timer;
    }
    this.push(timer);
    if (at <= this.clock.now()) this.queueDrain();
    else this.arm();
    return timer;
  }

  /** Calls `fire` once `ms` of Clock time have passed. */
  after(ms: number, fire: () => void): TimerHandle {
    return this.at(this.clock.now() + Math.max(0, ms), fire);
  }

  /** Resolves once the Clock reads `at` or later (or never, after stop()). */
  until(at: number): Promise<void> {
    return new Promise((resolve) => this.at(at, resolve));
  }

  cancel(handle: TimerHandle | undefined): void {
    if (handle) (handle as Timer).cancelled = true;
  }

  /** How many timers are waiting (cancelled ones excluded). */
  get pending(): number {
    return this.heap.filter((t) => !t.cancelled).length;
  }

  /** The due time of the earliest waiting timer, or undefined. */
  get next(): number | undefined {
    this.dropCancelled();
    return this.heap[0]?.at;
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.real !== undefined) clearTimeout(this.real);
    this.real = undefined;
    for (const t of this.heap) t.cancelled = true;
    this.heap.length = 0;
  }

  private queueDrain(): void {
    if (this.drainQueued) return;
    this.drainQueued = true;
    afterCurrentTask(() => {
      this.drainQueued = false;
      this.drain();
    });
  }

  /** Fires every due timer, earliest first, then waits for the next. */
  private drain(): void {
    if (this.stopped) return;
    const now = this.clock.now();
    for (;;) {
      this.dropCancelled();
      const head = this.heap[0];
      if (!head || head.at > now) break;
      this.pop();
      head.cancelled = true;
      try {
        head.fire();
      } catch (err) {
        this.onError(err);
      }
    }
    // The Clock may have moved (an advance): the real wait armed before no longer says when the next is due.
    this.arm(true);
  }

  /**
   * A real timer for the earliest waiting one (none on a Clock that moves
   * only when told). One already armed for that time or earlier is kept,
   * unless `rearm` (after the Clock moved, its real wait is stale).
   */
  private arm(rearm = false): void {
    this.dropCancelled();
    const head = this.heap[0];
    const rate = this.clock.rate ?? 1;
    if (!head || rate <= 0 || this.stopped) {
      if (this.real !== undefined) clearTimeout(this.real);
      this.real = undefined;
      this.realAt = Infinity;
      return;
    }
    if (!rearm && this.real !== undefined && this.realAt <= head.at) return;
    if (this.real !== undefined) clearTimeout(this.real);
    const wait = Math.min(Math.max(0, (head.at - this.clock.now()) / rate), MAX_REAL_WAIT_MS);
    this.realAt = head.at;
    this.real = setTimeout(() => {
      this.real = undefined;
      this.realAt = Infinity;
      this.drain();
    }, Math.ceil(wait));
    // Node: waiting timers alone must not keep a process alive.
    (this.real as { unref?: () => void }).unref?.();
  }

  private dropCancelled(): void {
    while (this.heap.length > 0 && this.heap[0]!.cancelled) this.pop();
  }

  // A binary min-heap on (at, seq).
  private less(a: Timer, b: Timer): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(t: Timer): void {
    const h = this.heap;
    h.push(t);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  private pop(): Timer | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l]!, h[m]!)) m = l;
        if (r < h.length && this.less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}
