// The kubectl end-to-end suites of the simulated cluster (issues 13 and 14):
// the Node server in its secure default set-up with kind's three nodes, on a
// system clock the test keeps, so that long waits (back-offs, grace periods,
// a CronJob's next minute) pass by moving the cluster's time instead of
// sleeping; kubectl run to completion or in the background (port-forward,
// a wait that the clock will satisfy).

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { systemClock, type Clock } from '../../../core/clock';
import { kubectlRunner, type KubectlRunner } from './kubectl-runner';
import { startSecureKubectlHost, type SecureKubectlHost } from './secure-kubectl-host';

export interface BackgroundKubectl {
  readonly child: ChildProcess;
  /** Everything written so far to stdout and stderr. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches (rejects after timeoutMs, real time). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Resolves with the exit code once kubectl ends. */
  exited(): Promise<number>;
  stop(): Promise<void>;
}

export interface ClusterKubectl extends KubectlRunner {
  readonly server: SecureKubectlHost;
  readonly clock: Clock;
  /**
   * Moves the cluster's time forward in steps, letting every controller and
   * kubelet finish what each step fired before the next (as time passing
   * would), so that a back-off of 10 s and one of 20 s happen in order.
   */
  advance(ms: number, stepMs?: number): Promise<void>;
  /** Moves time forward step by step until `check` passes; false if it never did within `maxMs` of cluster time. */
  advanceUntil(check: () => Promise<boolean>, maxMs: number, stepMs?: number): Promise<boolean>;
  /**
   * Moves the cluster's time along faster than the host's (a step every
   * tenth of a second) until `work` settles, e.g. while `kubectl rollout
   * status` waits for image pulls; resolves with its outcome.
   */
  fastForward<T>(work: Promise<T>, stepMs?: number): Promise<T>;
  /** Starts kubectl and leaves it running. */
  background(args: string[], input?: string): BackgroundKubectl;
  close(): Promise<void>;
}

export async function startClusterKubectl(kubectl: string, prefix: string): Promise<ClusterKubectl> {
  const clock = systemClock();
  const server = await startSecureKubectlHost(prefix, { clock });
  const runner = kubectlRunner(kubectl, () => ({ kubeconfig: server.kubeconfig, dir: server.dir }));
  const children = new Set<ChildProcess>();
  const advance = async (ms: number, stepMs = 1000) => {
    for (let left = ms; left > 0; left -= stepMs) {
      clock.advance(Math.min(stepMs, left));
      await server.host.apiServer.idle();
    }
  };
  return {
    ...runner,
    server,
    clock,
    advance,
    async advanceUntil(check, maxMs, stepMs = 1000) {
      for (let moved = 0; ; moved += stepMs) {
        if (await check()) return true;
        if (moved >= maxMs) return false;
        await advance(stepMs, stepMs);
      }
    },
    async fastForward(work, stepMs = 1000) {
      let settled = false;
      const done = work.finally(() => (settled = true));
      while (!settled) {
        await advance(stepMs, stepMs);
        await Promise.race([done.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 100))]);
      }
      return done;
    },
    background(args, input) {
      const child = spawn(kubectl, ['--kubeconfig', server.kubeconfig, '--cache-dir', join(server.dir, 'cache'), ...args], {
        env: { ...process.env, HOME: server.dir, KUBECONFIG: server.kubeconfig },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      children.add(child);
      let out = '';
      let err = '';
      const exit = new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))));
      void exit.then(() => children.delete(child));
      child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
      if (input !== undefined) child.stdin!.end(input);
      return {
        child,
        stdout: () => out,
        stderr: () => err,
        async waitForOutput(pattern, timeoutMs = 20_000) {
          const end = Date.now() + timeoutMs;
          for (;;) {
            const match = pattern.exec(out);
            if (match) return match;
            if (Date.now() > end || child.exitCode !== null) {
              throw new Error(`kubectl ${args.join(' ')}: no ${pattern} in output\nstdout: ${out}\nstderr: ${err}`);
            }
            await new Promise((resolve) => setTimeout(resolve, 25));
          }
        },
        exited: () => exit,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exit;
        },
      };
    },
    async close() {
      for (const child of children) child.kill('SIGKILL');
      await server.close();
    },
  };
}
