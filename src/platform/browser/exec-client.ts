// Page side of an exec (decision 0352): what kubectl's WebSocket client does,
// over the MessagePort the worker treats as the socket (exec-session.ts). The
// output arrives on channels 1 (stdout) and 2 (stderr); the last message on
// channel 3 is the metav1.Status that ends the command — Success (exit code
// 0), or Failure with reason NonZeroExitCode and the code in an ExitCode
// cause, or the failure that kept the command from running.

import { CLOSE, ERROR, STDERR, STDIN, STDOUT, frame } from '../../core/api/streaming/channel-protocol';
import type { ExecSessionMessage } from './messages';
import { askWorker } from './worker-client';

export interface ExecInput {
  readonly namespace: string;
  readonly pod: string;
  readonly container?: string;
  readonly command: readonly string[];
  /** The request headers of the identity the exec is sent as (the app's requestHeaders()). */
  readonly headers: Headers;
  /** Text for the process's standard input, then its end (absent: no stdin). */
  readonly stdin?: string;
  onOutput?(stream: 'stdout' | 'stderr', text: string): void;
  readonly signal?: AbortSignal;
}

export interface ExecResult {
  /** The command's exit code; undefined when it could not run (see message). */
  readonly exitCode: number | undefined;
  /** The final Status's message when it is a Failure (as kubectl prints it). */
  readonly message?: string;
  readonly reason?: string;
}

/** The API refused the exec: its HTTP status and Status (kubectl's "Error from server (Forbidden): …"). */
export class ExecRefusedError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'ExecRefusedError';
  }
}

interface WireStatus {
  status?: string;
  message?: string;
  reason?: string;
  details?: { causes?: { reason?: string; message?: string }[] };
}

/** What the final Status says about the command (kubectl's exit-code extraction). */
export function resultOf(status: WireStatus): ExecResult {
  if (status.status === 'Success') return { exitCode: 0 };
  if (status.reason === 'NonZeroExitCode') {
    const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
    const code = Number(cause?.message);
    if (Number.isInteger(code)) return { exitCode: code, ...(status.message ? { message: status.message } : {}), reason: status.reason };
  }
  return { exitCode: undefined, message: status.message ?? 'the command failed', ...(status.reason ? { reason: status.reason } : {}) };
}

function refusal(status: number, body: string): ExecRefusedError {
  try {
    const parsed = JSON.parse(body) as { kind?: string; message?: string; reason?: string };
    if (parsed.kind === 'Status' && parsed.message) return new ExecRefusedError(status, parsed.reason, parsed.message);
  } catch {
    // Not a Status: the text itself.
  }
  return new ExecRefusedError(status, undefined, body || `HTTP ${status}`);
}

/** Runs a command in a container through the service worker; resolves when it has ended. */
export async function execInPod(input: ExecInput): Promise<ExecResult> {
  const channel = new MessageChannel();
  const port = channel.port1;
  const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  let final: ExecResult | undefined;
  const send = (message: ExecSessionMessage, transfer: Transferable[] = []) => port.postMessage(message, transfer);
  const ended = new Promise<ExecResult>((resolve) => {
    const finish = (result: ExecResult) => {
      port.onmessage = null;
      port.close();
      resolve(result);
    };
    port.onmessage = (event: MessageEvent<ExecSessionMessage>) => {
      const message = event.data;
      if (message.kind === 'close') {
        finish(final ?? { exitCode: undefined, message: `the session ended without a status (${message.code}${message.reason ? ` ${message.reason}` : ''})` });
        return;
      }
      const data = message.data;
      if (data.byteLength === 0) return;
      const payload = data.subarray(1);
      if (data[0] === STDOUT || data[0] === STDERR) {
        const stream = data[0] === STDOUT ? 'stdout' : 'stderr';
        const text = decoders[stream].decode(payload, { stream: true });
        if (text) input.onOutput?.(stream, text);
      } else if (data[0] === ERROR && payload.byteLength > 0) {
        try {
          final = resultOf(JSON.parse(new TextDecoder().decode(payload)) as WireStatus);
        } catch {
          final = { exitCode: undefined, message: new TextDecoder().decode(payload) };
        }
      }
    };
    input.signal?.addEventListener('abort', () => {
      send({ kind: 'close', code: 1000, reason: 'client closed' });
      finish(final ?? { exitCode: undefined, message: 'stopped' });
    });
  });
  const start = await askWorker(
    'kubetab:pods:exec',
    {
      namespace: input.namespace,
      pod: input.pod,
      ...(input.container ? { container: input.container } : {}),
      command: [...input.command],
      stdin: input.stdin !== undefined,
      headers: [...input.headers.entries()],
      session: channel.port2,
    },
    60_000,
    [channel.port2],
  ).catch((err: unknown) => {
    port.close();
    throw err;
  });
  if (!start.accepted) {
    port.close();
    throw refusal(start.status, start.body);
  }
  if (input.stdin !== undefined) {
    const bytes = new TextEncoder().encode(input.stdin);
    if (bytes.byteLength) {
      const message = frame(STDIN, bytes);
      send({ kind: 'data', data: message }, [message.buffer]);
    }
    // v5's close channel: the end of stdin, the connection stays open for the output.
    const close = frame(CLOSE, Uint8Array.of(STDIN));
    send({ kind: 'data', data: close }, [close.buffer]);
  }
  return ended;
}
