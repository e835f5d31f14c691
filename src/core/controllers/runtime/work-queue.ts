// A work queue with client-go's workqueue semantics, keyed by strings: a key
// is queued at most once; a key added while it is being processed is
// processed again afterwards; failures are retried with exponential backoff
// (5 ms doubling, capped); `addAfter` delays a key (a re-check after an
// estimate). The first few retries count as work in hand for `idle()`;
// later ones and delayed keys do not, so that a permanently failing object
// cannot keep the controllers from ever being idle.

import type { Activity } from './activity';

export type SyncResult = void | { readonly requeueAfterMs: number };
export type SyncFn = (key: string) => Promise<SyncResult>;

const BASE_DELAY_MS = 5;
const MAX_DELAY_MS = 30_000;
/** Retries within this many failures count as work in hand (5+10+20+40+80 ms). */
const COUNTED_RETRIES = 5;

export interface Logger {
  (message: string): void;
}

export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, { id: ReturnType<typeof setTimeout>; end?: () => void }>();
  private readonly ends = new Map<string, () => void>();
  private running = 0;
  private stopped = false;
  private drained: (() => void)[] = [];

  constructor(
    private readonly name: string,
    private readonly activity: Activity,
    private readonly sync: SyncFn,
    private readonly log: Logger,
    private readonly workers = 1,
  ) {}

  add(key: string): void {
    if (this.stopped) return;
    this.cancelTimer(key);
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push(key);
    this.ends.set(key, this.activity.begin());
    this.pump();
  }

  /** Adds the key after a delay (not counted as work while waiting). A sooner add wins. */
  addAfter(key: string, ms: number, counted = false): void {
    if (this.stopped) return;
    if (ms <= 0) return this.add(key);
    if (this.timers.has(key) || this.queued.has(key)) return;
    const end = counted ? this.activity.begin() : undefined;
    const id = setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
      end?.();
    }, ms);
    this.timers.set(key, { id, end });
  }

  private cancelTimer(key: string): void {
    const t = this.timers.get(key);
    if (!t) return;
    clearTimeout(t.id);
    t.end?.();
    this.timers.delete(key);
  }

  private addRateLimited(key: string): void {
    const n = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, n);
    const delay = Math.min(BASE_DELAY_MS * 2 ** (n - 1), MAX_DELAY_MS);
    this.addAfter(key, delay, n <= COUNTED_RETRIES);
  }

  private pump(): void {
    while (!this.stopped && this.running < this.workers && this.queue.length > 0) {
      const key = this.queue.shift()!;
      this.queued.delete(key);
      this.processing.add(key);
      this.running++;
      const end = this.ends.get(key);
      this.ends.delete(key);
      void this.process(key).finally(() => {
        this.processing.delete(key);
        this.running--;
        if (this.dirty.delete(key)) this.add(key);
        end?.();
        if (this.running === 0 && this.queue.length === 0) for (const d of this.drained.splice(0)) d();
        this.pump();
      });
    }
  }

  private async process(key: string): Promise<void> {
    try {
      const result = await this.sync(key);
      this.failures.delete(key);
      if (result && result.requeueAfterMs >= 0) this.addAfter(key, result.requeueAfterMs);
    } catch (err) {
      if (this.stopped) return;
      this.log(`${this.name}: error syncing ${JSON.stringify(key)}: ${err instanceof Error ? err.message : String(err)}`);
      this.addRateLimited(key);
    }
  }

  /** Stops taking work, drops delayed keys and waits for running syncs. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const key of [...this.timers.keys()]) this.cancelTimer(key);
    for (const end of this.ends.values()) end();
    this.ends.clear();
    this.queue.length = 0;
    this.queued.clear();
    if (this.running > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
  }
}
