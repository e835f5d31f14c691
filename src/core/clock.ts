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
}

export function systemClock(initialOffsetMs = 0): Clock {
  let offsetMs = initialOffsetMs;
  return {
    now: () => Date.now() + offsetMs,
    advance(ms) {
      if (!(ms >= 0)) throw new Error('the clock only moves forward');
      offsetMs += ms;
    },
    offset: () => offsetMs,
  };
}

/** A clock that only moves when told (tests). */
export function manualClock(startMs = Date.UTC(2024, 11, 11, 12, 0, 0)): Clock {
  let current = startMs;
  return {
    now: () => current,
    advance(ms) {
      if (!(ms >= 0)) throw new Error('the clock only moves forward');
      current += ms;
    },
    offset: () => 0,
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
