// An in-memory ShellIO for the shell's tests: a file system in a Map, a log
// of what the process wrote with the cluster time of each write, and a
// manual time cursor. Sleeps are discrete events: once every pending
// microtask has run (the process is blocked), the earliest sleep comes due
// and the cursor jumps to its time; signals scheduled for a time reject every
// pending sleep when the cursor reaches it, as the runtime does. A time limit
// ends a process that would run forever with SIGKILL.

import { ProcessSignal, type ShellFileSystem, type ShellIO } from '../types';

export interface FakeIoOptions {
  readonly env?: Record<string, string>;
  /** Files by absolute path; their directories are created. */
  readonly files?: Record<string, string>;
  readonly directories?: readonly string[];
  /** Paths under which writes fail with 'Read-only file system'. */
  readonly readOnly?: readonly string[];
  readonly hostname?: string;
  /** The cursor's start (ms since the epoch); 2026-11-28T17:42:17Z by default. */
  readonly start?: number;
  readonly tty?: boolean;
  /** Standard input, chunk by chunk (then its end). Absent: no stdin at all. */
  readonly stdin?: readonly string[];
  /** Signals delivered when the cursor reaches `at` (ms since the start). */
  readonly signals?: readonly { readonly at: number; readonly signal: 'SIGTERM' | 'SIGKILL' | 'SIGINT' }[];
  /** A process still sleeping this long (ms since the start) after its start is killed (SIGKILL). */
  readonly limitMs?: number;
  readonly programs?: ShellIO['programs'];
  readonly uid?: number;
  readonly gid?: number;
  readonly groups?: readonly number[];
  readonly cwd?: string;
  readonly pid?: number;
  /** Time moves only by advance(): sleeps wait (an interactive session typed into by a test). */
  readonly manualTime?: boolean;
}

export const DEFAULT_START = Date.UTC(2026, 10, 28, 17, 42, 17);

export interface LogEntry {
  /** ms since the start */
  readonly at: number;
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

interface Sleeper {
  readonly due: number;
  readonly seq: number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

export class FakeFileSystem implements ShellFileSystem {
  readonly files = new Map<string, string>();
  readonly directories = new Set<string>(['/']);

  constructor(
    files: Record<string, string> = {},
    directories: readonly string[] = [],
    private readonly readOnly: readonly string[] = [],
  ) {
    for (const dir of ['/bin', '/etc', '/tmp', '/root', '/usr', '/usr/bin', '/var', '/proc', '/dev', ...directories]) this.mkdir(dir);
    for (const [path, content] of Object.entries(files)) {
      this.mkdir(parent(path));
      this.files.set(path, content);
    }
  }

  read(path: string): string | undefined {
    return this.files.get(path);
  }

  write(path: string, content: string, append: boolean): string | undefined {
    if (this.readOnly.some((prefix) => path === prefix || path.startsWith(prefix + '/'))) return 'Read-only file system';
    if (!this.directories.has(parent(path))) return 'No such file or directory';
    if (this.directories.has(path)) return 'Is a directory';
    this.files.set(path, append ? (this.files.get(path) ?? '') + content : content);
    return undefined;
  }

  list(path: string): string[] | undefined {
    if (!this.directories.has(path)) return undefined;
    const names = new Set<string>();
    for (const entry of [...this.files.keys(), ...this.directories]) {
      if (entry !== path && parent(entry) === path) names.add(entry.slice(entry.lastIndexOf('/') + 1));
    }
    return [...names].sort();
  }

  isDirectory(path: string): boolean {
    return this.directories.has(path);
  }

  remove(path: string): string | undefined {
    if (this.readOnly.some((prefix) => path === prefix || path.startsWith(prefix + '/'))) return 'Read-only file system';
    if (this.files.delete(path)) return undefined;
    if (this.directories.has(path)) {
      if ((this.list(path) ?? []).length > 0) return 'Directory not empty';
      this.directories.delete(path);
      return undefined;
    }
    return 'No such file or directory';
  }

  mkdir(path: string): string | undefined {
    if (this.files.has(path)) return 'File exists';
    let current = '';
    for (const segment of path.split('/').filter(Boolean)) {
      current += '/' + segment;
      this.directories.add(current);
    }
    return undefined;
  }
}

function parent(path: string): string {
  const index = path.lastIndexOf('/');
  return index <= 0 ? '/' : path.slice(0, index);
}

export class FakeIo implements ShellIO {
  readonly env: Readonly<Record<string, string>>;
  readonly fs: FakeFileSystem;
  readonly hostname: string;
  readonly tty?: boolean;
  readonly programs?: ShellIO['programs'];
  readonly uid?: number;
  readonly gid?: number;
  readonly groups?: readonly number[];
  readonly cwd?: string;
  readonly pid?: number;
  readonly start: number;
  readonly log: LogEntry[] = [];
  readonly listening: number[] = [];
  memoryUsage = 0;
  cpuUsage = 0;
  readonly memoryHistory: { at: number; bytes: number }[] = [];
  private cursor: number;
  private sleepers: Sleeper[] = [];
  private seq = 0;
  private drainScheduled = false;
  private readonly signals: { at: number; signal: 'SIGTERM' | 'SIGKILL' | 'SIGINT' }[];
  private readonly limit: number;
  private readonly stdinChunks: string[] | undefined;
  private readonly manualTime: boolean;
  readonly readStdin?: () => Promise<string | null>;

  constructor(options: FakeIoOptions = {}) {
    this.env = options.env ?? {};
    this.fs = new FakeFileSystem(options.files, options.directories, options.readOnly);
    this.hostname = options.hostname ?? 'test-pod';
    this.tty = options.tty;
    this.programs = options.programs;
    this.uid = options.uid;
    this.gid = options.gid;
    this.groups = options.groups;
    this.cwd = options.cwd;
    this.pid = options.pid;
    this.start = options.start ?? DEFAULT_START;
    this.cursor = this.start;
    this.signals = [...(options.signals ?? [])].map((s) => ({ at: this.start + s.at, signal: s.signal })).sort((a, b) => a.at - b.at);
    this.limit = this.start + (options.limitMs ?? 3_600_000);
    this.manualTime = options.manualTime === true;
    if (options.stdin) {
      this.stdinChunks = [...options.stdin];
      this.readStdin = async () => this.stdinChunks!.shift() ?? null;
    }
  }

  now(): number {
    return this.cursor;
  }

  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.sleepers.push({ due: this.cursor + Math.max(0, ms), seq: this.seq++, resolve, reject });
      this.scheduleDrain();
    });
  }

  stdout(text: string): void {
    this.log.push({ at: this.cursor - this.start, stream: 'stdout', text });
  }

  stderr(text: string): void {
    this.log.push({ at: this.cursor - this.start, stream: 'stderr', text });
  }

  setMemoryUsage(bytes: number): void {
    this.memoryUsage = bytes;
    this.memoryHistory.push({ at: this.cursor - this.start, bytes });
  }

  setCpuUsage(nanoCores: number): void {
    this.cpuUsage = nanoCores;
  }

  listen(port: number): void {
    this.listening.push(port);
  }

  /** Everything written to stdout (or to both streams). */
  output(stream: 'stdout' | 'stderr' | 'both' = 'stdout'): string {
    return this.log.filter((entry) => stream === 'both' || entry.stream === stream).map((entry) => entry.text).join('');
  }

  /** The lines written to stdout, each with the time (ms since the start) it was written. */
  timedLines(): { at: number; line: string }[] {
    const lines: { at: number; line: string }[] = [];
    for (const entry of this.log) {
      if (entry.stream !== 'stdout') continue;
      for (const line of entry.text.split('\n').slice(0, -1)) lines.push({ at: entry.at, line });
    }
    return lines;
  }

  /** Milliseconds since the start. */
  elapsed(): number {
    return this.cursor - this.start;
  }

  /** With manualTime: moves the cursor by `ms`, ending the sleeps due by then, earliest first. */
  async advance(ms: number): Promise<void> {
    const target = this.cursor + ms;
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      this.sleepers.sort((a, b) => a.due - b.due || a.seq - b.seq);
      const next = this.sleepers[0];
      if (!next || next.due > target) break;
      this.sleepers.shift();
      this.cursor = Math.max(this.cursor, next.due);
      next.resolve();
    }
    this.cursor = target;
  }

  private scheduleDrain(): void {
    if (this.drainScheduled || this.manualTime) return;
    this.drainScheduled = true;
    // After every pending microtask: the process is blocked on its sleeps.
    setImmediate(() => {
      this.drainScheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    if (this.sleepers.length === 0) return;
    this.sleepers.sort((a, b) => a.due - b.due || a.seq - b.seq);
    const next = this.sleepers[0]!;
    const signal = this.signals[0];
    if (signal && signal.at <= next.due) {
      this.signals.shift();
      this.cursor = Math.max(this.cursor, signal.at);
      this.rejectAll(new ProcessSignal(signal.signal));
      return;
    }
    if (next.due > this.limit) {
      this.cursor = Math.max(this.cursor, this.limit);
      this.rejectAll(new ProcessSignal('SIGKILL'));
      return;
    }
    this.sleepers.shift();
    this.cursor = Math.max(this.cursor, next.due);
    next.resolve();
    if (this.sleepers.length > 0) this.scheduleDrain();
  }

  private rejectAll(error: ProcessSignal): void {
    const sleepers = this.sleepers;
    this.sleepers = [];
    for (const sleeper of sleepers) sleeper.reject(error);
  }
}
