// kubectl port-forward's connection: SPDY/3.1 carried in the bytes of a
// WebSocket (subprotocol SPDY/3.1+portforward.k8s.io), as kube-apiserver
// tunnels it to the kubelet's port-forward server. This is that server's
// side of the portforward.k8s.io protocol: for each local connection the
// client opens two streams with the same `requestID` and `port` headers,
// `streamType: error` and `streamType: data`; both get a SYN_REPLY, and once
// the pair is complete the session opens a connection to the pod's port
// (src/core/api/streaming/upgrade.ts). Bytes flow as data frames both ways;
// a failure is written as text on the error stream; the end of either side
// half-closes (FIN) the data stream. PINGs are answered.

import type { PortStream } from '../../core/kubelet/connection';
import type { MessageSocket, PortForwardSession } from '../../core/api/streaming/upgrade';
import {
  FLAG_FIN,
  FrameReader,
  GOAWAY,
  HeaderDecoder,
  HeaderEncoder,
  PING,
  RST_PROTOCOL_ERROR,
  RST_STREAM,
  SYN_STREAM,
  dataFrames,
  goAway,
  parseRstStream,
  parseSynStream,
  rstStream,
  synReply,
  type SpdyFrame,
} from './websocket-spdy-frames';

interface StreamPair {
  readonly requestId: string;
  readonly portText: string;
  errorStream?: number;
  dataStream?: number;
  /** Bytes for the pod that came before the connection was open. */
  pending: Uint8Array[];
  pendingFin: boolean;
  target?: PortStream;
  finSent: boolean;
  done: boolean;
}

function header(headers: Map<string, string[]>, name: string): string {
  return headers.get(name)?.[0] ?? '';
}

export function servePortForwardTunnel(socket: MessageSocket, session: PortForwardSession): void {
  const reader = new FrameReader();
  const decoder = new HeaderDecoder();
  const encoder = new HeaderEncoder();
  const pairs = new Map<string, StreamPair>();
  const byStream = new Map<number, StreamPair>();
  let lastStreamId = 0;
  let closed = false;

  const send = (bytes: Uint8Array) => {
    if (!closed) socket.send(bytes);
  };

  /** Half-closes both streams of a pair (the forwarded connection is over). */
  const finish = (pair: StreamPair, errorText?: string) => {
    if (pair.done) return;
    pair.done = true;
    if (pair.errorStream !== undefined) {
      const text = errorText ? new TextEncoder().encode(errorText) : new Uint8Array(0);
      for (const frame of dataFrames(pair.errorStream, text, true)) send(frame);
    }
    if (pair.dataStream !== undefined && !pair.finSent) {
      pair.finSent = true;
      for (const frame of dataFrames(pair.dataStream, new Uint8Array(0), true)) send(frame);
    }
    pair.target?.end();
  };

  const open = (pair: StreamPair) => {
    const port = Number(pair.portText);
    if (!/^\d+$/.test(pair.portText) || port < 1 || port > 65535) {
      finish(pair, `invalid port: ${JSON.stringify(pair.portText)}`);
      return;
    }
    session.forward(port).then(
      (target) => {
        if (pair.done || closed) {
          target.end();
          return;
        }
        pair.target = target;
        target.onData((data) => {
          if (!pair.finSent && pair.dataStream !== undefined) for (const frame of dataFrames(pair.dataStream, data, false)) send(frame);
        });
        void target.closed.then(() => finish(pair));
        for (const data of pair.pending.splice(0)) target.write(data);
        if (pair.pendingFin) target.end();
      },
      (error: unknown) => finish(pair, error instanceof Error ? error.message : String(error)),
    );
  };

  const onSynStream = (data: Buffer) => {
    const { streamId, block } = parseSynStream(data);
    lastStreamId = Math.max(lastStreamId, streamId);
    let headers: Map<string, string[]>;
    try {
      headers = decoder.decode(block);
    } catch {
      send(rstStream(streamId, RST_PROTOCOL_ERROR));
      return;
    }
    send(synReply(streamId, encoder));
    const requestId = header(headers, 'requestid');
    const type = header(headers, 'streamtype');
    let pair = pairs.get(requestId);
    if (!pair) {
      pair = { requestId, portText: header(headers, 'port'), pending: [], pendingFin: false, finSent: false, done: false };
      pairs.set(requestId, pair);
    }
    byStream.set(streamId, pair);
    if (type === 'error') pair.errorStream = streamId;
    else if (type === 'data') pair.dataStream = streamId;
    else {
      send(rstStream(streamId, RST_PROTOCOL_ERROR));
      return;
    }
    if (pair.errorStream !== undefined && pair.dataStream !== undefined) open(pair);
  };

  const onData = (frame: Extract<SpdyFrame, { kind: 'data' }>) => {
    const pair = byStream.get(frame.streamId);
    if (!pair || frame.streamId !== pair.dataStream) return; // the error stream carries nothing from the client
    const fin = (frame.flags & FLAG_FIN) !== 0;
    if (pair.target) {
      if (frame.data.byteLength) pair.target.write(new Uint8Array(frame.data));
      if (fin) pair.target.end();
    } else {
      if (frame.data.byteLength) pair.pending.push(new Uint8Array(frame.data));
      if (fin) pair.pendingFin = true;
    }
  };

  const onReset = (streamId: number) => {
    const pair = byStream.get(streamId);
    if (!pair) return;
    byStream.delete(streamId);
    if (streamId === pair.dataStream) {
      pair.finSent = true;
      finish(pair);
    }
    if (![pair.errorStream, pair.dataStream].some((id) => id !== undefined && byStream.has(id))) pairs.delete(pair.requestId);
  };

  const shutDown = () => {
    if (closed) return;
    for (const pair of pairs.values()) pair.target?.end();
    closed = true;
    pairs.clear();
    byStream.clear();
    session.end();
  };

  socket.onMessage((bytes) => {
    let frames: SpdyFrame[];
    try {
      frames = reader.push(bytes);
    } catch {
      socket.close(1002);
      return;
    }
    for (const frame of frames) {
      if (frame.kind === 'data') onData(frame);
      else if (frame.type === SYN_STREAM) onSynStream(frame.data);
      else if (frame.type === RST_STREAM) onReset(parseRstStream(frame.data));
      else if (frame.type === PING) send(Buffer.concat([Buffer.from([0x80, 0x03, 0x00, PING, 0x00, 0x00, 0x00, 0x04]), frame.data.subarray(0, 4)]));
      else if (frame.type === GOAWAY) {
        send(goAway(lastStreamId));
        socket.close(1000);
        shutDown();
        return;
      }
      // SETTINGS, WINDOW_UPDATE, HEADERS: nothing to do (spdystream does no flow control either).
    }
  });
  socket.onClose(shutDown);
}
