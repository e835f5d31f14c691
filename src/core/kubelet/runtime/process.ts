// One simulated process: a container's main process, an exec session, a
// probe or a hook. It runs a command (through the shell, or straight into
// one of the runtime's programs such as nginx) against a ShellIO that this
// file implements: its own time cursor on the cluster Clock (sleeping moves
// the cursor and waits for the Clock to catch up, so moving the Clock fast-
// forwards the process and a replay after a restart reaches the same
// state), output stamped with that cursor, stdin, signals, memory (over the
// container's limit: OOMKilled) and the ports it listens on.
//
// Signals as Linux delivers them to a container's PID 1: SIGKILL always
// ends it (137); SIGTERM reaches only a program that handles it (the image
// servers do, and exit 0); a shell or `sleep` as PID 1 has no handler and
// the kernel ignores the signal, so the kubelet kills it at the end of the
// grace period.

import type { ClockTimers, TimerHandle } from '../../util/clock-timers';
import { ProcessSignal, type ShellFileSystem, type ShellIO } from '../shell/types';

export type ProgramFn = (args: readonly string[], io: ShellIO) => Promise<number>;

export interface Program {
  readonly run: ProgramFn;
  /** The program installs a SIGTERM handler (servers shutting down cleanly). */
  readonly handlesSigterm: boolean;
}

/** A command line running in the shell: its end, and how to signal it (the shell applies traps and PID 1's rules). */
export interface RunningCommand {
  readonly done: Promise<{ code: number }>;
  signal(signal: string): void;
}

/** What runs a command line that is not one of the runtime's programs: the shell. */
export type CommandRunner = (argv: readonly string[], io: ShellIO, pid1: boolean) => RunningCommand;

export interface ProcessExit {
  readonly code: number;
  /** The process time it ended at (ms). */
  readonly atMs: number;
  readonly signal?: 'SIGTERM' | 'SIGKILL';
  readonly oomKilled?: boolean;
  /** A simulation failure (logged by the caller), not the program's own end. */
  readonly crashed?: string;
}

export interface ProcessOptions {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly fs: ShellFileSystem;
  readonly hostname: string;
  readonly timers: ClockTimers;
  /** When the process starts (ms): now, or a past startedAt when a restarted kubelet replays it. */
  readonly startMs: number;
  readonly programs: Readonly<Record<string, Program>>;
  readonly runner: CommandRunner;
  readonly output: (stream: 'stdout' | 'stderr', text: string, atMs: number) => void;
  /** Standard input: absent is /dev/null (reads end at once). */
  readonly stdin?: boolean;
  readonly tty?: boolean;
  readonly cwd?: string;
  readonly pid?: number;
  readonly uid?: number;
  readonly gid?: number;
  /** The container's memory limit (bytes): more is an OOM kill. */
  readonly memoryLimitBytes?: number;
  /** Whether this process is its container's PID 1 (signals as described above). */
  readonly isInit: boolean;
}

const MAX_SLEEP_MS = 8.64e15;

/** The runtime's program a command name refers to (`/usr/sbin/nginx` finds `nginx`). */
export function findProgram(programs: Readonly<Record<string, Program>>, name: string): Program | undefined {
  return programs[name] ?? programs[name.slice(name.lastIndexOf('/') + 1)];
}

export class SimProcess {
  private cursor: number;
  private exitInfo: ProcessExit | undefined;
  private resolveDone!: (exit: ProcessExit) => void;
  readonly done: Promise<ProcessExit>;
  private readonly wakers = new Set<(signal: ProcessSignal) => void>();
  private pendingSignal: ProcessSignal | undefined;
  private readonly stdinQueue: (string | null)[] = [];
  private stdinWaiter: ((chunk: string | null) => void) | undefined;
  readonly ports = new Set<number>();
  memoryBytes = 0;
  cpuNanoCores = 0;
  private readonly sigtermHandled: boolean;
  /** The shell running the command, when it is not one of the runtime's programs. */
  private shell: RunningCommand | undefined;

  constructor(private readonly options: ProcessOptions) {
    this.cursor = options.startMs;
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    const program = findProgram(options.programs, options.argv[0] ?? '');
    this.sigtermHandled = !options.isInit || (program?.handlesSigterm ?? false);
    if (!options.stdin) this.stdinQueue.push(null);
    void this.run(program);
  }

  /** The process's own time now (ms). */
  get time(): number {
    return this.cursor;
  }

  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  get running(): boolean {
    return this.exitInfo === undefined;
  }

  private async run(program: Program | undefined): Promise<void> {
    const io = this.io();
    let code: number;
    try {
      if (program) code = await program.run(this.options.argv.slice(1), io);
      else {
        this.shell = this.options.runner(this.options.argv, io, this.options.isInit);
        code = (await this.shell.done).code;
      }
    } catch (err) {
      if (err instanceof ProcessSignal) code = err.signal === 'SIGKILL' ? 137 : err.signal === 'SIGTERM' ? 143 : 130;
      else {
        this.finish({ code: 1, atMs: this.cursor, crashed: err instanceof Error ? err.message : String(err) });
        return;
      }
    }
    this.finish({ code, atMs: this.cursor });
  }

  private finish(exit: ProcessExit): void {
    if (this.exitInfo) return;
    this.exitInfo = exit;
    for (const w of [...this.wakers]) w(new ProcessSignal('SIGKILL'));
    this.stdinWaiter?.(null);
    this.resolveDone(exit);
  }

  /** Delivers a signal at the Clock's current time. */
  signal(signal: 'SIGTERM' | 'SIGKILL' | 'SIGINT', nowMs: number): void {
    if (this.exitInfo) return;
    if (signal === 'SIGKILL') {
      this.cursor = Math.max(this.cursor, nowMs);
      this.finish({ code: 137, atMs: this.cursor, signal: 'SIGKILL' });
      this.shell?.signal('SIGKILL');
      return;
    }
    if (this.shell) {
      // The shell knows its traps and what PID 1 ignores.
      this.cursor = Math.max(this.cursor, nowMs);
      this.shell.signal(signal);
      return;
    }
    if (!this.sigtermHandled) return;
    const sig = new ProcessSignal(signal);
    this.cursor = Math.max(this.cursor, nowMs);
    if (this.wakers.size === 0) this.pendingSignal = sig;
    for (const w of [...this.wakers]) w(sig);
  }

  /** Bytes (as text) for standard input; null ends it. */
  writeStdin(chunk: string | null): void {
    if (this.stdinWaiter) {
      const w = this.stdinWaiter;
      this.stdinWaiter = undefined;
      w(chunk);
    } else this.stdinQueue.push(chunk);
  }

  private oom(): void {
    this.finish({ code: 137, atMs: this.cursor, signal: 'SIGKILL', oomKilled: true });
  }

  private io(): ShellIO {
    const self = this;
    const o = this.options;
    const programs: Record<string, ProgramFn> = {};
    for (const [name, p] of Object.entries(o.programs)) programs[name] = p.run;
    return {
      now: () => self.cursor,
      sleep(ms: number): Promise<void> {
        if (self.exitInfo) return Promise.reject(new ProcessSignal('SIGKILL'));
        if (self.pendingSignal) {
          const s = self.pendingSignal;
          self.pendingSignal = undefined;
          return Promise.reject(s);
        }
        const target = self.cursor + Math.min(Math.max(0, ms), MAX_SLEEP_MS);
        return new Promise<void>((resolve, reject) => {
          let handle: TimerHandle | undefined;
          const waker = (signal: ProcessSignal) => {
            self.wakers.delete(waker);
            o.timers.cancel(handle);
            reject(signal);
          };
          self.wakers.add(waker);
          if (Number.isFinite(target) && target < MAX_SLEEP_MS) {
            handle = o.timers.at(target, () => {
              self.wakers.delete(waker);
              if (self.exitInfo) return reject(new ProcessSignal('SIGKILL'));
              self.cursor = Math.max(self.cursor, target);
              resolve();
            });
          }
        });
      },
      stdout(text: string) {
        if (!self.exitInfo) o.output('stdout', text, self.cursor);
      },
      stderr(text: string) {
        if (!self.exitInfo) o.output(o.tty ? 'stdout' : 'stderr', text, self.cursor);
      },
      readStdin(): Promise<string | null> {
        if (self.exitInfo) return Promise.resolve(null);
        if (self.stdinQueue.length > 0) return Promise.resolve(self.stdinQueue.shift()!);
        return new Promise((resolve, reject) => {
          const waker = (signal: ProcessSignal) => {
            self.wakers.delete(waker);
            self.stdinWaiter = undefined;
            reject(signal);
          };
          self.wakers.add(waker);
          self.stdinWaiter = (chunk) => {
            self.wakers.delete(waker);
            // Input arrives at the Clock's time, not the process's.
            self.cursor = Math.max(self.cursor, o.timers.clock.now());
            resolve(chunk);
          };
        });
      },
      env: o.env,
      fs: o.fs,
      hostname: o.hostname,
      tty: o.tty ?? false,
      setMemoryUsage(bytes: number) {
        self.memoryBytes = Math.max(0, bytes);
        if (o.memoryLimitBytes !== undefined && self.memoryBytes > o.memoryLimitBytes) self.oom();
      },
      setCpuUsage(nanoCores: number) {
        self.cpuNanoCores = Math.max(0, nanoCores);
      },
      listen(port: number) {
        self.ports.add(port);
      },
      programs,
      cwd: o.cwd ?? '/',
      pid: o.pid ?? 1,
      uid: o.uid ?? 0,
      gid: o.gid ?? 0,
    };
  }
}
