// Connection upgrades under Node: kubectl's exec, attach and port-forward
// WebSockets. node:http hands every request with `Connection: Upgrade` to
// the server's 'upgrade' listener; each goes through the core like any other
// request (authentication, authorization, admission, the pod lookups), a
// WebSocket one marked with the subprotocols it offers. When the core accepts
// with a session (src/core/api/streaming/upgrade.ts), the `ws` library
// completes the handshake (decision 0351) and the session gets the socket:
// whole binary messages for exec/attach, a byte stream carrying SPDY for
// port-forward. Any other answer (an error, a SPDY upgrade KubeTab does not
// take, which kubectl only tries when its WebSocket failed) is written to the
// socket as a plain HTTP response, and the connection closed.

import type { IncomingMessage, Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import { acceptedUpgradeOf, offerUpgrade, type MessageSocket, type UpgradeSession } from '../../core/api/streaming/upgrade';
import { LightHeaders, LightRequest } from './light-request';
import { servePortForwardTunnel } from './websocket-spdy-tunnel';
import type { FetchHandler } from './http-adapter';

/** Whether a request asks for a WebSocket (RFC 6455's handshake headers). */
function isWebSocketRequest(req: IncomingMessage): boolean {
  return (req.headers.upgrade ?? '').toLowerCase() === 'websocket' && typeof req.headers['sec-websocket-key'] === 'string';
}

/** Sec-WebSocket-Protocol's values in the client's order (one header or several, comma-separated). */
function offeredProtocols(req: IncomingMessage): string[] {
  const raw = req.headers['sec-websocket-protocol'];
  const values = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return values.flatMap((v) => v.split(',')).map((p) => p.trim()).filter(Boolean);
}

/** The Fetch Request of an upgrade: no body, and a signal that aborts when the socket goes away. */
function upgradeRequest(req: IncomingMessage, socket: Duplex): Request {
  const controller = new AbortController();
  socket.once('close', () => controller.abort(new Error('client disconnected')));
  const secure = Boolean((req.socket as Partial<TLSSocket>).encrypted);
  const host = req.headers.host ?? `${req.socket.localAddress ?? '127.0.0.1'}:${req.socket.localPort ?? 80}`;
  return new LightRequest({
    method: (req.method ?? 'GET').toUpperCase(),
    rawUrl: `${secure ? 'https' : 'http'}://${host}${req.url ?? '/'}`,
    headers: LightHeaders.fromIncoming(req),
    signal: () => controller.signal,
    body: undefined,
  });
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data;
}

/** A `ws` socket as the core's sessions see one. */
function messageSocket(ws: WebSocket): MessageSocket {
  return {
    send(data) {
      if (ws.readyState === ws.OPEN) ws.send(data, { binary: true });
    },
    close(code = 1000, reason) {
      ws.close(code, reason);
    },
    onMessage(listener) {
      ws.on('message', (data) => listener(toBytes(data)));
    },
    onClose(listener) {
      ws.once('close', () => listener());
    },
  };
}

function connect(ws: WebSocket, session: UpgradeSession): void {
  // A broken connection must not take the server down; its close ends the session.
  ws.on('error', () => ws.terminate());
  if (session.kind === 'channels') {
    session.start(messageSocket(ws));
    return;
  }
  servePortForwardTunnel(messageSocket(ws), session);
}

/** Writes a Fetch Response on a socket that node:http has let go of, then closes it. */
async function writeRawResponse(socket: Duplex, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  let head = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\n`;
  response.headers.forEach((value, name) => {
    if (name === 'content-length' || name === 'connection' || name === 'transfer-encoding') return;
    head += `${name}: ${value}\r\n`;
  });
  head += `Content-Length: ${body.byteLength}\r\nConnection: close\r\n\r\n`;
  if (!socket.destroyed) socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
}

/** Serves the upgrade requests of `server` with `handler` (the same one as its other requests). */
export function serveUpgrades(server: Server | HttpsServer, handler: FetchHandler): void {
  const chosen = new WeakMap<IncomingMessage, string>();
  const wss = new WebSocketServer({
    noServer: true,
    // kube's servers negotiate no compression; the sessions' messages are small and often binary.
    perMessageDeflate: false,
  });
  // The subprotocol is the core's choice, answered here: `ws` would refuse the offer itself, as
  // port-forward's SPDY/3.1+portforward.k8s.io is not an RFC 6455 token (Go's servers take it).
  wss.on('headers', (headers: string[], req: IncomingMessage) => {
    const protocol = chosen.get(req);
    if (protocol) headers.push(`Sec-WebSocket-Protocol: ${protocol}`);
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    void (async () => {
      let request: Request;
      let response: Response;
      try {
        request = upgradeRequest(req, socket);
        if (isWebSocketRequest(req)) offerUpgrade(request, { protocols: offeredProtocols(req) });
        response = await handler(request, req);
      } catch (error) {
        const message = `Internal error occurred: ${error instanceof Error ? error.message : String(error)}`;
        await writeRawResponse(socket, new Response(message, { status: 500, headers: { 'content-type': 'text/plain' } }));
        return;
      }
      const session = acceptedUpgradeOf(request);
      if (!session || !isWebSocketRequest(req)) {
        await writeRawResponse(socket, response);
        return;
      }
      await response.body?.cancel().catch(() => {});
      chosen.set(req, session.protocol);
      delete req.headers['sec-websocket-protocol'];
      wss.handleUpgrade(req, socket, head, (ws) => connect(ws, session));
    })();
  });
}
