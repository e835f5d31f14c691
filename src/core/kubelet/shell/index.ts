// KubeTab's small shell: what a simulated container's process does, played
// from its command line against ShellIO (types.ts) only — never a real clock
// or file system — so a container's life is deterministic on the cluster's
// Clock.
//
// For the runtime:
// - runCommand / startCommand: a container's command + args (or an exec's
//   command). `sh -c 'script' [$0 args…]` (also /bin/sh, bash, ash, dash,
//   busybox sh) runs the script; `sh script.sh` runs the file; `sh` alone
//   reads commands from standard input (interactive, with a prompt, when
//   io.tty); anything else runs that program directly with its args, no
//   expansion, as exec does.
// - Signals: reject io.sleep with a ProcessSignal (every pending sleep, with
//   the same object), or call ShellProcess.signal. SIGKILL always ends the
//   process (137). SIGTERM runs a `trap … TERM` action once the foreground
//   command ends (as sh waits for its child), else ends the process (143) —
//   except with `pid1: true`: the container's PID 1 gets no default signal
//   action from the kernel, so a main process without a handler (`sleep
//   3600`, `sh -c 'while …'` without trap) ignores SIGTERM and runs on until
//   the grace period's SIGKILL, as in a real cluster.
// - SIGINT through ShellProcess.signal is a terminal's Ctrl-C: it goes to the
//   foreground process group (the running command dies with 130; an
//   interactive shell survives). startTerminalSession (terminal.ts) does
//   this from the bytes a client types.
// - commandExists: whether a container's executable exists, to refuse one
//   that does not (the runtime reports containerd's error).
// - io.programs adds programs (nginx, redis-server): looked up before the
//   shell's own utilities, so the runtime may also replace one of them.
// - Environment: io.env as given, with PATH, HOSTNAME and HOME added when
//   absent (as containerd adds them).

import type { Streams } from './command';
import { deriveIo } from './derive-io';
import { findExternal, Shell } from './interpreter';
import { createShellState, DEFAULT_PATH, isShellInvocation, runShellInvocation } from './launch';
import { Kernel } from './process';
import { ShellState } from './state';
import { InputStream, SinkStream } from './streams';
import type { ExitStatus, ShellFileSystem, ShellIO } from './types';

export type { ExitStatus, ShellFileSystem, ShellIO } from './types';
export { ProcessSignal } from './types';
export { LineDiscipline, terminalOutput } from './line-discipline';
export { startTerminalSession, type TerminalSession } from './terminal';
export { KERNEL_RELEASE, parseSleepDuration } from './utilities/basic';
export { COMMANDS_BEFORE_THROTTLE, THROTTLE_SLEEP_MS } from './process';

export interface RunOptions {
  /**
   * The process is its container's PID 1 (the container's command, not an
   * exec): a signal it has no handler for is ignored instead of taking its
   * default action (SIGKILL still ends it).
   */
  readonly pid1?: boolean;
}

/** A running process: its PID, a way to signal it, and its end. */
export interface ShellProcess {
  readonly pid: number;
  /** Delivers a signal ('SIGTERM', 'SIGKILL', 'SIGINT' as a terminal's Ctrl-C, 'SIGHUP', 'SIGUSR1', …). */
  signal(signal: string): void;
  readonly done: Promise<ExitStatus>;
}

/** The environment a container's process starts with: io.env, plus PATH, HOSTNAME and HOME when absent. */
export function containerEnvironment(io: Pick<ShellIO, 'env' | 'hostname' | 'uid'>): Record<string, string> {
  const env: Record<string, string> = {};
  if (!Object.hasOwn(io.env, 'PATH')) env['PATH'] = DEFAULT_PATH;
  if (!Object.hasOwn(io.env, 'HOSTNAME')) env['HOSTNAME'] = io.hostname;
  Object.assign(env, io.env);
  if (!Object.hasOwn(io.env, 'HOME')) env['HOME'] = (io.uid ?? 0) === 0 ? '/root' : '/';
  return env;
}

export function startCommand(argv: readonly string[], io: ShellIO, options: RunOptions = {}): ShellProcess {
  const kernel = new Kernel(io, options.pid1 === true);
  const root = kernel.root;
  const stdin = new InputStream(() => root.readRuntimeStdin(kernel.stdinWaitKind));
  const streams: Streams = {
    stdin,
    stdout: new SinkStream((text) => io.stdout(text)),
    stderr: new SinkStream((text) => io.stderr(text)),
  };
  const cwd = io.cwd ?? '/';
  const env = containerEnvironment(io);
  const done = root
    .run(async () => {
      const name = argv[0];
      if (name === undefined) {
        io.stderr('exec: no command\n');
        return 127;
      }
      if (isShellInvocation(argv)) return runShellInvocation(root, io, argv, streams, env, cwd, true);
      const found = findExternal(name, io, cwd);
      if (!found || found.kind === 'directory') {
        io.stderr(`exec: "${name}": ${found ? 'is a directory' : 'executable file not found in $PATH'}\n`);
        return found ? 126 : 127;
      }
      if (found.kind === 'script') {
        // A script run directly: its shell is this process (so its traps get the process's signals).
        const state = createShellState(name, env, cwd, io);
        state.positional = argv.slice(1);
        return new Shell(root, state, io, { interactive: false, scriptName: name }).runProgram(found.text, streams, { execLast: true });
      }
      const state = new ShellState(name, cwd);
      for (const [key, value] of Object.entries(env)) state.set(key, value, true);
      const shell = new Shell(root, state, io, { interactive: false });
      return shell.runExternal(name, argv.slice(1), streams, env, true);
    })
    .then((code) => {
      // The container's main process is gone: whatever it started goes with it.
      root.terminateChildren(137);
      return { code };
    });
  return {
    pid: root.pid,
    done,
    signal: (signal) => {
      const name = signal.replace(/^SIG/, '');
      root.signal(name, name === 'INT' || name === 'QUIT');
    },
  };
}

/** Runs a container's command (or an exec's) to its end. */
export function runCommand(argv: readonly string[], io: ShellIO, options: RunOptions = {}): Promise<ExitStatus> {
  return startCommand(argv, io, options).done;
}

/** An interactive shell on io's standard input: prompts, runs each line, ends at `exit` or the end of input. */
export function runInteractive(io: ShellIO, options: RunOptions = {}): Promise<ExitStatus> {
  return runCommand(['sh'], deriveIo(io, { tty: io.tty ?? true }), options);
}

const NO_FILES: ShellFileSystem = {
  read: () => undefined,
  write: () => 'Read-only file system',
  list: () => undefined,
  isDirectory: () => false,
};

/**
 * Whether an executable exists for a container's command: a shell, one of
 * the shell's utilities (by name, or by path in a bin directory), one of
 * io.programs, or a file in io.fs (a script).
 */
export function commandExists(name: string, io?: Pick<ShellIO, 'fs' | 'programs' | 'cwd'>): boolean {
  const found = findExternal(name, { fs: io?.fs ?? NO_FILES, programs: io?.programs }, io?.cwd ?? '/');
  return found !== undefined && found.kind !== 'directory';
}
