import { describe, expect, it } from 'vitest';
import { Ticker, type TickerTimers } from './ticker';
import { ageText } from './use-age';

// Rule (issue 6, quality): ages tick with one shared timer, not one per cell, and only while shown.

function fakeTimers() {
  let now = 1_000_000;
  const intervals = new Map<number, () => void>();
  let next = 1;
  const timers: TickerTimers = {
    now: () => now,
    setInterval: (callback) => {
      intervals.set(next, callback);
      return next++;
    },
    clearInterval: (handle) => void intervals.delete(handle as number),
  };
  return {
    timers,
    intervals,
    advance(ms: number) {
      now += ms;
      for (const callback of [...intervals.values()]) callback();
    },
  };
}

describe('ticker', () => {
  it('runs one interval for any number of subscribers and stops with the last one', () => {
    const clock = fakeTimers();
    const ticker = new Ticker(1000, clock.timers);
    const seen: number[] = [];
    const unsubscribers = Array.from({ length: 50 }, () => ticker.subscribe(() => seen.push(ticker.now())));
    expect(clock.intervals.size).toBe(1);
    clock.advance(1000);
    expect(seen).toHaveLength(50);
    expect(ticker.now()).toBe(1_001_000);
    for (const unsubscribe of unsubscribers) unsubscribe();
    expect(clock.intervals.size).toBe(0);
    expect(ticker.running).toBe(false);
  });

  it('reads the server clock: this computer plus the offset the cluster clock was moved by', () => {
    const clock = fakeTimers();
    const ticker = new Ticker(1000, clock.timers, (t) => t.setOffset(3_600_000));
    const unsubscribe = ticker.subscribe(() => {});
    expect(ticker.now()).toBe(1_000_000 + 3_600_000);
    unsubscribe();
  });
});

describe('ageText', () => {
  // kubectl's HumanDuration, as the server's Age column prints it.
  it('prints ages as the server does', () => {
    const created = '2026-01-01T00:00:00Z';
    const t = Date.parse(created);
    expect(ageText(created, t + 59_000)).toBe('59s');
    expect(ageText(created, t + 130_000)).toBe('2m10s');
    expect(ageText(created, t + 11 * 60_000)).toBe('11m');
    expect(ageText(created, t + 5 * 3_600_000 + 60_000)).toBe('5h1m');
    expect(ageText('not a time', t)).toBe('<unknown>');
  });
});
