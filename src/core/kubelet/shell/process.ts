// The shell's processes: the container's process that runCommand starts, and
// the subshells it forks (pipeline members, `( … )`, `$( … )`, background
// jobs). A process waits only through here, so that a signal, or its
// parent's end, can stop it wherever it is.
//
// Time. Time passes only through ShellIO.sleep, on the cluster's Clock.
// Several sleeps may be pending at once (a background job's and the
// foreground's); the runtime rejects them with a ProcessSignal when the
// process is signalled. Every rejection is routed to the container's main
// process (`Kernel.deliverFromRuntime`); several rejections carrying the same
// ProcessSignal object, or the same signal at the same instant of cluster
// time, count as one signal.
//
// Busy loops. A script that never sleeps (`while true; do echo x; done`)
// would run forever in one unbroken chain of microtasks, starving the host
// and flooding the log. So each process counts the commands it runs (`step`:
// the shell's simple commands except those of a loop's condition, and each
// line `yes` writes) and, after 100 of them without any sleep, sleeps 100 ms
// of cluster time itself: that loop writes about 1,000 lines per second of
// cluster time, the same on every run, and a signal reaches it there.

import { ProcessSignal } from './types';
import type { ShellIO } from './types';
import { CommandSignalled, ProcessTerminated, WaitInterrupted } from './errors';

export const SIGNAL_NUMBERS: Readonly<Record<string, number>> = {
  HUP: 1, INT: 2, QUIT: 3, ILL: 4, TRAP: 5, ABRT: 6, BUS: 7, FPE: 8, KILL: 9, USR1: 10, SEGV: 11,
  USR2: 12, PIPE: 13, ALRM: 14, TERM: 15, STKFLT: 16, CHLD: 17, CONT: 18, STOP: 19, TSTP: 20,
  TTIN: 21, TTOU: 22, URG: 23, XCPU: 24, XFSZ: 25, VTALRM: 26, PROF: 27, WINCH: 28, IO: 29, PWR: 30, SYS: 31,
};

/** A signal's name without SIG ('TERM'), from a name, a SIG name or a number; undefined when unknown. */
export function signalName(spec: string): string | undefined {
  const upper = spec.toUpperCase().replace(/^SIG/, '');
  if (upper in SIGNAL_NUMBERS) return upper;
  if (/^[0-9]+$/.test(spec)) {
    const n = Number(spec);
    if (n === 0) return 'EXIT';
    return Object.keys(SIGNAL_NUMBERS).find((name) => SIGNAL_NUMBERS[name] === n);
  }
  return undefined;
}

/** The commands a process may run back to back without sleeping before it is made to sleep. */
export const COMMANDS_BEFORE_THROTTLE = 100;
/** How long a busy process is made to sleep (ms of cluster time). */
export const THROTTLE_SLEEP_MS = 100;

/**
 * What a wait is, for a signal's sake:
 * - 'command': a running command (sleep, tail -f, nc -l): a signal to the
 *   process group (Ctrl-C) kills it; a signal to the shell alone does not;
 * - 'interruptible': a wait a trapped signal cuts short (`wait`, an interactive read);
 * - 'program': a program the runtime provides (nginx): a signal meant for it
 *   rejects its sleep with a ProcessSignal, and the program decides;
 * - 'shell': the shell's own (the busy-loop throttle): only the process's death ends it.
 */
export type WaitKind = 'command' | 'interruptible' | 'program' | 'shell';

interface Waiter {
  readonly kind: WaitKind;
  readonly reject: (error: Error) => void;
}

/**
 * How the program running in a process reacts to a signal it receives:
 * 'default' lets the process take the signal's default action, 'handled'
 * means the program took care of it.
 */
export type SignalHandler = (signal: string, toGroup: boolean) => 'default' | 'handled';

export class Kernel {
  private nextPid: number;
  readonly root: Proc;
  private readonly seenSignals = new WeakSet<object>();
  private lastRuntimeSignal: { signal: string; at: number } | undefined;
  /** A read of the runtime's stdin not yet taken by a reader. */
  pendingStdin: Promise<string | null> | undefined;
  /** How a read of the runtime's stdin waits: an interactive shell's read of its next line is cut short by Ctrl-C. */
  stdinWaitKind: WaitKind = 'command';

  constructor(
    readonly io: ShellIO,
    /** The process runs as its container's PID 1: signals without a handler are ignored, as the kernel does for init. */
    readonly pid1: boolean,
  ) {
    const rootPid = io.pid ?? (pid1 ? 1 : 7);
    this.nextPid = rootPid + 1;
    this.root = new Proc(this, rootPid, undefined);
  }

  allocatePid(): number {
    return this.nextPid++;
  }

  now(): number {
    return this.io.now();
  }

  /** A signal the runtime delivered by rejecting a sleep: it is for the container's main process. */
  deliverFromRuntime(error: ProcessSignal): void {
    if (this.seenSignals.has(error)) return;
    this.seenSignals.add(error);
    const signal = error.signal.replace(/^SIG/, '');
    const at = this.io.now();
    if (this.lastRuntimeSignal && this.lastRuntimeSignal.signal === signal && this.lastRuntimeSignal.at === at) return;
    this.lastRuntimeSignal = { signal, at };
    // An interrupt comes from a terminal (Ctrl-C): it goes to the foreground process group.
    this.root.signal(signal, signal === 'INT');
  }
}

export class Proc {
  private readonly waiters = new Set<Waiter>();
  private readonly children = new Set<Proc>();
  private stepsSinceSleep = 0;
  /** The process's exit code once it is terminated (killed, or its parent ended). */
  terminatedWith: number | undefined;
  private readonly terminatedListeners: ((code: number) => void)[] = [];
  /** Installed by the shell (traps, an interactive shell's own rules) or a program that handles signals. */
  signalHandler: SignalHandler | undefined;
  /** A background job: not in the foreground process group, so Ctrl-C does not reach it. */
  background = false;

  constructor(
    readonly kernel: Kernel,
    readonly pid: number,
    readonly parent: Proc | undefined,
  ) {
    parent?.children.add(this);
  }

  fork(background = false): Proc {
    const child = new Proc(this.kernel, this.kernel.allocatePid(), this);
    child.background = background;
    if (this.terminatedWith !== undefined) child.terminate(this.terminatedWith);
    return child;
  }

  /** The process is done (its work ended): it leaves its parent's children. */
  exited(): void {
    this.parent?.children.delete(this);
  }

  /** Runs the process's work; settles with the work's result or, if the process is terminated first, with its code. */
  run(work: () => Promise<number>): Promise<number> {
    if (this.terminatedWith !== undefined) return Promise.resolve(this.terminatedWith);
    return new Promise<number>((resolve) => {
      let settled = false;
      const finish = (code: number): void => {
        if (settled) return;
        settled = true;
        this.exited();
        resolve(code);
      };
      this.terminatedListeners.push(finish);
      work().then(finish, (error: unknown) => {
        if (error instanceof ProcessTerminated) finish(error.code);
        else if (this.terminatedWith !== undefined) finish(this.terminatedWith);
        else {
          // A bug in the shell must not leave a container hanging: it ends like a crashed program.
          finish(this.crash(error));
        }
      });
    });
  }

  private crash(error: unknown): number {
    const message = error instanceof Error ? error.message : String(error);
    this.kernel.io.stderr(`sh: internal error: ${message}\n`);
    return 2;
  }

  /** Ends the process and its descendants now: every wait of theirs rejects. */
  terminate(code: number): void {
    if (this.terminatedWith !== undefined) return;
    this.terminatedWith = code;
    for (const child of [...this.children]) child.terminate(code);
    const error = new ProcessTerminated(code);
    for (const waiter of [...this.waiters]) waiter.reject(error);
    this.waiters.clear();
    for (const listener of this.terminatedListeners.splice(0)) listener(code);
  }

  /** Ends the descendants only (the process itself ends normally). */
  terminateChildren(code: number): void {
    for (const child of [...this.children]) child.terminate(code);
  }

  /**
   * Delivers a signal. `toGroup` is a signal to the foreground process group
   * (Ctrl-C in a terminal): the running command gets it too.
   */
  signal(signal: string, toGroup: boolean): void {
    if (this.terminatedWith !== undefined) return;
    const number = SIGNAL_NUMBERS[signal] ?? 15;
    if (signal === 'KILL') {
      this.terminate(128 + 9);
      return;
    }
    if (toGroup) {
      // The foreground command (a child of the shell in a real system) gets the signal too.
      for (const child of [...this.children]) if (!child.background) child.signal(signal, true);
      if (hasDefaultDeath(signal)) this.interruptWaits('command', new CommandSignalled(128 + number));
      this.interruptWaits('program', programSignal(signal, number));
    }
    const handled = this.signalHandler?.(signal, toGroup) ?? 'default';
    if (handled === 'handled') return;
    if (!hasDefaultDeath(signal)) return;
    // PID 1 gets no default action from the kernel: the signal is dropped.
    if (this.kernel.pid1 && this === this.kernel.root) return;
    this.terminate(128 + number);
  }

  /** Forwards a signal to the runtime program this process runs (its sleeps reject with it). */
  signalProgram(signal: string): void {
    this.interruptWaits('program', programSignal(signal, SIGNAL_NUMBERS[signal] ?? 15));
  }

  /** Rejects the waits of one kind (a trapped signal cutting `wait` short, Ctrl-C killing a running command). */
  interruptWaits(kind: WaitKind, error: Error): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.kind === kind) {
        this.waiters.delete(waiter);
        waiter.reject(error);
      }
    }
  }

  /** Waits for a promise, or until the process is terminated or the wait interrupted. */
  wait<T>(kind: WaitKind, promise: Promise<T>): Promise<T> {
    if (this.terminatedWith !== undefined) return Promise.reject(new ProcessTerminated(this.terminatedWith));
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = { kind, reject };
      this.waiters.add(waiter);
      promise.then(
        (value) => {
          this.waiters.delete(waiter);
          resolve(value);
        },
        (error: unknown) => {
          this.waiters.delete(waiter);
          reject(error);
        },
      );
    });
  }

  /**
   * Sleeps `ms` of cluster time. A signal the runtime delivers meanwhile goes
   * to the container's main process; unless it ends this process or
   * interrupts this kind of wait, the sleep goes on until its due time (a
   * `sleep 5` in a script whose shell traps TERM finishes before the trap runs).
   */
  async sleep(ms: number, kind: WaitKind = 'command'): Promise<void> {
    const io = this.kernel.io;
    const due = io.now() + Math.max(0, ms);
    for (;;) {
      if (this.terminatedWith !== undefined) throw new ProcessTerminated(this.terminatedWith);
      const left = due - io.now();
      if (left <= 0) break;
      const pending = io.sleep(Math.min(left, MAX_SLEEP_MS));
      let runtimeError: unknown;
      // Attached first, so the signal is delivered (and may interrupt this
      // wait with an error of its own) before this wait learns of it.
      pending.catch((error: unknown) => {
        runtimeError = error;
        if (error instanceof ProcessSignal) this.kernel.deliverFromRuntime(error);
      });
      try {
        await this.wait(kind, pending);
      } catch (error) {
        // The runtime's rejection itself: the signal has been delivered and did not concern this wait.
        if (error === runtimeError && error instanceof ProcessSignal) continue;
        throw error;
      }
    }
    this.stepsSinceSleep = 0;
  }

  /** Throws when the process has been terminated. */
  checkAlive(): void {
    if (this.terminatedWith !== undefined) throw new ProcessTerminated(this.terminatedWith);
  }

  /** Counts a command run; a process that has run many without sleeping sleeps a little (see the file's header). */
  async step(): Promise<void> {
    if (this.terminatedWith !== undefined) throw new ProcessTerminated(this.terminatedWith);
    if (this.stepsSinceSleep >= COMMANDS_BEFORE_THROTTLE) {
      await this.sleep(THROTTLE_SLEEP_MS, 'shell');
    }
    this.stepsSinceSleep++;
  }

  /** Reads the process's standard input from the runtime; a chunk a terminated wait missed is kept for the next read. */
  readRuntimeStdin(kind: WaitKind): Promise<string | null> {
    const io = this.kernel.io;
    if (!io.readStdin) return Promise.resolve(null);
    const kernel = this.kernel;
    // A read cut short (Ctrl-C, a trap) leaves its request pending: the next read takes its chunk.
    if (!kernel.pendingStdin) {
      kernel.pendingStdin = io.readStdin();
      // A read nobody waits for any more must not surface as an unhandled rejection.
      kernel.pendingStdin.catch(() => {});
    }
    const pending = kernel.pendingStdin;
    return this.wait(kind, pending).then((chunk) => {
      if (kernel.pendingStdin === pending) kernel.pendingStdin = undefined;
      return chunk;
    });
  }
}

/** A real timer cannot wait beyond 2^31-1 ms; a longer sleep (sleep infinity) waits in steps of a day. */
const MAX_SLEEP_MS = 86_400_000;

/** Signals whose default action ends the process (all but CHLD, CONT, URG, WINCH and the stop signals). */
function hasDefaultDeath(signal: string): boolean {
  return !['CHLD', 'CONT', 'URG', 'WINCH', 'STOP', 'TSTP', 'TTIN', 'TTOU'].includes(signal);
}

function programSignal(signal: string, number: number): Error {
  if (signal === 'TERM' || signal === 'INT' || signal === 'KILL') return new ProcessSignal(`SIG${signal}`);
  return new CommandSignalled(128 + number);
}

/** The exit code of a process killed by a signal. */
export function signalExitCode(signal: string): number {
  return 128 + (SIGNAL_NUMBERS[signal] ?? 15);
}
