// A KubeletConnection double for the API server's streaming tests: the other
// side of the contract (src/core/kubelet/connection.ts), scripted by the
// test. Logs are lines the test writes (a followed log stays open until the
// test ends it); exec and attach sessions are handed to the test to play the
// process; port-forward connections echo or refuse; stats are given.

import {
  KubeletError,
  type AttachOptions,
  type ExecOptions,
  type KubeletConnection,
  type LogOptions,
  type NodeStats,
  type PodRef,
  type PortStream,
  type StreamSession,
} from '../../../kubelet/connection';

/** A process the test plays: what the client sent, and levers for its output and end. */
export class FakeProcess implements StreamSession {
  readonly stdin: Uint8Array[] = [];
  stdinClosed = false;
  killed = false;
  readonly sizes: [number, number][] = [];
  private readonly listeners: ((stream: 1 | 2, data: Uint8Array) => void)[] = [];
  private settle!: (result: { exitCode: number; message?: string }) => void;
  readonly done: Promise<{ exitCode: number; message?: string }>;

  constructor(readonly options: ExecOptions | AttachOptions) {
    this.done = new Promise((resolve) => (this.settle = resolve));
  }
  write(data: Uint8Array): void {
    this.stdin.push(data);
  }
  closeStdin(): void {
    this.stdinClosed = true;
  }
  resize(columns: number, rows: number): void {
    this.sizes.push([columns, rows]);
  }
  onOutput(listener: (stream: 1 | 2, data: Uint8Array) => void): void {
    this.listeners.push(listener);
  }
  kill(): void {
    this.killed = true;
    this.settle({ exitCode: 137 });
  }
  output(stream: 1 | 2, text: string): void {
    for (const l of this.listeners) l(stream, new TextEncoder().encode(text));
  }
  exit(exitCode: number, message?: string): void {
    this.settle(message === undefined ? { exitCode } : { exitCode, message });
  }
  stdinText(): string {
    return this.stdin.map((b) => new TextDecoder().decode(b)).join('');
  }
}

export class FakeKubelet implements KubeletConnection {
  readonly logRequests: { pod: PodRef; options: LogOptions }[] = [];
  /** Lines of each container's log, by "namespace/pod/container". */
  readonly logs = new Map<string, string>();
  /** Containers that have not started: the kubelet's 400. */
  readonly waiting = new Map<string, string>();
  private readonly follows: ReadableStreamDefaultController<Uint8Array>[] = [];
  readonly processes: FakeProcess[] = [];
  private readonly processWaiters: ((p: FakeProcess) => void)[] = [];
  execError: KubeletError | undefined;
  stats_: NodeStats | undefined;

  constructor(readonly nodeName: string) {}

  async containerLog(pod: PodRef, options: LogOptions): Promise<ReadableStream<Uint8Array>> {
    this.logRequests.push({ pod, options });
    const key = `${pod.namespace}/${pod.name}/${options.container}`;
    const reason = this.waiting.get(key);
    if (reason) throw new KubeletError(400, `container ${JSON.stringify(options.container)} in pod ${JSON.stringify(pod.name)} is waiting to start: ${reason}`);
    const text = this.logs.get(key) ?? '';
    const follows = this.follows;
    return new ReadableStream<Uint8Array>({
      start(controller) {
        if (text) controller.enqueue(new TextEncoder().encode(text));
        if (options.follow) follows.push(controller);
        else controller.close();
      },
    });
  }

  /** Appends to every followed log. */
  follow(text: string): void {
    for (const c of this.follows) c.enqueue(new TextEncoder().encode(text));
  }

  endFollows(): void {
    for (const c of this.follows.splice(0)) c.close();
  }

  async exec(_pod: PodRef, options: ExecOptions): Promise<StreamSession> {
    if (this.execError) throw this.execError;
    return this.started(new FakeProcess(options));
  }

  async attach(_pod: PodRef, options: AttachOptions): Promise<StreamSession> {
    return this.started(new FakeProcess(options));
  }

  private started(process: FakeProcess): FakeProcess {
    this.processes.push(process);
    this.processWaiters.splice(0).forEach((w) => w(process));
    return process;
  }

  /** The next process started (or the last one, if it already has). */
  nextProcess(): Promise<FakeProcess> {
    return new Promise((resolve) => this.processWaiters.push(resolve));
  }

  async portForward(_pod: PodRef, port: number): Promise<PortStream> {
    if (port !== 80) throw new KubeletError(500, `failed to connect to localhost:${port} inside namespace: connection refused`);
    // An echo server that answers "pong:" + what it got, and closes when the client does.
    const listeners: ((d: Uint8Array) => void)[] = [];
    let close!: () => void;
    const closed = new Promise<void>((r) => (close = r));
    return {
      write: (data) => listeners.forEach((l) => l(new TextEncoder().encode(`pong:${new TextDecoder().decode(data)}`))),
      end: () => close(),
      onData: (l) => listeners.push(l),
      closed,
    };
  }

  async stats(): Promise<NodeStats> {
    if (!this.stats_) throw new KubeletError(503, 'no stats');
    return this.stats_;
  }
}
