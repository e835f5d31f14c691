// The shape every image server shares: print its start-up lines, listen on
// its port, then run until signalled; SIGTERM makes it print its shutdown
// lines and exit 0, as nginx, redis, httpd and postgres do in a container.

import { ProcessSignal, type ShellIO } from '../../shell/types';

export interface ServerScript {
  readonly port?: number;
  /** Further ports it listens on (health and metrics endpoints). */
  readonly healthPorts?: readonly number[];
  /** Lines written once started: [stream, text] pairs, given the process time. */
  startup(now: number): readonly ['stdout' | 'stderr', string][];
  /** Lines written on SIGTERM before exiting 0. */
  shutdown?(now: number): readonly ['stdout' | 'stderr', string][];
}

/** Runs a server until a signal: SIGTERM → its shutdown lines and exit 0. */
export async function runServer(io: ShellIO, script: ServerScript): Promise<number> {
  for (const [stream, line] of script.startup(io.now())) io[stream](`${line}\n`);
  if (script.port !== undefined) io.listen?.(script.port);
  for (const port of script.healthPorts ?? []) io.listen?.(port);
  for (;;) {
    try {
      await io.sleep(Number.POSITIVE_INFINITY);
    } catch (err) {
      if (err instanceof ProcessSignal && err.signal !== 'SIGKILL') {
        for (const [stream, line] of script.shutdown?.(io.now()) ?? []) io[stream](`${line}\n`);
        return 0;
      }
      throw err;
    }
  }
}
