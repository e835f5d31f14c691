// Starts a server in a child process for the Node benchmarks (KubeTab's CLI or
// the bare floor) and resolves with the first http URL it prints, so the
// server under test never shares an event loop with the load generator.

import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './build';

/** Every child still running: killed when this process ends, however it ends (an error, Ctrl-C, a timeout's SIGTERM). */
const running = new Set<ChildProcess>();
let exitHooked = false;
function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.on('exit', () => running.delete(child));
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const c of running) c.kill();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
}

export function startServer(args: string[], timeoutMs = 60_000): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    killOnExit(child);
    let out = '';
    let found = false;
    const timer = setTimeout(() => reject(new Error(`no URL from ${args.join(' ')}: ${out}`)), timeoutMs);
    // Read on after the URL (a full pipe would stall the child) but keep nothing.
    child.stdout!.on('data', (chunk) => {
      if (found) return;
      out += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        found = true;
        clearTimeout(timer);
        resolve({ url: match[1]!, child });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`));
    });
  });
}
