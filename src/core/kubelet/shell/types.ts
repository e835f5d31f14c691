// The contract between KubeTab's small shell (this folder) and the simulated
// container runtime that runs it (../runtime, ../pods). The shell never reads
// a clock or a file system of its own: everything a process can observe or
// do comes through ShellIO, so a container's life is deterministic, runs on
// the cluster's Clock (a `sleep 30` ends when the Clock has moved 30 s,
// whether by waiting or by Settings moving it), and can be replayed.

/** The files a container sees: its image's few files and its volumes' content. */
export interface ShellFileSystem {
  /** A file's content, or undefined when there is no such file. */
  read(path: string): string | undefined;
  /** Writes (or appends to) a file; returns an error text (e.g. 'Read-only file system') or undefined. */
  write(path: string, content: string, append: boolean): string | undefined;
  /** The names in a directory, or undefined when it is not one. */
  list(path: string): string[] | undefined;
  isDirectory(path: string): boolean;
  /** Removes a file; returns an error text or undefined. */
  remove?(path: string): string | undefined;
  /** Creates a directory (with parents); returns an error text or undefined. */
  mkdir?(path: string): string | undefined;
}

export interface ShellIO {
  /** The process's current time on the cluster's Clock (ms since the epoch). */
  now(): number;
  /**
   * Waits `ms` of cluster time. Rejects with a ProcessSignal when the process
   * is signalled meanwhile and the signal is not ignored; resolves otherwise.
   */
  sleep(ms: number): Promise<void>;
  /** Output; the runtime splits it into timestamped log lines. */
  stdout(text: string): void;
  stderr(text: string): void;
  /** The next chunk of standard input (a line for an interactive shell), or null at its end. */
  readStdin?(): Promise<string | null>;
  /** The process's environment at start (the container's env, resolved by the kubelet). */
  readonly env: Readonly<Record<string, string>>;
  readonly fs: ShellFileSystem;
  /** What `hostname` prints (the pod's hostname). */
  readonly hostname: string;
  /** Whether the standard streams are a terminal (exec -it): an interactive shell prompts. */
  readonly tty?: boolean;
  /**
   * The memory the process holds, as `stress --vm-bytes` sets it: the runtime
   * compares it with the container's limit (OOMKilled) and reports it in
   * metrics. Bytes.
   */
  setMemoryUsage?(bytes: number): void;
  /** CPU the process burns, nanocores (`stress --cpu N` sets N cores). */
  setCpuUsage?(nanoCores: number): void;
  /** A network endpoint a server command listens on (`nc -l -p 8080`, `python -m http.server`). */
  listen?(port: number): void;
  /**
   * Programs the runtime adds (`nginx`, `redis-server`, …), by command name,
   * consulted for a name that is not one of the shell's builtins or
   * utilities; `/usr/sbin/nginx` finds `nginx`. `args` are the words after
   * the name; `io` is the caller's io with the command's own streams,
   * environment and signals (its sleep rejects when the command is signalled).
   * The promise settles with the exit code.
   */
  readonly programs?: Readonly<Record<string, (args: readonly string[], io: ShellIO) => Promise<number>>>;
  /** The process's working directory (the container's workingDir); '/' when absent. */
  readonly cwd?: string;
  /** The process's PID in its container (`$$`); 1 for the container's main process when absent and it runs as PID 1. */
  readonly pid?: number;
  /** The user the process runs as (securityContext runAsUser/runAsGroup/supplementalGroups); root when absent. */
  readonly uid?: number;
  readonly gid?: number;
  readonly groups?: readonly number[];
}

/** Delivered to a process as the reason its sleep or read ended early. */
export class ProcessSignal extends Error {
  constructor(readonly signal: 'SIGTERM' | 'SIGKILL' | 'SIGINT') {
    super(signal);
    this.name = 'ProcessSignal';
  }
}

/** A process's end: its exit code (128 + signal number when killed by one). */
export interface ExitStatus {
  readonly code: number;
}
