// The platform surface the server core may use, declared by hand.
//
// tsconfig.core.json compiles src/core with `lib: ["ES2022"]` and no @types, so
// the DOM, Node and service-worker globals do not exist there. Everything the
// core needs from its host is declared below: the Fetch types (the core is a
// function from Request to Response), web streams (watch bodies), text
// encoding, URL parsing, WebCrypto and timers. Every host KubeTab runs on
// (browsers, service workers, Node >= 20) provides all of them with these
// shapes, and the other tsconfig uses the real DOM declarations for the same
// files, so a mistake here shows up as a type error there.
//
// Keep this a strict subset of the DOM library's declarations.

type BodyInit = string | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array> | null;
type HeadersInit = Headers | [string, string][] | Record<string, string>;

declare class Headers {
  constructor(init?: HeadersInit);
  append(name: string, value: string): void;
  delete(name: string): void;
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
  forEach(cb: (value: string, key: string) => void): void;
  entries(): IterableIterator<[string, string]>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}

interface RequestInit {
  method?: string;
  headers?: HeadersInit;
  body?: BodyInit;
  signal?: AbortSignal | null;
}

declare class Request {
  constructor(input: string | URL | Request, init?: RequestInit);
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
  readonly signal: AbortSignal;
  arrayBuffer(): Promise<ArrayBuffer>;
  text(): Promise<string>;
  clone(): Request;
}

interface ResponseInit {
  status?: number;
  statusText?: string;
  headers?: HeadersInit;
}

declare class Response {
  constructor(body?: BodyInit, init?: ResponseInit);
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly ok: boolean;
  readonly body: ReadableStream<Uint8Array> | null;
  arrayBuffer(): Promise<ArrayBuffer>;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

declare function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
declare class AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

interface ReadableStreamDefaultController<R> {
  readonly desiredSize: number | null;
  enqueue(chunk: R): void;
  close(): void;
  error(e?: unknown): void;
}
interface UnderlyingSource<R> {
  start?(controller: ReadableStreamDefaultController<R>): void | Promise<void>;
  pull?(controller: ReadableStreamDefaultController<R>): void | Promise<void>;
  cancel?(reason?: unknown): void | Promise<void>;
}
interface ReadableStreamReadResult<R> {
  done: boolean;
  value?: R;
}
interface ReadableStreamDefaultReader<R> {
  read(): Promise<ReadableStreamReadResult<R>>;
  cancel(reason?: unknown): Promise<void>;
  releaseLock(): void;
}
declare class ReadableStream<R = unknown> {
  constructor(source?: UnderlyingSource<R>, strategy?: { highWaterMark?: number });
  getReader(): ReadableStreamDefaultReader<R>;
  cancel(reason?: unknown): Promise<void>;
  readonly locked: boolean;
}

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array | ArrayBuffer, options?: { stream?: boolean }): string;
}

declare class URLSearchParams {
  constructor(init?: string | Record<string, string> | [string, string][]);
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string): boolean;
  set(name: string, value: string): void;
  append(name: string, value: string): void;
  delete(name: string): void;
  keys(): IterableIterator<string>;
  entries(): IterableIterator<[string, string]>;
  forEach(cb: (value: string, key: string) => void): void;
  toString(): string;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}
declare class URL {
  constructor(url: string, base?: string | URL);
  readonly searchParams: URLSearchParams;
  href: string;
  origin: string;
  protocol: string;
  host: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
  hash: string;
  toString(): string;
}

interface CryptoKey {
  readonly type: string;
  readonly algorithm: unknown;
  readonly extractable: boolean;
  readonly usages: string[];
}
interface SubtleCrypto {
  digest(algorithm: string | { name: string }, data: Uint8Array | ArrayBuffer): Promise<ArrayBuffer>;
  importKey(format: string, keyData: unknown, algorithm: unknown, extractable: boolean, keyUsages: string[]): Promise<CryptoKey>;
  sign(algorithm: unknown, key: CryptoKey, data: Uint8Array | ArrayBuffer): Promise<ArrayBuffer>;
  verify(algorithm: unknown, key: CryptoKey, signature: Uint8Array | ArrayBuffer, data: Uint8Array | ArrayBuffer): Promise<boolean>;
  generateKey(algorithm: unknown, extractable: boolean, keyUsages: string[]): Promise<unknown>;
  exportKey(format: string, key: CryptoKey): Promise<unknown>;
}
declare const crypto: {
  getRandomValues<T extends Uint8Array | Uint32Array>(array: T): T;
  randomUUID(): string;
  readonly subtle: SubtleCrypto;
};

declare function setTimeout(handler: () => void, timeout?: number): number;
declare function clearTimeout(id: number | undefined): void;
declare function setInterval(handler: () => void, timeout?: number): number;
declare function clearInterval(id: number | undefined): void;
declare function queueMicrotask(callback: () => void): void;
declare class MessagePort {
  onmessage: ((event: unknown) => void) | null;
  postMessage(message: unknown): void;
}
declare class MessageChannel {
  readonly port1: MessagePort;
  readonly port2: MessagePort;
}
declare function structuredClone<T>(value: T): T;
declare function atob(data: string): string;
declare function btoa(data: string): string;

declare const console: {
  log(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
  debug(...args: unknown[]): void;
};

declare const performance: { now(): number };
