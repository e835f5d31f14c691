// What kube-apiserver asks of a node's kubelet, as an interface: in a real
// cluster the API server dials the kubelet's port (10250) for a container's
// log, exec, attach, port-forward and its stats; in KubeTab each simulated
// kubelet registers one KubeletConnection under its node's name, and the
// API server's handlers (pods/log, pods/exec, …, metrics.k8s.io) reach it
// through the KubeletConnections service of the server context.
//
// Errors are thrown as KubeletError with the HTTP status the kubelet would
// answer and its message; the API server turns them into its own Status.

/** The services key under which the server context holds the KubeletConnections. */
export const KUBELET_CONNECTIONS = 'kubelet-connections';

export interface PodRef {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/** PodLogOptions as the kubelet applies them (the API server has validated them). */
export interface LogOptions {
  readonly container: string;
  /** Keep the stream open and send new lines until the container ends (or `signal` aborts). */
  readonly follow?: boolean;
  /** The log of the container's previous instance (after a restart). */
  readonly previous?: boolean;
  /** Prefix each line with its RFC 3339 timestamp (nanosecond precision, as the CRI log has it). */
  readonly timestamps?: boolean;
  readonly tailLines?: number;
  /** Only lines written at or after this time (ms since the epoch, on the cluster's Clock). */
  readonly sinceTimeMs?: number;
  readonly limitBytes?: number;
  readonly signal?: AbortSignal;
}

/** A running exec or attach session: what the client sees of the process. */
export interface StreamSession {
  /** Bytes for the process's standard input. */
  write(data: Uint8Array): void;
  /** End of the standard input (the client closed it). */
  closeStdin(): void;
  /** A terminal's new size (exec/attach with a TTY). */
  resize(columns: number, rows: number): void;
  /** Receives the output: stream 1 is stdout, 2 is stderr (with a TTY everything is stdout). */
  onOutput(listener: (stream: 1 | 2, data: Uint8Array) => void): void;
  /** Ends the process (the client went away). */
  kill(): void;
  /** Settles when the process has ended: its exit code, or the error that stopped it from running. */
  readonly done: Promise<{ readonly exitCode: number; readonly message?: string }>;
}

export interface ExecOptions {
  readonly container: string;
  readonly command: readonly string[];
  readonly stdin: boolean;
  readonly tty: boolean;
}

export interface AttachOptions {
  readonly container: string;
  readonly stdin: boolean;
  readonly tty: boolean;
}

/** One port-forward connection: bytes to and from a simulated server on the pod's port. */
export interface PortStream {
  write(data: Uint8Array): void;
  /** The client closed its side. */
  end(): void;
  onData(listener: (data: Uint8Array) => void): void;
  /** Settles when the simulated server has closed the connection. */
  readonly closed: Promise<void>;
}

/** Usage as metrics-server reports it: cpu in nanocores, memory in bytes, over a window. */
export interface ContainerUsage {
  readonly name: string;
  readonly cpuNanoCores: number;
  readonly memoryBytes: number;
}

export interface PodUsage {
  readonly namespace: string;
  readonly name: string;
  readonly containers: readonly ContainerUsage[];
}

export interface NodeStats {
  /** When the figures were taken (ms, cluster Clock) and over how long (ms). */
  readonly timestampMs: number;
  readonly windowMs: number;
  readonly node: { readonly cpuNanoCores: number; readonly memoryBytes: number };
  readonly pods: readonly PodUsage[];
}

export class KubeletError extends Error {
  constructor(
    /** The HTTP status the kubelet answers (400 for a container that is not running, 404 for an unknown pod, …). */
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'KubeletError';
  }
}

export interface KubeletConnection {
  readonly nodeName: string;
  /** A container's log as a byte stream (closed at the end, or kept open with `follow`). */
  containerLog(pod: PodRef, options: LogOptions): Promise<ReadableStream<Uint8Array>>;
  exec(pod: PodRef, options: ExecOptions): Promise<StreamSession>;
  attach(pod: PodRef, options: AttachOptions): Promise<StreamSession>;
  portForward(pod: PodRef, port: number): Promise<PortStream>;
  stats(): Promise<NodeStats>;
}

/** The kubelets the API server can reach, by node name (a node whose kubelet is stopped has none). */
export class KubeletConnections {
  private readonly byNode = new Map<string, KubeletConnection>();

  register(connection: KubeletConnection): () => void {
    this.byNode.set(connection.nodeName, connection);
    return () => {
      if (this.byNode.get(connection.nodeName) === connection) this.byNode.delete(connection.nodeName);
    };
  }

  get(nodeName: string): KubeletConnection | undefined {
    return this.byNode.get(nodeName);
  }

  all(): KubeletConnection[] {
    return [...this.byNode.values()];
  }
}
