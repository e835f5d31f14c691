import { describe, expect, it } from 'vitest';
import { manualClock, systemClock } from '../clock';
import { ClockTimers } from './clock-timers';

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('ClockTimers', () => {
  it('fires due timers in order of their time when the clock is moved forward', () => {
    const clock = manualClock();
    const timers = new ClockTimers(clock);
    const fired: string[] = [];
    timers.after(3000, () => fired.push('c'));
    timers.after(1000, () => fired.push('a'));
    timers.after(1000, () => fired.push('b'));
    timers.after(9000, () => fired.push('late'));
    clock.advance(500);
    expect(fired).toEqual([]);
    clock.advance(2500);
    expect(fired).toEqual(['a', 'b', 'c']);
    expect(timers.pending).toBe(1);
    expect(timers.next).toBe(clock.now() + 6000);
    timers.stop();
  });

  it('does not fire a cancelled timer', () => {
    const clock = manualClock();
    const timers = new ClockTimers(clock);
    const fired: string[] = [];
    const t = timers.after(1000, () => fired.push('x'));
    timers.cancel(t);
    clock.advance(2000);
    expect(fired).toEqual([]);
    expect(timers.pending).toBe(0);
  });

  it('fires a timer set for a time already reached after the current task, so a catching-up loop takes a task per step', async () => {
    const clock = manualClock();
    const timers = new ClockTimers(clock);
    let steps = 0;
    let cursor = clock.now();
    const loop = () => {
      steps++;
      cursor += 1000;
      if (steps < 10) timers.at(cursor, loop);
    };
    timers.at(cursor, loop);
    expect(steps).toBe(0);
    clock.advance(60_000);
    // Each step's successor is due already: each runs in its own task.
    await nextTask();
    await nextTask();
    for (let i = 0; i < 20 && steps < 10; i++) await nextTask();
    expect(steps).toBe(10);
  });

  it('waits on the host clock divided by the rate of a scaled clock', async () => {
    const clock = systemClock(0, 1000);
    const timers = new ClockTimers(clock);
    const started = Date.now();
    // 20 s of cluster time at 1000x is 20 ms of the host's.
    await timers.until(clock.now() + 20_000);
    expect(Date.now() - started).toBeLessThan(2000);
    timers.stop();
  });

  it('after the clock moves forward, waits for the next timer from the new time (not the real wait armed before)', async () => {
    const clock = systemClock();
    const timers = new ClockTimers(clock);
    const fired: string[] = [];
    timers.after(10_000, () => fired.push('lease'));
    // Moving 10 s forward fires the first; one set 50 ms later must fire about 50 ms later, not 10 s later.
    clock.advance(10_000);
    expect(fired).toEqual(['lease']);
    const started = Date.now();
    await timers.until(clock.now() + 50);
    expect(Date.now() - started).toBeLessThan(2000);
    // And one already armed far ahead comes nearer by as much as the clock moves.
    const far = timers.until(clock.now() + 30_000);
    clock.advance(29_950);
    const before = Date.now();
    await far;
    expect(Date.now() - before).toBeLessThan(2000);
    timers.stop();
  });

  it('never fires after stop()', () => {
    const clock = manualClock();
    const timers = new ClockTimers(clock);
    let fired = false;
    timers.after(10, () => (fired = true));
    timers.stop();
    clock.advance(100);
    expect(fired).toBe(false);
  });
});
