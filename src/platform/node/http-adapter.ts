// The Node host's translation layer: node:http's IncomingMessage → Fetch
// Request for the core, and the core's Response → ServerResponse.
//
// Nothing here knows about Kubernetes. The request body is handed over as a
// stream (the core enforces kube-apiserver's 3 MiB request limit while it
// reads), response bodies are written chunk by chunk as the core produces them
// (a watch is one long response: each event must reach kubectl at once), and a
// client that goes away aborts the Request's signal so the core can stop a
// watch and let go of its store watcher.

import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';

/**
 * What the adapter needs from the core: `ApiServer.handle`. The incoming
 * message is there for what is not HTTP (the TLS peer's certificate).
 */
export type FetchHandler = (request: Request, incoming: IncomingMessage) => Promise<Response>;

/** Methods whose requests never carry a body (the Fetch API refuses one). */
const BODYLESS = new Set(['GET', 'HEAD']);

/** Builds the Fetch Request the core sees. `signal` aborts when the client disconnects. */
export function toFetchRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const secure = Boolean((req.socket as Partial<TLSSocket>).encrypted);
  const host = req.headers.host ?? `${req.socket.localAddress ?? '127.0.0.1'}:${req.socket.localPort ?? 80}`;
  const url = `${secure ? 'https' : 'http'}://${host}${req.url ?? '/'}`;

  // rawHeaders keeps repeated headers apart; Headers joins them as a client would see them.
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    // HTTP/1 connection-level headers mean nothing to the core and some are forbidden in Fetch.
    if (/^(connection|keep-alive|transfer-encoding|upgrade)$/i.test(name)) continue;
    // The browser's header for a client certificate means nothing over a network: under Node
    // certificates come from TLS only (decision 0180), so no client can present one in a header.
    if (name.toLowerCase() === 'x-kubetab-client-certificate') continue;
    headers.append(name, req.rawHeaders[i + 1]!);
  }

  const method = (req.method ?? 'GET').toUpperCase();
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (!BODYLESS.has(method)) {
    init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    // Node's fetch requires this for a streamed body: the request is sent before the response starts.
    init.duplex = 'half';
  }
  return new Request(url, init);
}

/**
 * Writes a Fetch Response to a ServerResponse. Streamed bodies are forwarded
 * chunk by chunk; headers go out first so that a watch client sees the 200 at
 * once, before any event. Resolves when the response is finished or the client
 * has gone away.
 */
export async function writeFetchResponse(res: ServerResponse, response: Response, method: string): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  const setCookies = typeof response.headers.getSetCookie === 'function' ? response.headers.getSetCookie() : [];
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    res.setHeader(name, value);
  });
  if (setCookies.length > 0) res.setHeader('set-cookie', setCookies);

  const body = response.body;
  if (body === null || method === 'HEAD') {
    if (body !== null) await body.cancel().catch(() => {});
    res.end();
    return;
  }

  // Without a length Node sends chunked encoding, which is what kube-apiserver
  // does for watches and large lists.
  res.flushHeaders();
  const reader = body.getReader();
  const onClose = () => {
    // Client gone: stop the producer (a watch would otherwise run until its timeout).
    reader.cancel().catch(() => {});
  };
  res.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (value && value.byteLength > 0 && !res.write(value)) {
        await new Promise<void>((resolve) => {
          const resume = () => {
            res.off('drain', resume);
            res.off('close', resume);
            resolve();
          };
          res.once('drain', resume);
          res.once('close', resume);
        });
      }
    }
    if (!res.destroyed) res.end();
  } catch (error) {
    // The body failed mid-way: the status line is already sent, so all that
    // is left is to cut the connection, as Go's net/http does on a handler panic.
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    res.off('close', onClose);
  }
}

/** A Status body for a failure of the host itself (the core turns its own errors into Status). */
function internalErrorBody(error: unknown): string {
  const message = `Internal error occurred: ${error instanceof Error ? error.message : String(error)}`;
  return JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'InternalError',
    details: { causes: [{ message }] },
    code: 500,
  });
}

/** A node:http request listener that serves every request with `handler`. */
export function createRequestListener(handler: FetchHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client disconnected'));
    });
    req.socket.setNoDelay(true);
    const method = (req.method ?? 'GET').toUpperCase();
    void (async () => {
      let response: Response;
      try {
        response = await handler(toFetchRequest(req, controller.signal), req);
      } catch (error) {
        if (res.headersSent || res.destroyed) return;
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(internalErrorBody(error));
        return;
      }
      await writeFetchResponse(res, response, method);
    })();
  };
}

/** TLS material for the https mode. */
export interface TlsOptions {
  readonly key: string | Buffer;
  readonly cert: string | Buffer;
  /** CA bundle used to verify client certificates. */
  readonly ca?: string | Buffer;
  /**
   * Ask clients for a certificate (--client-ca-file, --requestheader-client-ca-file).
   * Never verified in the handshake: clients with an unverifiable certificate
   * are still served, and access control answers them (401 unless another
   * credential is good), as kube-apiserver does.
   */
  readonly requestCert?: boolean;
}

export interface NodeServerOptions {
  readonly handler: FetchHandler;
  /** 0 picks a free port. */
  readonly port: number;
  /** Default 127.0.0.1: the server is for this machine's kubectl. */
  readonly host?: string;
  readonly tls?: TlsOptions;
}

export interface RunningNodeServer {
  /** e.g. http://127.0.0.1:8080 */
  readonly url: string;
  readonly port: number;
  readonly server: http.Server | https.Server;
  close(): Promise<void>;
}

export async function startNodeServer(options: NodeServerOptions): Promise<RunningNodeServer> {
  const listener = createRequestListener(options.handler);
  const server = options.tls
    ? https.createServer(
        {
          key: options.tls.key,
          cert: options.tls.cert,
          ca: options.tls.ca,
          requestCert: options.tls.requestCert ?? false,
          rejectUnauthorized: false,
        },
        listener,
      )
    : http.createServer(listener);
  // Watches are long responses; Node's request timeout only covers receiving the request, keep it.
  server.keepAliveTimeout = 65_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `${options.tls ? 'https' : 'http'}://${urlHost}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Open watches keep connections busy: end them rather than wait for their timeout.
        server.closeAllConnections();
      }),
  };
}
