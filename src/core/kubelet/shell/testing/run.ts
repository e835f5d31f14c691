// Test helpers: run a command line or an `sh -c` script against a FakeIo and
// collect its exit code and output.

import { runCommand, type RunOptions } from '../index';
import { FakeIo, type FakeIoOptions } from './fake-io';

export interface RunResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly io: FakeIo;
}

export async function run(argv: readonly string[], options: FakeIoOptions & RunOptions = {}): Promise<RunResult> {
  const io = new FakeIo(options);
  const { code } = await runCommand(argv, io, { pid1: options.pid1 });
  return { code, out: io.output('stdout'), err: io.output('stderr'), io };
}

/** `sh -c SCRIPT` */
export function sh(script: string, options: FakeIoOptions & RunOptions = {}): Promise<RunResult> {
  return run(['sh', '-c', script], options);
}
