// One clock for every relative time on screen: a single interval, running only
// while something subscribes, so a table of ages costs one timer however many
// cells it shows. The time is the server's (this computer's plus the offset
// the cluster's clock was moved by, Settings → Clock), as the Age column the
// server printed was.

export interface TickerTimers {
  now(): number;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const browserTimers: TickerTimers = {
  now: () => Date.now(),
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

export class Ticker {
  private readonly listeners = new Set<() => void>();
  private handle: unknown = undefined;
  private offsetMs = 0;
  private current: number;

  constructor(
    private readonly periodMs = 1000,
    private readonly timers: TickerTimers = browserTimers,
    /** Called when the first subscriber arrives and on every tick (e.g. to learn the server clock's offset, rate-limited by itself). */
    private readonly onTick?: (ticker: Ticker) => void,
  ) {
    this.current = timers.now();
  }

  /** The server's time as of the last tick (ms since the epoch). */
  now = (): number => this.current;

  /** For useSyncExternalStore: returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.handle === undefined) {
      this.current = this.timers.now() + this.offsetMs;
      this.handle = this.timers.setInterval(() => this.tick(), this.periodMs);
      this.onTick?.(this);
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.handle !== undefined) {
        this.timers.clearInterval(this.handle);
        this.handle = undefined;
      }
    };
  };

  /** How far the server's clock is ahead of this computer's. */
  setOffset(offsetMs: number): void {
    if (offsetMs === this.offsetMs) return;
    this.offsetMs = offsetMs;
    this.current = this.timers.now() + this.offsetMs;
    for (const listener of this.listeners) listener();
  }

  /** Whether the interval is running (tests). */
  get running(): boolean {
    return this.handle !== undefined;
  }

  private tick(): void {
    this.current = this.timers.now() + this.offsetMs;
    for (const listener of this.listeners) listener();
    this.onTick?.(this);
  }
}
