// An exec or attach session on a WebSocket, in kube's channel protocol
// (channel-protocol.ts): the first message is an empty one on the lowest
// output channel asked for (the client's sign that the stream is up), then
// the process's output on stdout/stderr, the client's stdin, terminal resizes
// and, v5, the close of stdin; at the end one metav1.Status on the error
// channel and a normal closure (the client reads its streams to their end).
// A client that goes away kills the process.

import { KubeletError, type StreamSession } from '../../kubelet/connection';
import type { ChannelSession, MessageSocket } from './upgrade';
import {
  CLOSE,
  ERROR,
  PROTOCOL_V5,
  RESIZE,
  STDERR,
  STDIN,
  STDOUT,
  SUCCESS,
  encodeStatus,
  exitStatus,
  frame,
  internalErrorStatus,
  kubeletFailureStatus,
  parseResize,
  type WireStatus,
} from './channel-protocol';

export interface RemoteCommandStreams {
  readonly stdin: boolean;
  readonly stdout: boolean;
  readonly stderr: boolean;
  readonly tty: boolean;
}

export interface RemoteCommandPlan {
  readonly kind: 'exec' | 'attach';
  readonly protocol: string;
  readonly streams: RemoteCommandStreams;
  /** exec's command, for the exit status's message. */
  readonly command: readonly string[];
  /**
   * Starts the process (or attaches to it). Rejects with a KubeletError for
   * the kubelet's refusal, or with a DialError when no kubelet answers.
   */
  readonly open: () => Promise<StreamSession>;
}

/**
 * A started process whose output is kept until a listener comes: for a
 * process started before its socket exists (v4), whose first output would
 * otherwise be lost.
 */
export function keepingOutput(session: StreamSession): StreamSession {
  const kept: [1 | 2, Uint8Array][] = [];
  let listener: ((stream: 1 | 2, data: Uint8Array) => void) | undefined;
  session.onOutput((stream, data) => {
    if (listener) listener(stream, data);
    else kept.push([stream, data]);
  });
  return {
    write: (data) => session.write(data),
    closeStdin: () => session.closeStdin(),
    resize: (columns, rows) => session.resize(columns, rows),
    kill: () => session.kill(),
    done: session.done,
    onOutput(next) {
      listener = next;
      for (const [stream, data] of kept.splice(0)) next(stream, data);
    },
  };
}

/** The kubelet could not be reached (its text is the dial error's). */
export class DialError extends Error {}

/** The final status for a process that could not be started or attached to. */
function failureStatus(plan: RemoteCommandPlan, error: unknown, translated: boolean): WireStatus {
  if (error instanceof DialError) return internalErrorStatus(`error dialing backend: ${error.message}`);
  // The kubelet refused the stream (a non-101 answer, plain text): the translator's SPDY client says so.
  if (error instanceof KubeletError) return internalErrorStatus(`unable to upgrade connection: ${error.message}`);
  const text = error instanceof Error ? error.message : String(error);
  return kubeletFailureStatus(`error ${plan.kind === 'exec' ? 'executing command in' : 'attaching to'} container: ${text}`, translated);
}

export function remoteCommandSession(plan: RemoteCommandPlan): ChannelSession {
  const translated = plan.protocol === PROTOCOL_V5;
  const { streams } = plan;
  return {
    kind: 'channels',
    protocol: plan.protocol,
    start(socket: MessageSocket) {
      let process: StreamSession | undefined;
      let finished = false;
      let clientGone = false;
      // What the client sends before the process is up waits for it.
      const early: Uint8Array[] = [];

      const finish = (status: WireStatus) => {
        if (finished) return;
        finished = true;
        if (clientGone) return;
        socket.send(frame(ERROR, encodeStatus(status)));
        socket.close(1000);
      };

      const deliver = (message: Uint8Array) => {
        if (!process || message.byteLength === 0) return;
        const channel = message[0]!;
        const data = message.subarray(1);
        if (channel === STDIN) {
          if (streams.stdin && data.byteLength > 0) process.write(data);
        } else if (channel === RESIZE) {
          const size = streams.tty ? parseResize(data) : undefined;
          if (size) process.resize(size.width, size.height);
        } else if (channel === CLOSE && translated) {
          if (data[0] === STDIN && streams.stdin) process.closeStdin();
        }
      };

      socket.onMessage((message) => {
        if (process) deliver(message);
        else early.push(message);
      });
      socket.onClose(() => {
        clientGone = true;
        if (!finished) process?.kill();
      });

      // "Connected": an empty message on the lowest channel the client reads.
      socket.send(frame(streams.stdout ? STDOUT : streams.stderr ? STDERR : ERROR));

      void plan.open().then(
        (session) => {
          process = session;
          if (clientGone) {
            session.kill();
            return;
          }
          session.onOutput((stream, data) => {
            if (finished || clientGone) return;
            // With a TTY there is one output stream; without, each goes where the client asked for it.
            const channel = streams.tty ? STDOUT : stream === 2 ? STDERR : STDOUT;
            if ((channel === STDOUT && streams.stdout) || (channel === STDERR && streams.stderr)) socket.send(frame(channel, data));
          });
          for (const message of early.splice(0)) deliver(message);
          session.done.then(
            ({ exitCode, message }) => {
              if (message !== undefined) finish(failureStatus(plan, new Error(message), translated));
              else if (plan.kind === 'exec' && exitCode !== 0) finish(exitStatus(plan.command, exitCode, translated));
              else finish(SUCCESS);
            },
            (error: unknown) => finish(failureStatus(plan, error, translated)),
          );
        },
        (error: unknown) => finish(failureStatus(plan, error, translated)),
      );
    },
  };
}
