// The one source of time for the core. Tokens, continue tokens, watch history
// and timestamps all read it, so a tutorial or a test can move time forward
// and see them expire. Nothing in src/core calls Date.now() directly.

export interface Clock {
  /** Milliseconds since the Unix epoch, including any configured offset. */
  now(): number;
  /** Moves the clock forward (never backward) by ms milliseconds. */
  advance(ms: number): void;
  /** The current offset from the host's clock, in ms. */
  offset(): number;
  /**
   * How many clock milliseconds pass per host millisecond (1 unless a host
   * scales simulated time, e.g. `--time-scale 10`). Timers divide their
   * waits by it. Absent means 1.
   */
  readonly rate?: number;
  /**
   * Calls the listener after every `advance` (a tutorial or a test moving
   * time forward), so that timers on this clock fire at once instead of on
   * their next poll. Returns the unsubscribe function.
   */
  onAdvance?(listener: () => void): () => void;
}

/** Listeners of a clock's advances. */
function advanceListeners(): { add(listener: () => void): () => void; notify(): void } {
  const listeners = new Set<() => void>();
  return {
    add(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify() {
      for (const l of [...listeners]) {
        try {
          l();
        } catch {
          // A listener's failure is its own; the clock has moved regardless.
        }
      }
    },
  };
}

/**
 * The host's clock plus an offset. With `rate` > 1 (Node's --time-scale),
 * time after the clock's creation runs that many times faster than the
 * host's: the offset grows with it, so `offset()` still says how far the
 * cluster's time is ahead of the host's.
 */
export function systemClock(initialOffsetMs = 0, rate = 1): Clock {
  let offsetMs = initialOffsetMs;
  const listeners = advanceListeners();
  const origin = Date.now();
  const scaled = rate === 1 ? () => 0 : () => (Date.now() - origin) * (rate - 1);
  return {
    now: () => Date.now() + offsetMs + scaled(),
    advance(ms) {
      if (!(ms >= 0)) throw new Error('the clock only moves forward');
      offsetMs += ms;
      listeners.notify();
    },
    offset: () => offsetMs + scaled(),
    rate,
    onAdvance: (listener) => listeners.add(listener),
  };
}

/** A clock that only moves when told (tests). */
export function manualClock(startMs = Date.UTC(2024, 11, 11, 12, 0, 0)): Clock {
  let current = startMs;
  const listeners = advanceListeners();
  return {
    now: () => current,
    advance(ms) {
      if (!(ms >= 0)) throw new Error('the clock only moves forward');
      current += ms;
      listeners.notify();
    },
    offset: () => 0,
    // Never moves on its own: timers on it wait for advance() alone.
    rate: 0,
    onAdvance: (listener) => listeners.add(listener),
  };
}

/** The last second formatted: a write stamps several times in one second (creation, managed fields, audit). */
let formattedSecond = NaN;
let formattedText = '';

/** RFC 3339 with second precision, as metav1.Time serialises ("2024-12-11T12:00:00Z"). */
export function rfc3339(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== formattedSecond) {
    // Not finite: toISOString throws its RangeError here, as before.
    formattedText = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    formattedSecond = second;
  }
  return formattedText;
}

/** RFC 3339 with microseconds, as metav1.MicroTime serialises. */
export function rfc3339Micro(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
