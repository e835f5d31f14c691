// Worker side of an exec from the page (decision 0352). kubectl reaches
// pods/exec over a WebSocket, which a service worker cannot accept; so the
// worker builds kubectl 1.32's request itself — GET …/pods/<name>/exec with
// the command, container and streams in the query, offering
// v5.channel.k8s.io, carrying the page identity's headers — and sends it
// through the core like any request (authentication, authorization of
// `get pods/exec` as kube-apiserver 1.32 authorizes a WebSocket exec,
// admission of the CONNECT, audit). When the core accepts the upgrade, the
// MessagePort the page sent stands for the socket: whole channel-protocol
// messages both ways, and the close.

import { PROTOCOL_V5 } from '../../core/api/streaming/channel-protocol';
import { acceptedUpgradeOf, offerUpgrade, type ChannelSession, type MessageSocket } from '../../core/api/streaming/upgrade';
import type { ExecRequest, ExecSessionMessage, ExecStart } from './messages';

/** kube's RFC 1123 label / subdomain characters: enough to keep a name from changing the path. */
const PATH_SEGMENT = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** The request kubectl 1.32 sends for `kubectl exec [-i] <pod> [-c container] -- command…` (its WebSocket GET). */
export function execRequest(origin: string, input: ExecRequest): Request {
  if (typeof input.namespace !== 'string' || !PATH_SEGMENT.test(input.namespace)) throw new Error(`invalid namespace ${JSON.stringify(input.namespace)}`);
  if (typeof input.pod !== 'string' || !PATH_SEGMENT.test(input.pod)) throw new Error(`invalid pod name ${JSON.stringify(input.pod)}`);
  if (!isStringList(input.command)) throw new Error('the command must be a list of strings');
  if (input.container !== undefined && typeof input.container !== 'string') throw new Error('the container must be a name');
  const headers = new Headers();
  for (const pair of Array.isArray(input.headers) ? input.headers : []) {
    if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string') headers.append(pair[0], pair[1]);
  }
  const query = new URLSearchParams();
  // kubectl's order: command (each argument), container, stdin, stdout, stderr, tty.
  for (const argument of input.command) query.append('command', argument);
  if (input.container) query.set('container', input.container);
  if (input.stdin) query.set('stdin', 'true');
  query.set('stdout', 'true');
  query.set('stderr', 'true');
  const path = `/api/v1/namespaces/${input.namespace}/pods/${input.pod}/exec?${query.toString()}`;
  const request = new Request(origin + path, { method: 'GET', headers });
  offerUpgrade(request, { protocols: [PROTOCOL_V5] });
  return request;
}

export interface ExecOutcome {
  readonly start: ExecStart;
  /** Settles when the session is over (the worker should stay alive until then). */
  readonly finished: Promise<void>;
}

/**
 * Sends the exec request through `handle` (the core) and, when accepted,
 * connects the session to the page's port.
 */
export async function runExec(origin: string, input: ExecRequest, handle: (request: Request) => Promise<Response>): Promise<ExecOutcome> {
  const port = input.session;
  if (!(port instanceof MessagePort)) throw new Error('an exec needs a session port');
  let request: Request;
  try {
    request = execRequest(origin, input);
  } catch (err) {
    port.close();
    throw err;
  }
  const response = await handle(request);
  const session = acceptedUpgradeOf(request);
  if (!session || session.kind !== 'channels') {
    port.close();
    return { start: { accepted: false, status: response.status, body: await response.text() }, finished: Promise.resolve() };
  }
  return { start: { accepted: true, protocol: session.protocol }, finished: connectPort(session, port) };
}

/** Runs a channel session with the port as its socket; resolves once either side has closed it. */
export function connectPort(session: ChannelSession, port: MessagePort): Promise<void> {
  return new Promise<void>((resolve) => {
    const messageListeners: ((data: Uint8Array) => void)[] = [];
    const closeListeners: (() => void)[] = [];
    let closed = false;
    const end = (notice: ExecSessionMessage | undefined) => {
      if (closed) return;
      closed = true;
      if (notice) port.postMessage(notice);
      port.close();
      for (const listener of closeListeners) listener();
      resolve();
    };
    const socket: MessageSocket = {
      send(data) {
        if (closed) return;
        // A copy of its own: the data may be a view into a larger buffer, which transferring would take away.
        const copy = data.slice();
        const message: ExecSessionMessage = { kind: 'data', data: copy };
        port.postMessage(message, [copy.buffer]);
      },
      close(code = 1000, reason = '') {
        end({ kind: 'close', code, reason });
      },
      onMessage: (listener) => messageListeners.push(listener),
      onClose: (listener) => closeListeners.push(listener),
    };
    port.onmessage = (event: MessageEvent<ExecSessionMessage>) => {
      const message = event.data;
      if (message?.kind === 'data' && message.data instanceof Uint8Array) {
        for (const listener of messageListeners) listener(message.data);
      } else if (message?.kind === 'close') {
        // The page hung up: the session kills the process.
        end(undefined);
      }
    };
    // Browsers that announce a port whose other end is gone (the page closed) end the session too.
    port.addEventListener('close', () => end(undefined));
    session.start(socket);
  });
}
