// HTTP/1.1 over a raw byte connection to a simulated server (a PortStream
// the kubelet opened into a pod): the API server's proxy writes the request
// (method, path and query, headers, body) and reads the server's answer
// back — status line, headers, then a body framed by Content-Length, by
// chunked transfer coding, or by the connection closing — as a Fetch
// Response whose body streams as the bytes arrive.

import type { PortStream } from '../../kubelet/connection';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Hop-by-hop headers a proxy does not forward (RFC 7230 §6.1, as Go's httputil.ReverseProxy drops them). */
export const HOP_BY_HOP = ['connection', 'proxy-connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

export interface OutgoingRequest {
  readonly method: string;
  /** Path and query, escaped, as they go on the request line. */
  readonly target: string;
  /** host[:port] for the Host header. */
  readonly host: string;
  readonly headers: Headers;
  readonly body?: Uint8Array;
}

/** The request's bytes: request line, headers (Host first), body with its length. */
export function encodeRequest(req: OutgoingRequest): Uint8Array {
  const lines = [`${req.method} ${req.target} HTTP/1.1`, `Host: ${req.host}`];
  req.headers.forEach((value, name) => {
    if (name === 'host' || name === 'content-length') return;
    lines.push(`${canonicalHeader(name)}: ${value}`);
  });
  if (req.body && req.body.length > 0) lines.push(`Content-Length: ${req.body.length}`);
  // Go's transport asks for gzip by itself; the simulated servers do not compress, so nothing is asked.
  const head = encoder.encode(`${lines.join('\r\n')}\r\n\r\n`);
  if (!req.body || req.body.length === 0) return head;
  const out = new Uint8Array(head.length + req.body.length);
  out.set(head, 0);
  out.set(req.body, head.length);
  return out;
}

/** Go's textproto.CanonicalMIMEHeaderKey: "x-forwarded-uri" → "X-Forwarded-Uri". */
export function canonicalHeader(name: string): string {
  return name
    .split('-')
    .map((p) => (p ? p[0]!.toUpperCase() + p.slice(1).toLowerCase() : p))
    .join('-');
}

/** A malformed answer from the backend (Go's "malformed HTTP response"). */
export class BackendProtocolError extends Error {}

/** A byte queue fed by the connection, read by the parser. */
class ByteQueue {
  private chunks: Uint8Array[] = [];
  private waiting: (() => void) | undefined;
  ended = false;

  push(data: Uint8Array): void {
    if (data.length) this.chunks.push(data);
    this.wake();
  }
  end(): void {
    this.ended = true;
    this.wake();
  }
  private wake(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.();
  }
  private get size(): number {
    return this.chunks.reduce((n, c) => n + c.length, 0);
  }
  private flat(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0]!;
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    this.chunks = out.length ? [out] : [];
    return out;
  }
  private async more(): Promise<boolean> {
    if (this.ended) return false;
    await new Promise<void>((resolve) => (this.waiting = resolve));
    return true;
  }
  /** Bytes up to and including `delimiter`, or undefined at the end of the stream. */
  async readUntil(delimiter: string): Promise<Uint8Array | undefined> {
    const d = encoder.encode(delimiter);
    for (;;) {
      const buf = this.flat();
      const at = indexOf(buf, d);
      if (at >= 0) {
        const line = buf.slice(0, at + d.length);
        this.chunks = buf.length > at + d.length ? [buf.slice(at + d.length)] : [];
        return line;
      }
      if (!(await this.more())) return undefined;
    }
  }
  /** Exactly n bytes, or fewer at the end of the stream. */
  async readExactly(n: number): Promise<Uint8Array> {
    while (this.size < n && (await this.more()));
    const buf = this.flat();
    const out = buf.slice(0, n);
    this.chunks = buf.length > n ? [buf.slice(n)] : [];
    return out;
  }
  /** Whatever is there, waiting for something; undefined at the end. */
  async readSome(): Promise<Uint8Array | undefined> {
    for (;;) {
      if (this.size > 0) {
        const buf = this.flat();
        this.chunks = [];
        return buf;
      }
      if (!(await this.more())) return undefined;
    }
  }
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

export interface BackendResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
}

/**
 * Sends the request on the connection and reads the answer. The body is
 * streamed; the connection is ended once the body has been read (or the
 * reader cancels).
 */
export async function roundTrip(conn: PortStream, req: OutgoingRequest): Promise<BackendResponse> {
  const queue = new ByteQueue();
  conn.onData((data) => queue.push(data));
  void conn.closed.then(() => queue.end());
  conn.write(encodeRequest(req));
  const statusLine = await queue.readUntil('\r\n');
  if (!statusLine) throw new BackendProtocolError('EOF');
  const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?\r\n$/.exec(decoder.decode(statusLine));
  if (!m) throw new BackendProtocolError(`malformed HTTP response ${JSON.stringify(decoder.decode(statusLine).trimEnd())}`);
  const status = Number(m[1]);
  const headers = new Headers();
  for (;;) {
    const line = await queue.readUntil('\r\n');
    if (!line) throw new BackendProtocolError('unexpected EOF');
    const text = decoder.decode(line).slice(0, -2);
    if (text === '') break;
    const colon = text.indexOf(':');
    if (colon <= 0) throw new BackendProtocolError(`malformed MIME header line: ${text}`);
    headers.append(text.slice(0, colon).trim(), text.slice(colon + 1).trim());
  }
  const noBody = req.method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);
  const finish = () => conn.end();
  if (noBody) {
    finish();
    return { status, statusText: m[2] ?? '', headers, body: null };
  }
  const chunked = (headers.get('transfer-encoding') ?? '').toLowerCase().includes('chunked');
  const length = headers.get('content-length');
  let remaining = !chunked && length !== null && /^\d+$/.test(length) ? Number(length) : undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (chunked) {
        const sizeLine = await queue.readUntil('\r\n');
        const size = sizeLine ? parseInt(decoder.decode(sizeLine).split(';')[0]!.trim(), 16) : 0;
        if (!sizeLine || !Number.isFinite(size) || size === 0) {
          finish();
          controller.close();
          return;
        }
        const data = await queue.readExactly(size);
        await queue.readUntil('\r\n');
        if (data.length) controller.enqueue(data);
        return;
      }
      if (remaining !== undefined) {
        if (remaining === 0) {
          finish();
          controller.close();
          return;
        }
        const data = await queue.readSome();
        if (!data) {
          finish();
          controller.close();
          return;
        }
        const part = data.length > remaining ? data.slice(0, remaining) : data;
        remaining -= part.length;
        controller.enqueue(part);
        return;
      }
      const data = await queue.readSome();
      if (!data) {
        finish();
        controller.close();
        return;
      }
      controller.enqueue(data);
    },
    cancel() {
      finish();
    },
  });
  headers.delete('transfer-encoding');
  return { status, statusText: m[2] ?? '', headers, body };
}
