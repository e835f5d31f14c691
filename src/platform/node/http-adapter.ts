// The Node host's translation layer: node:http's IncomingMessage → a Fetch
// Request for the core, and the core's Response → ServerResponse.
//
// Nothing here knows about Kubernetes. The request is a LightRequest (the
// Request interface over the IncomingMessage, decision 0290); its body is a
// stream (the core enforces kube-apiserver's 3 MiB request limit while it
// reads). Response bodies are written as the core produces them (a watch is
// one long response: each event must reach kubectl at once), and a client
// that goes away aborts the Request's signal so the core can stop a watch and
// let go of its store watcher.

import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { LightRequest } from './light-request';
import { serveUpgrades } from './websocket-upgrade';
import { answerClientErrorsInOrder, trackResponse } from './client-error';

/**
 * What the adapter needs from the core: `ApiServer.handle`. The incoming
 * message is there for what is not HTTP (the TLS peer's certificate).
 */
export type FetchHandler = (request: Request, incoming: IncomingMessage) => Promise<Response>;

/** Builds the Request the core sees. Its signal aborts when the client disconnects before `res` is finished. */
export function toFetchRequest(req: IncomingMessage, res: ServerResponse): Request {
  return LightRequest.fromIncoming(req, res);
}

/**
 * Go's net/http (kube-apiserver's server) buffers the first 2 KiB a handler
 * writes: a response complete within them is sent with a Content-Length, any
 * other is sent chunked as it is written.
 */
const BUFFER_BEFORE_CHUNKING = 2048;

/**
 * Bytes a streamed body may queue in the socket before the writer waits for
 * it to drain. Larger than the socket's 16 KiB mark so that a list's 64 KiB
 * chunks go out back to back instead of one per drain; small enough to bound
 * the memory a slow client can pin.
 */
const WRITE_WINDOW = 1024 * 1024;

/** The response head as node:http's writeHead takes it: [name, value, name, value, …]. */
function headOf(response: Response): { head: string[]; hasLength: boolean } {
  const head: string[] = [];
  let hasLength = false;
  response.headers.forEach((value, name) => {
    // Set-Cookie values come one by one below (forEach would give each again, getSetCookie keeps them apart).
    if (name === 'set-cookie') return;
    if (name === 'content-length') hasLength = true;
    head.push(name, value);
  });
  for (const cookie of response.headers.getSetCookie()) head.push('set-cookie', cookie);
  return { head, hasLength };
}

/** A read that has not settled by the next turn of the event loop: the body is waiting for something (a watch). */
interface Later {
  readonly later: Promise<ReadableStreamReadResult<Uint8Array>>;
}

/** Reads one chunk, or tells that the body has nothing ready now (a setImmediate: every promise job of this turn has run). */
function readNow(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<ReadableStreamReadResult<Uint8Array> | Later> {
  const read = reader.read();
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setImmediate(() => {
      if (settled) return;
      settled = true;
      resolve({ later: read });
    });
    read.then(
      (result) => {
        if (settled) return;
        settled = true;
        clearImmediate(timer);
        resolve(result);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clearImmediate(timer);
        reject(error);
      },
    );
  });
}

/** Resolves when the socket has taken what is queued, or the client is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const resume = () => {
      res.off('drain', resume);
      res.off('close', resume);
      resolve();
    };
    res.once('drain', resume);
    res.once('close', resume);
  });
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * Writes a Fetch Response to a ServerResponse. A body complete within Go's
 * 2 KiB buffer goes out with its headers in one write, with a Content-Length;
 * any other is sent chunked, each chunk as the core produces it, the headers
 * at once if the body has nothing ready. A `streamed` response (a watch) is
 * chunked from the start and its headers leave before its first event, as
 * kube's watch server flushes them: a watch client sees the 200 at once, and
 * a watch that ends at once is still chunked. Resolves when the response is
 * finished or the client has gone away.
 */
export async function writeFetchResponse(res: ServerResponse, response: Response, method: string, streamed = false): Promise<void> {
  if (response.statusText) res.statusMessage = response.statusText;
  const { head, hasLength } = headOf(response);
  const body = response.body;
  if (body === null || method === 'HEAD') {
    if (body !== null) await body.cancel().catch(() => {});
    // node:http frames a bodiless response itself (Content-Length: 0, none for HEAD, 204 and 304).
    res.statusCode = response.status;
    for (let i = 0; i < head.length; i += 2) {
      const name = head[i]!;
      if (name === 'set-cookie') res.appendHeader(name, head[i + 1]!);
      else res.setHeader(name, head[i + 1]!);
    }
    res.end();
    return;
  }

  const reader = body.getReader();
  // Buffer as Go does, while the body keeps producing at once. No closures on
  // this path: it is every small response's.
  const chunks: Uint8Array[] = [];
  let size = 0;
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  try {
    while (!streamed) {
      const result = await readNow(reader);
      if ('later' in result) {
        pending = result.later;
        break;
      }
      if (result.done) {
        if (hasLength || size > BUFFER_BEFORE_CHUNKING) break;
        // Complete: headers and body in one write.
        head.push('content-length', String(size));
        res.writeHead(response.status, head);
        res.end(size === 0 ? undefined : concat(chunks, size));
        return;
      }
      if (result.value && result.value.byteLength > 0) {
        chunks.push(result.value);
        size += result.value.byteLength;
        if (size > BUFFER_BEFORE_CHUNKING) break;
      }
    }
  } catch (error) {
    failed(res, error);
    return;
  }
  // Chunked (or the core's own Content-Length): what is buffered goes with the headers.
  res.writeHead(response.status, head);
  if (chunks.length === 0) res.flushHeaders();
  for (const chunk of chunks) res.write(chunk);
  await streamRest(res, reader, pending);
}

/**
 * The body failed: all that is left is to cut the connection, as Go's
 * net/http does on a handler panic (status line sent or not).
 */
function failed(res: ServerResponse, error: unknown): void {
  res.destroy(error instanceof Error ? error : new Error(String(error)));
}

/** Sends the rest of a chunked body: each chunk as it comes, waiting for the socket past WRITE_WINDOW. */
async function streamRest(
  res: ServerResponse,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined,
): Promise<void> {
  const onClose = () => {
    // Client gone: stop the producer (a watch would otherwise run until its timeout).
    reader.cancel().catch(() => {});
  };
  res.once('close', onClose);
  try {
    for (;;) {
      if (res.destroyed) {
        onClose();
        return;
      }
      if (res.writableLength > WRITE_WINDOW) {
        await drained(res);
        continue;
      }
      const result = await (pending ?? reader.read());
      pending = undefined;
      if (result.done) break;
      if (res.destroyed) {
        onClose();
        return;
      }
      // node:http corks the socket until the next tick: chunks produced together leave in one write.
      if (result.value && result.value.byteLength > 0) res.write(result.value);
    }
    if (!res.destroyed) res.end();
  } catch (error) {
    failed(res, error);
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
export function createRequestListener(
  handler: FetchHandler,
  streamed: (request: Request) => boolean = () => false,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    trackResponse(req, res);
    void (async () => {
      let request: Request;
      let response: Response;
      try {
        request = toFetchRequest(req, res);
        response = await handler(request, req);
      } catch (error) {
        if (res.headersSent || res.destroyed) return;
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(internalErrorBody(error));
        return;
      }
      let stream = false;
      try {
        stream = streamed(request);
      } catch {
        // An unparsable URL: the core has answered it already, as anything else.
      }
      await writeFetchResponse(res, response, method, stream);
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
  /**
   * Requests whose responses are streams by nature (kube's watches): chunked
   * from the first byte, headers sent before the body has anything, never a
   * Content-Length even when the body ends at once.
   */
  readonly streamed?: (request: Request) => boolean;
}

export interface RunningNodeServer {
  /** e.g. http://127.0.0.1:8080 */
  readonly url: string;
  readonly port: number;
  readonly server: http.Server | https.Server;
  close(): Promise<void>;
}

export async function startNodeServer(options: NodeServerOptions): Promise<RunningNodeServer> {
  const listener = createRequestListener(options.handler, options.streamed);
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
  // exec, attach and port-forward: WebSocket upgrades through the same handler (websocket-upgrade.ts).
  serveUpgrades(server, options.handler);
  // Garbage after a request is answered after that request's own answer, as Go's server does.
  answerClientErrorsInOrder(server);
  // Watches are long responses; Node's request timeout only covers receiving the request, keep it.
  server.keepAliveTimeout = 65_000;
  // Small responses (watch events) leave at once: no Nagle delay, set once per connection.
  server.on('connection', (socket: Socket) => socket.setNoDelay(true));
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
