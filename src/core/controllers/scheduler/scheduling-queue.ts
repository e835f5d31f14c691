// kube-scheduler's scheduling queue, on the cluster Clock: pods waiting for a
// scheduling attempt (activeQ, highest priority first, then the earliest
// queued), pods that failed and wait for the cluster to change
// (unschedulablePods), and their back-off (1 s doubling to 10 s) before a
// retry. A cluster event moves back only the pods whose rejecting plugins
// care about it; a pod left unschedulable for 5 minutes is retried anyway.
// Nothing here polls: every wait is a ClockTimers timer.

import type { ClockTimers, TimerHandle } from '../../util/clock-timers';

export const INITIAL_BACKOFF_MS = 1000;
export const MAX_BACKOFF_MS = 10_000;
export const MAX_UNSCHEDULABLE_MS = 5 * 60_000;

interface Entry {
  readonly key: string;
  priority: number;
  /** When the pod was first queued (PrioritySort's tie-break), and a sequence for equal times. */
  readonly timestamp: number;
  readonly seq: number;
  attempts: number;
  backoffUntil: number;
  /** Plugins that rejected it last time (empty: any change may help). */
  plugins: ReadonlySet<string>;
  where: 'active' | 'backoff' | 'unschedulable' | 'inFlight';
  timer?: TimerHandle;
  /** The move-request count when its attempt began. */
  moveCycle: number;
}

export class SchedulingQueue {
  private readonly entries = new Map<string, Entry>();
  private active: Entry[] = [];
  private seq = 0;
  /** Counts cluster changes, so that an attempt that raced with one is retried (kube's moveRequestCycle). */
  private moveCycle = 0;

  constructor(
    private readonly timers: ClockTimers,
    /** Called when a pod becomes ready for an attempt. */
    private readonly onActive: () => void,
  ) {}

  private now(): number {
    return this.timers.clock.now();
  }

  get activeCount(): number {
    return this.active.length;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** A new pending pod (or a known one whose priority is refreshed). */
  add(key: string, priority: number): void {
    const existing = this.entries.get(key);
    if (existing) {
      existing.priority = priority;
      return;
    }
    const entry: Entry = { key, priority, timestamp: this.now(), seq: this.seq++, attempts: 0, backoffUntil: 0, plugins: new Set(), where: 'active', moveCycle: 0 };
    this.entries.set(key, entry);
    this.pushActive(entry);
  }

  /** Forgets a pod (deleted, bound, or no longer this scheduler's). */
  remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.timers.cancel(entry.timer);
    this.entries.delete(key);
    if (entry.where === 'active') this.active = this.active.filter((e) => e !== entry);
  }

  /** The next pod to try, highest priority first, then earliest queued. */
  pop(): string | undefined {
    if (this.active.length === 0) return undefined;
    let best = 0;
    for (let i = 1; i < this.active.length; i++) if (this.before(this.active[i]!, this.active[best]!)) best = i;
    const [entry] = this.active.splice(best, 1);
    entry!.where = 'inFlight';
    entry!.attempts++;
    entry!.moveCycle = this.moveCycle;
    return entry!.key;
  }

  private before(a: Entry, b: Entry): boolean {
    if (a.priority !== b.priority) return a.priority > b.priority;
    if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp;
    return a.seq < b.seq;
  }

  private pushActive(entry: Entry): void {
    entry.where = 'active';
    this.active.push(entry);
    this.onActive();
  }

  /** The attempt failed: wait for a relevant change, for the back-off, and at most 5 minutes. */
  unschedulable(key: string, plugins: ReadonlySet<string>): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.plugins = plugins;
    entry.backoffUntil = this.now() + Math.min(INITIAL_BACKOFF_MS * 2 ** (entry.attempts - 1), MAX_BACKOFF_MS);
    entry.where = 'unschedulable';
    this.timers.cancel(entry.timer);
    entry.timer = this.timers.after(MAX_UNSCHEDULABLE_MS, () => this.move(entry));
    // The cluster changed while the attempt ran: what it saw may be stale.
    if (entry.moveCycle !== this.moveCycle) this.move(entry);
  }

  /** The attempt failed for a reason of its own (an API error): retry after the back-off. */
  retryAfterError(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.plugins = new Set();
    entry.backoffUntil = this.now() + Math.min(INITIAL_BACKOFF_MS * 2 ** (entry.attempts - 1), MAX_BACKOFF_MS);
    entry.where = 'unschedulable';
    this.move(entry);
  }

  /** The attempt is over and the pod is bound (or gone). */
  done(key: string): void {
    this.remove(key);
  }

  /** A cluster change that may help pods rejected by any of `plugins` (undefined: every pod). */
  moveForEvent(plugins?: readonly string[]): void {
    this.moveCycle++;
    for (const entry of this.entries.values()) {
      if (entry.where !== 'unschedulable') continue;
      if (plugins && entry.plugins.size > 0 && !plugins.some((p) => entry.plugins.has(p))) continue;
      this.move(entry);
    }
  }

  /** The pod itself changed (its spec, labels or annotations): it may fit now. */
  podUpdated(key: string, priority: number): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.priority = priority;
    if (entry.where === 'unschedulable') this.move(entry);
  }

  /** To activeQ, or to backoffQ until its back-off ends. */
  private move(entry: Entry): void {
    if (this.entries.get(entry.key) !== entry || entry.where === 'active' || entry.where === 'inFlight') return;
    this.timers.cancel(entry.timer);
    entry.timer = undefined;
    if (entry.backoffUntil > this.now()) {
      entry.where = 'backoff';
      entry.timer = this.timers.at(entry.backoffUntil, () => {
        if (this.entries.get(entry.key) === entry && entry.where === 'backoff') this.pushActive(entry);
      });
      return;
    }
    this.pushActive(entry);
  }

  clear(): void {
    for (const e of this.entries.values()) this.timers.cancel(e.timer);
    this.entries.clear();
    this.active = [];
  }
}
