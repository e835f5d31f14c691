// Time and signals: sleeps on the cluster's time cursor, SIGTERM and
// SIGKILL as the runtime delivers them (rejecting sleeps), traps, PID 1's
// shield, background jobs, and the busy-loop throttle.

import { describe, expect, it } from 'vitest';
import { startCommand } from './index';
import { FakeIo } from './testing/fake-io';
import { run, sh } from './testing/run';

describe('time', () => {
  it('writes a line every 5 s of cluster time until SIGTERM ends the loop (143)', async () => {
    const r = await sh('while true; do echo "hi $(date +%s)"; sleep 5; done', { signals: [{ at: 12_000, signal: 'SIGTERM' }] });
    const lines = r.io.timedLines();
    expect(lines.map((l) => l.at)).toEqual([0, 5000, 10000]);
    const seconds = lines.map((l) => Number(l.line.split(' ')[1]));
    expect(seconds[1]! - seconds[0]!).toBe(5);
    expect(seconds[2]! - seconds[1]!).toBe(5);
    expect(r.code).toBe(143);
    expect(r.io.elapsed()).toBe(12_000);
  });

  it('sleeps with suffixes and fractions', async () => {
    const r = await sh('sleep 1.5; sleep 1m 2s; date +%s.%N; sleep 0.25s; date -Iseconds');
    expect(r.io.elapsed()).toBe(1500 + 62_000 + 250);
    expect(r.out).toBe(`${Math.floor((r.io.start + 63_500) / 1000)}.500000000\n2026-11-28T17:43:20+00:00\n`);
  });

  it('rejects a bad duration', async () => {
    const r = await sh('sleep 5x');
    expect(r.err).toBe("sleep: invalid number '5x'\n");
    expect(r.code).toBe(1);
  });
});

describe('signals', () => {
  it('ignores SIGTERM as PID 1 without a trap, until SIGKILL (137)', async () => {
    const r = await sh('while true; do echo tick; sleep 10; done', {
      pid1: true,
      signals: [
        { at: 5_000, signal: 'SIGTERM' },
        { at: 35_000, signal: 'SIGKILL' },
      ],
    });
    expect(r.out).toBe('tick\ntick\ntick\ntick\n');
    expect(r.code).toBe(137);
    expect(r.io.elapsed()).toBe(35_000);
  });

  it('runs a TERM trap once the foreground sleep has ended, and exits with its status', async () => {
    const r = await sh("trap 'echo bye; exit 0' TERM; while true; do echo hi; sleep 5; done", {
      pid1: true,
      signals: [{ at: 7_000, signal: 'SIGTERM' }],
    });
    expect(r.io.timedLines()).toEqual([
      { at: 0, line: 'hi' },
      { at: 5000, line: 'hi' },
      { at: 10000, line: 'bye' },
    ]);
    expect(r.code).toBe(0);
  });

  it('cuts `wait` short for a trapped signal', async () => {
    const r = await sh("trap 'echo got TERM; exit 0' TERM; sleep 1000 & wait $!", {
      pid1: true,
      signals: [{ at: 3_000, signal: 'SIGTERM' }],
    });
    expect(r.out).toBe('got TERM\n');
    expect(r.io.elapsed()).toBe(3_000);
    expect(r.code).toBe(0);
  });

  it('lets a trap print and the script go on', async () => {
    const r = await sh("trap 'echo caught' TERM; sleep 2; echo after; sleep 2; echo end", { signals: [{ at: 1_000, signal: 'SIGTERM' }] });
    expect(r.out).toBe('caught\nafter\nend\n');
    expect(r.code).toBe(0);
  });

  it('ignores a signal trapped with an empty action', async () => {
    const r = await sh("trap '' TERM; sleep 5; echo survived", { signals: [{ at: 1_000, signal: 'SIGTERM' }] });
    expect(r.out).toBe('survived\n');
  });

  it('treats sleep as PID 1 the same: SIGTERM is ignored, SIGKILL ends it', async () => {
    const r = await run(['sleep', '3600'], { pid1: true, signals: [{ at: 1_000, signal: 'SIGTERM' }, { at: 31_000, signal: 'SIGKILL' }] });
    expect(r.code).toBe(137);
    expect(r.io.elapsed()).toBe(31_000);
  });

  it('ends an exec-ed sleep with SIGTERM (143) when it is not PID 1', async () => {
    const r = await run(['sleep', 'infinity'], { signals: [{ at: 2_000, signal: 'SIGTERM' }] });
    expect(r.code).toBe(143);
  });

  it('forwards SIGTERM to a runtime program that is the main process', async () => {
    const r = await run(['nginx'], {
      pid1: true,
      signals: [{ at: 4_000, signal: 'SIGTERM' }],
      programs: {
        nginx: async (_args, io) => {
          try {
            await io.sleep(1e9);
            return 0;
          } catch (error) {
            io.stdout(`nginx got ${(error as Error).message}\n`);
            return 0;
          }
        },
      },
    });
    expect(r.out).toBe('nginx got SIGTERM\n');
    expect(r.code).toBe(0);
  });

  it('signals through the process handle', async () => {
    const io = new FakeIo();
    const process = startCommand(['sh', '-c', 'sleep 100'], io);
    process.signal('SIGKILL');
    expect((await process.done).code).toBe(137);
  });
});

describe('jobs', () => {
  it('runs background jobs concurrently and waits for them', async () => {
    const r = await sh('(sleep 2; echo second) & (sleep 1; echo first) & wait; echo both');
    expect(r.io.timedLines()).toEqual([
      { at: 1000, line: 'first' },
      { at: 2000, line: 'second' },
      { at: 2000, line: 'both' },
    ]);
  });

  it('gives $! and the status of a waited job; kill ends a job', async () => {
    const r = await sh('sh -c "exit 7" & wait $!; echo $?; sleep 100 & kill $!; wait $!; echo $?');
    expect(r.out).toBe('7\n143\n');
    expect(r.io.elapsed()).toBe(0);
  });
});

describe('busy loops', () => {
  it('sleeps 100 ms of cluster time after 100 commands without a sleep (~1,000 lines a second)', async () => {
    const r = await sh('while true; do echo x; done', { limitMs: 1_000 });
    const lines = r.io.timedLines();
    expect(r.code).toBe(137);
    // 100 lines, then 100 ms of sleep, and again: 1,000 lines in the first second.
    expect(lines.filter((l) => l.at < 1_000).length).toBe(1_000);
    expect(lines.filter((l) => l.at === 0).length).toBe(100);
    expect(lines.filter((l) => l.at === 100).length).toBe(100);
  });

  it('throttles yes into the log to 1,000 lines a second', async () => {
    const r = await run(['yes'], { limitMs: 2_000 });
    expect(r.io.timedLines().filter((l) => l.at < 1_000).length).toBe(1_000);
  });
});
