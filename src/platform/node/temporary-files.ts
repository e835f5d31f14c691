// Directories the Node CLI creates for one run only (in memory, the generated
// keys, tokens and certificates; with --print-env, the kubeconfig): removed
// when the process exits, however it exits (normal end, SIGINT/SIGTERM, a
// start-up failure), so that no keys are left behind in the temp directory.

import { rmSync } from 'node:fs';

const directories = new Set<string>();
let hooked = false;

/** Removes `dir` (recursively) when the process exits; returns it. */
export function removeOnExit(dir: string): string {
  directories.add(dir);
  if (!hooked) {
    hooked = true;
    // 'exit' runs synchronously on process.exit() and at the natural end; the signal handlers end with process.exit().
    process.on('exit', () => {
      for (const d of directories) rmSync(d, { recursive: true, force: true });
    });
  }
  return dir;
}
