// Running the real kubectl against a test server, for the kubectl tests:
// found on PATH (or $KUBECTL); every run gets the test's kubeconfig, its own
// HOME and cache directory, and never throws on a non-zero exit (the test
// asserts on it).

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { expect } from 'vitest';

export function findKubectl(): string | undefined {
  if (process.env.KUBECTL && existsSync(process.env.KUBECTL)) return process.env.KUBECTL;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'kubectl');
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface KubectlRunner {
  /** Runs kubectl; resolves with its exit code and output. */
  run(args: string[], input?: string): Promise<Run>;
  /** Runs kubectl expecting success; a failure shows kubectl's own words. */
  ok(args: string[], input?: string): Promise<string>;
}

export function kubectlRunner(kubectl: string, settings: () => { kubeconfig: string; dir: string }): KubectlRunner {
  const run = (args: string[], input?: string) =>
    new Promise<Run>((resolve) => {
      const { kubeconfig, dir } = settings();
      const child = execFile(
        kubectl,
        ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args],
        { env: { ...process.env, HOME: dir, KUBECONFIG: kubeconfig }, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) }),
      );
      if (input !== undefined) child.stdin!.end(input);
    });
  return {
    run,
    async ok(args, input) {
      const result = await run(args, input);
      expect(result.code, `kubectl ${args.join(' ')}\n${result.stderr}${result.stdout}`).toBe(0);
      return result.stdout;
    },
  };
}
