// The scheduling queue on a manual Clock: priority order, back-off that
// doubles from 1 s to 10 s, cluster events that move back only the pods
// whose rejecting plugins care, and the 5-minute retry.

import { describe, expect, it } from 'vitest';
import { manualClock } from '../../clock';
import { ClockTimers } from '../../util/clock-timers';
import { SchedulingQueue } from './scheduling-queue';

const settle = () => new Promise((r) => setTimeout(r, 0));

function setup() {
  const clock = manualClock();
  const timers = new ClockTimers(clock);
  let woken = 0;
  const queue = new SchedulingQueue(timers, () => woken++);
  return { clock, timers, queue, woken: () => woken };
}

describe('scheduling queue', () => {
  it('pops the highest priority first, then the earliest queued', () => {
    const { queue } = setup();
    queue.add('ns/low', 0);
    queue.add('ns/high', 100);
    queue.add('ns/low2', 0);
    expect([queue.pop(), queue.pop(), queue.pop(), queue.pop()]).toEqual(['ns/high', 'ns/low', 'ns/low2', undefined]);
  });

  it('backs off 1 s, 2 s, 4 s … at most 10 s before a moved pod is tried again', async () => {
    const { clock, queue } = setup();
    queue.add('ns/p', 0);
    const waits: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      expect(queue.pop()).toBe('ns/p');
      queue.unschedulable('ns/p', new Set(['NodeResourcesFit']));
      queue.moveForEvent(['NodeResourcesFit']);
      let waited = 0;
      while (queue.activeCount === 0) {
        clock.advance(500);
        waited += 500;
        await settle();
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 10000, 10000]);
  });

  it('moves only the pods whose rejecting plugins care about the event, and every pod after 5 minutes', async () => {
    const { clock, queue } = setup();
    queue.add('ns/taint', 0);
    queue.add('ns/cpu', 0);
    queue.pop();
    queue.pop();
    queue.unschedulable('ns/taint', new Set(['TaintToleration']));
    queue.unschedulable('ns/cpu', new Set(['NodeResourcesFit']));
    clock.advance(1000);
    await settle();
    queue.moveForEvent(['NodeResourcesFit', 'NodePorts']);
    expect(queue.activeCount).toBe(1);
    expect(queue.pop()).toBe('ns/cpu');
    clock.advance(5 * 60_000);
    await settle();
    expect(queue.pop()).toBe('ns/taint');
  });
});
