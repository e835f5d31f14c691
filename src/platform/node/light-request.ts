// The Request the core sees under Node: a structural Fetch Request built
// straight from node:http's IncomingMessage (decision 0290).
//
// undici's Request validates and copies every header, normalises the URL, and
// makes an AbortSignal that follows ours, for every request: together several
// times the core's own work for a get. The core reads only method, url,
// headers (get, forEach, entries), signal, body and clone() (the audit's copy
// of a request body), so this class does only that work, and only when it is
// asked for: the URL is normalised on first read, the AbortSignal made when
// someone listens (a watch), the body stream made when someone reads it.
// What the core observes is what undici's Request gives: the same normalised
// URL, header names lower-cased, repeated headers joined with ", ", iteration
// sorted by name, the same body bytes.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { TLSSocket } from 'node:tls';

/** The browser's header for a client certificate: never honoured from a network client (decision 0180). */
const RESERVED_CLIENT_CERTIFICATE = 'x-kubetab-client-certificate';

/** Methods undici's Request refuses ("'TRACE' HTTP method is unsupported."): kept refused, so the answer stays the host's 500. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** HTTP whitespace, which Fetch strips from both ends of a header value. */
function isHttpWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function normalizeValue(value: string): string {
  if (value.length === 0 || (!isHttpWhitespace(value.charCodeAt(0)) && !isHttpWhitespace(value.charCodeAt(value.length - 1)))) return value;
  let start = 0;
  let end = value.length;
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--;
  return value.slice(start, end);
}

/**
 * Fetch Headers over a plain Map of lower-cased names. node:http's parser has
 * already refused malformed names and values, so nothing is validated again.
 */
export class LightHeaders implements Headers {
  readonly #values = new Map<string, string>();
  /** Set-Cookie values one by one (Fetch keeps them apart for getSetCookie and iteration). */
  #cookies: string[] | undefined;

  constructor(init?: Iterable<readonly [string, string]>) {
    if (init) for (const [name, value] of init) this.append(name, value);
  }

  /** The request headers of an IncomingMessage, without HTTP/1 connection-level ones and the reserved certificate header. */
  static fromIncoming(req: IncomingMessage): LightHeaders {
    const headers = new LightHeaders();
    const raw = req.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      switch (name) {
        // HTTP/1 connection-level headers mean nothing to the core and some are forbidden in Fetch.
        case 'connection':
        case 'keep-alive':
        case 'transfer-encoding':
        case 'upgrade':
        // Under Node certificates come from TLS only (decision 0180): no client can present one in a header.
        case RESERVED_CLIENT_CERTIFICATE:
          continue;
      }
      headers.#add(name, normalizeValue(raw[i + 1]!));
    }
    return headers;
  }

  #add(name: string, value: string): void {
    if (name === 'set-cookie') (this.#cookies ??= []).push(value);
    const present = this.#values.get(name);
    this.#values.set(name, present === undefined ? value : `${present}, ${value}`);
  }

  append(name: string, value: string): void {
    this.#add(name.toLowerCase(), normalizeValue(value));
  }

  delete(name: string): void {
    const key = name.toLowerCase();
    this.#values.delete(key);
    if (key === 'set-cookie') this.#cookies = undefined;
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  getSetCookie(): string[] {
    return this.#cookies ? [...this.#cookies] : [];
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  set(name: string, value: string): void {
    const key = name.toLowerCase();
    const normalized = normalizeValue(value);
    this.#values.set(key, normalized);
    if (key === 'set-cookie') this.#cookies = [normalized];
  }

  /** Fetch's "sort and combine": names in order, each Set-Cookie on its own. */
  *entries(): HeadersIterator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      if (name === 'set-cookie' && this.#cookies) {
        for (const cookie of this.#cookies) yield [name, cookie];
      } else {
        yield [name, this.#values.get(name)!];
      }
    }
  }

  *keys(): HeadersIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): HeadersIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }

  forEach(callbackfn: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callbackfn.call(thisArg, value, name, this);
  }
}

/** Aborts when the client goes away before its response is finished (created on first use). */
export type SignalSource = () => AbortSignal;

/** The signal of a request served on `res`: aborted if the connection closes before the response has been sent. */
export function clientSignal(res: ServerResponse): SignalSource {
  let signal: AbortSignal | undefined;
  return () => {
    if (signal) return signal;
    const controller = new AbortController();
    signal = controller.signal;
    const disconnected = () => controller.abort(new Error('client disconnected'));
    if (res.writableFinished) return signal;
    if (res.closed || res.destroyed) disconnected();
    else
      res.once('close', () => {
        if (!res.writableFinished) disconnected();
      });
    return signal;
  };
}

/** The pieces of a request a LightRequest is made of (also for its clones). */
interface Parts {
  readonly method: string;
  readonly rawUrl: string;
  readonly headers: LightHeaders;
  readonly signal: SignalSource;
  /** Makes the body stream, once; undefined for a request without one. */
  readonly body: (() => ReadableStream<Uint8Array>) | undefined;
}

/** A structural Fetch Request for the core. */
export class LightRequest implements Request {
  readonly method: string;
  readonly headers: Headers;
  readonly #rawUrl: string;
  #url: string | undefined;
  readonly #signal: SignalSource;
  #makeBody: (() => ReadableStream<Uint8Array>) | undefined;
  #body: ReadableStream<Uint8Array> | null | undefined;

  /** From node:http; `res` is the response the request is answered on (its close aborts the signal). */
  static fromIncoming(req: IncomingMessage, res: ServerResponse): LightRequest {
    const method = (req.method ?? 'GET').toUpperCase();
    if (FORBIDDEN_METHODS.has(method)) throw new TypeError(`'${method}' HTTP method is unsupported.`);
    const secure = Boolean((req.socket as Partial<TLSSocket>).encrypted);
    const host = req.headers.host ?? `${req.socket.localAddress ?? '127.0.0.1'}:${req.socket.localPort ?? 80}`;
    const body =
      method === 'GET' || method === 'HEAD'
        ? undefined
        : () => Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    return new LightRequest({
      method,
      rawUrl: `${secure ? 'https' : 'http'}://${host}${req.url ?? '/'}`,
      headers: LightHeaders.fromIncoming(req),
      signal: clientSignal(res),
      body,
    });
  }

  constructor(parts: Parts) {
    this.method = parts.method;
    this.#rawUrl = parts.rawUrl;
    this.headers = parts.headers;
    this.#signal = parts.signal;
    this.#makeBody = parts.body;
    if (!parts.body) this.#body = null;
  }

  /** The URL as Fetch serialises it (undici parses it in its constructor; here on first read, with its error). */
  get url(): string {
    if (this.#url === undefined) {
      try {
        this.#url = new URL(this.#rawUrl).href;
      } catch (error) {
        throw new TypeError(`Failed to parse URL from ${this.#rawUrl}`, { cause: error });
      }
    }
    return this.#url;
  }

  get signal(): AbortSignal {
    return this.#signal();
  }

  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.#body === undefined) {
      this.#body = this.#makeBody!();
      this.#makeBody = undefined;
    }
    return this.#body as ReadableStream<Uint8Array<ArrayBuffer>> | null;
  }

  get bodyUsed(): boolean {
    return this.#body ? Readable.isDisturbed(this.#body as unknown as NodeReadableStream) : false;
  }

  // What undici's Request reports for a `new Request(url, init)` without those options.
  get cache(): RequestCache {
    return 'default';
  }
  get credentials(): RequestCredentials {
    return 'same-origin';
  }
  get destination(): RequestDestination {
    return '';
  }
  get integrity(): string {
    return '';
  }
  get keepalive(): boolean {
    return false;
  }
  get mode(): RequestMode {
    return 'cors';
  }
  get redirect(): RequestRedirect {
    return 'follow';
  }
  get referrer(): string {
    return 'about:client';
  }
  get referrerPolicy(): ReferrerPolicy {
    return '';
  }
  /** Node's Request has it: a streamed request body is sent before the response starts. */
  get duplex(): 'half' {
    return 'half';
  }

  /** A copy whose body is a tee of this one's (the audit reads its copy while the handler reads the original). */
  clone(): LightRequest {
    if (this.bodyUsed) throw new TypeError('Request.clone: Body has already been consumed.');
    const body = this.body;
    let copyBody: (() => ReadableStream<Uint8Array>) | undefined;
    if (body) {
      const [mine, theirs] = body.tee();
      this.#body = mine;
      copyBody = () => theirs;
    }
    const clone = new LightRequest({
      method: this.method,
      rawUrl: this.#rawUrl,
      headers: new LightHeaders(this.headers),
      signal: this.#signal,
      body: copyBody,
    });
    return clone;
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const body = this.body;
    if (!body) return new Uint8Array(0);
    if (this.bodyUsed || body.locked) throw new TypeError('Body is unusable: Body has already been read');
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    return bytes;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.bytes()).buffer;
  }

  /** UTF-8, a leading BOM dropped, as Fetch decodes. */
  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  /** Rare forms: Fetch's own parsing, through a Response over the same bytes. */
  async blob(): Promise<Blob> {
    return this.#asResponse().blob();
  }

  async formData(): Promise<FormData> {
    return this.#asResponse().formData();
  }

  #asResponse(): Response {
    const contentType = this.headers.get('content-type');
    return new Response(this.body, contentType === null ? {} : { headers: { 'content-type': contentType } });
  }
}
