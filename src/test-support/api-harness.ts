// A KubeTab server in memory for tests: send requests as a client would and
// read status, headers, bodies and watch streams.

import { manualClock, type Clock } from '../core/clock';
import { createApiServer, type ApiServer } from '../core/server';
import { openStore } from '../core/storage/mvcc-store';
import { ACCESS_FLAGS } from '../core/api/access/config';
import type { KubeletConnections } from '../core/kubelet/connection';
import type { NodeConfig } from '../core/kubelet/topology';

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface TestServer {
  server: ApiServer;
  clock: Clock;
  /**
   * With access-control flags: the token of the administrator (system:masters)
   * the harness adds to the token file and sends unless a request names its
   * own Authorization header (an empty one sends none).
   */
  adminToken?: string;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  get(path: string, headers?: Record<string, string>): Promise<TestResponse>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  put(path: string, body: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  patch(path: string, body: unknown, contentType: string, headers?: Record<string, string>): Promise<TestResponse>;
  del(path: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  watch(path: string, headers?: Record<string, string>): Promise<WatchReader>;
  close(): Promise<void>;
}

export interface WatchEvent {
  type: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  object: any;
}

export interface WatchReader {
  status: number;
  headers: Headers;
  /** Resolves with the next n events, or rejects after timeoutMs. */
  next(n?: number, timeoutMs?: number): Promise<WatchEvent[]>;
  /** Resolves true when the stream has ended within timeoutMs. */
  ended(timeoutMs?: number): Promise<boolean>;
  cancel(): Promise<void>;
}

export interface TestServerOptions {
  /** Configuration files by path, for the flags that name files (--token-auth-file, --authorization-config, …). */
  readonly files?: Readonly<Record<string, string>>;
  /** The administrator's token (default: a fixed test token). */
  readonly adminToken?: string;
  /** The kubelets' registry the server reaches (tests register KubeletConnection doubles in it). */
  readonly kubeletConnections?: KubeletConnections;
  /** The simulated nodes (default: the server's own default; [] for a cluster whose Node objects a test creates itself). */
  readonly nodes?: readonly NodeConfig[];
}

const BASE = 'http://kubetab.test';
const DEFAULT_ADMIN_TOKEN = 'kubetab-test-admin-token';
const HARNESS_TOKEN_FILE = '/kubetab-test/tokens.csv';

/** Request headers with the admin token added unless the caller chose an Authorization header ('' sends none). */
function withCredentials(headers: Record<string, string>, adminToken: string | undefined): Record<string, string> {
  const own = Object.keys(headers).find((h) => h.toLowerCase() === 'authorization');
  if (own !== undefined) {
    if (headers[own] !== '') return headers;
    const rest = { ...headers };
    delete rest[own];
    return rest;
  }
  return adminToken ? { ...headers, Authorization: `Bearer ${adminToken}` } : headers;
}

/**
 * A fresh server in memory. Without access-control flags it serves requests
 * that carry no credentials (authentication not configured, decision 0150);
 * with any (e.g. {'authorization-mode': 'Node,RBAC'}) the harness adds an
 * administrator in system:masters to the token file and sends its token.
 */
export async function startTestServer(
  flags: Record<string, string> = {},
  clock: Clock = manualClock(),
  controllers: readonly string[] = [],
  options: TestServerOptions = {},
): Promise<TestServer> {
  const store = await openStore({ clock });
  const files: Record<string, string> = { ...(options.files ?? {}) };
  const secured = ACCESS_FLAGS.some((f) => flags[f] !== undefined);
  const adminToken = secured ? (options.adminToken ?? DEFAULT_ADMIN_TOKEN) : undefined;
  const serverFlags = { ...flags };
  if (adminToken) {
    const path = serverFlags['token-auth-file'] ?? HARNESS_TOKEN_FILE;
    serverFlags['token-auth-file'] = path;
    const existing = files[path] ?? '';
    files[path] = `${existing}${existing && !existing.endsWith('\n') ? '\n' : ''}${adminToken},kubetab-admin,kubetab-admin,system:masters\n`;
  }
  const readFile = async (path: string): Promise<string> => {
    const text = files[path];
    if (text === undefined) throw new Error('no such file or directory');
    return text;
  };
  const server = await createApiServer({ store, clock, flags: serverFlags, host: 'node', maxWatchSeconds: 3600, controllers, readFile, ...(options.kubeletConnections ? { kubeletConnections: options.kubeletConnections } : {}), ...(options.nodes ? { nodes: options.nodes } : {}) });
  // Wait for the system namespaces of a fresh cluster.
  for (let i = 0; i < 200; i++) {
    const res = await server.handle(new Request(`${BASE}/api/v1/namespaces/default`, { headers: withCredentials({}, adminToken) }));
    if (res.status === 200) break;
    await new Promise<void>((resolve) => setTimeout(() => resolve(), 5));
  }
  async function request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
    const init: RequestInit = { method, headers: withCredentials({ ...headers }, adminToken) };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    }
    const res = await server.handle(new Request(`${BASE}${path}`, init));
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  }
  return {
    server,
    clock,
    ...(adminToken ? { adminToken } : {}),
    request,
    get: (path, headers) => request('GET', path, undefined, headers),
    post: (path, body, headers) => request('POST', path, body, headers),
    put: (path, body, headers) => request('PUT', path, body, headers),
    patch: (path, body, contentType, headers = {}) => request('PATCH', path, body, { ...headers, 'Content-Type': contentType }),
    del: (path, body, headers) => request('DELETE', path, body, headers),
    async watch(path, headers = {}) {
      const controller = new AbortController();
      const res = await server.handle(new Request(`${BASE}${path}`, { headers: withCredentials(headers, adminToken), signal: controller.signal }));
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      const queue: WatchEvent[] = [];
      let done = false;
      const waiters: (() => void)[] = [];
      void (async () => {
        for (;;) {
          const { done: d, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (d) break;
          buffer += decoder.decode(value, { stream: true });
          let nl: number;
          while ((nl = buffer.indexOf('\n')) !== -1) {
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + 1);
            if (line.trim()) queue.push(JSON.parse(line) as WatchEvent);
          }
          waiters.splice(0).forEach((w) => w());
        }
        done = true;
        waiters.splice(0).forEach((w) => w());
      })();
      const waitFor = async (cond: () => boolean, timeoutMs: number) => {
        const deadline = Date.now() + timeoutMs;
        while (!cond()) {
          const left = deadline - Date.now();
          if (left <= 0) return false;
          await new Promise<void>((resolve) => {
            waiters.push(resolve);
            setTimeout(resolve, left);
          });
        }
        return true;
      };
      return {
        status: res.status,
        headers: res.headers,
        async next(n = 1, timeoutMs = 2000) {
          const ok = await waitFor(() => queue.length >= n || done, timeoutMs);
          if (!ok || queue.length < n) throw new Error(`expected ${n} watch events, got ${queue.length}: ${JSON.stringify(queue.map((e) => e.type))}`);
          return queue.splice(0, n);
        },
        ended: (timeoutMs = 2000) => waitFor(() => done, timeoutMs),
        async cancel() {
          controller.abort();
          await reader.cancel().catch(() => undefined);
        },
      };
    },
    close: () => server.close(),
  };
}
