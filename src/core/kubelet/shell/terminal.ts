// A process on a terminal (`kubectl exec -it`, `kubectl attach -it`,
// `kubectl run -it`): the runtime hands over the bytes the client types,
// the line discipline turns them into lines (and echo) for the process's
// standard input, Ctrl-C signals the foreground process, and output goes
// out with '\r\n' line ends.

import { startCommand, type RunOptions, type ShellProcess } from './index';
import { LineDiscipline, terminalOutput } from './line-discipline';
import type { ShellIO } from './types';
import { deriveIo } from './derive-io';

export interface TerminalSession extends ShellProcess {
  /** Bytes the client typed. */
  input(data: Uint8Array | string): void;
  /** The client closed its standard input. */
  closeInput(): void;
}

export function startTerminalSession(argv: readonly string[], io: ShellIO, options: RunOptions = {}): TerminalSession {
  const lines: (string | null)[] = [];
  let waiting: ((chunk: string | null) => void) | undefined;
  let closed = false;
  const push = (chunk: string | null): void => {
    if (closed) return;
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(chunk);
    } else lines.push(chunk);
  };
  const ttyIo: ShellIO = deriveIo(io, {
    tty: true,
    stdout: (text) => io.stdout(terminalOutput(text)),
    stderr: (text) => io.stdout(terminalOutput(text)),
    readStdin: () => {
      if (lines.length > 0) return Promise.resolve(lines.shift()!);
      if (closed) return Promise.resolve(null);
      return new Promise((resolve) => (waiting = resolve));
    },
  });
  const discipline = new LineDiscipline({
    echo: (text) => io.stdout(text),
    line: (text) => push(text),
    interrupt: (signal) => process.signal(signal === 'INT' ? 'SIGINT' : 'SIGQUIT'),
    endOfInput: () => push(null),
  });
  const process = startCommand(argv, ttyIo, options);
  return {
    pid: process.pid,
    done: process.done,
    signal: (signal) => process.signal(signal),
    input: (data) => discipline.input(data),
    closeInput: () => {
      push(null);
      closed = true;
    },
  };
}
