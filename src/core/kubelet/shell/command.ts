// What a builtin or utility is given when it runs: its arguments, its
// standard streams (after redirections and pipes), its environment and
// working directory, and the process it runs in (for sleeping, which is how
// a signal reaches it).

import type { Shell } from './interpreter';
import type { Proc } from './process';
import type { InputStream, OutputStream } from './streams';
import type { ShellIO } from './types';

export interface Streams {
  stdin: InputStream;
  stdout: OutputStream;
  stderr: OutputStream;
}

export interface CommandContext {
  /** The name it was called by (`echo`, `/bin/echo`). */
  readonly name: string;
  readonly args: readonly string[];
  readonly streams: Streams;
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly io: ShellIO;
  readonly proc: Proc;
  /** The shell running the command (for the builtins that change it: cd, export, read, …). */
  readonly shell: Shell;
  out(text: string): Promise<void>;
  err(text: string): Promise<void>;
  /** A path resolved against the working directory. */
  resolve(path: string): string;
}

export type Utility = (ctx: CommandContext) => Promise<number>;
