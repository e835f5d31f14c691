// The browser host: a service worker that answers the API server's paths
// under its scope (the app's base path) with the core, keeping the objects in
// IndexedDB. Everything else under the scope goes to the network untouched.
//
// A worker can be stopped whenever it is idle and started again for the next
// fetch: nothing that matters lives only in memory here. The store rebuilds
// its state from IndexedDB on start, and watch clients resume from their last
// resourceVersion as Kubernetes clients do.

import { systemClock } from '../../core/clock';
import { createApiServer, type ApiServer } from '../../core/server';
import { openStore } from '../../core/storage/mvcc-store';
import { createIndexedDbPersistence } from '../../storage/indexeddb-persistence';
import { startExpiryCompaction } from '../shared/expiry-compaction';
import { isPageToWorkerMessage } from './messages';
import { isServerPath, normalizeBase, stripBase } from './server-paths';

// The WebWorker lib cannot be loaded beside the DOM lib in one program, so the
// few service-worker globals used here are declared by hand.
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEventLike extends ExtendableEventLike {
  readonly request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface ExtendableMessageEventLike extends ExtendableEventLike {
  readonly data: unknown;
}
interface ServiceWorkerGlobalLike {
  readonly registration: { readonly scope: string };
  readonly clients: { claim(): Promise<void> };
  readonly location: Location;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEventLike) => void): void;
}

const sw = self as unknown as ServiceWorkerGlobalLike;

/** A browser ends a service worker's response after about 5 minutes; the server ends each watch well before. */
const MAX_WATCH_SECONDS = 240;
/** kube-apiserver's default --etcd-compaction-interval. */
const RETENTION_MS = 5 * 60_000;

const basePath = normalizeBase(new URL(sw.registration.scope).pathname);

let server: Promise<ApiServer> | undefined;

/** Opens the store and the core once per worker life; a failed start is retried by the next request. */
function apiServer(): Promise<ApiServer> {
  server ??= startServer().catch((error: unknown) => {
    server = undefined;
    throw error;
  });
  return server;
}

async function startServer(): Promise<ApiServer> {
  const clock = systemClock();
  // One database per scope: two apps under different base paths of one origin are two clusters.
  const dbName = basePath === '/' ? 'kubetab' : `kubetab:${basePath}`;
  const persistence = createIndexedDbPersistence({ dbName });
  const store = await openStore({ persistence, clock, retentionMs: RETENTION_MS });
  const core = await createApiServer({ store, clock, host: 'browser', maxWatchSeconds: MAX_WATCH_SECONDS });
  // History past the window is dropped on start (the worker may have slept long) and then periodically.
  store.compactExpired().catch((error: unknown) => console.warn('compaction failed', error));
  startExpiryCompaction(store, RETENTION_MS);
  return core;
}

/** The Request the core sees: same method, headers, body and signal, with the base path removed from the URL. */
async function toCoreRequest(request: Request, url: URL, path: string): Promise<Request> {
  const method = request.method.toUpperCase();
  // Navigations (an API URL typed in the address bar) cannot be re-used as a
  // RequestInit, so the request is rebuilt from its parts.
  return new Request(new URL(path + url.search, url.origin).href, {
    method,
    headers: request.headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : await request.arrayBuffer(),
    signal: request.signal,
  });
}

function internalError(error: unknown): Response {
  const message = `Internal error occurred: ${error instanceof Error ? error.message : String(error)}`;
  const body = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'InternalError',
    details: { causes: [{ message }] },
    code: 500,
  };
  return new Response(JSON.stringify(body), { status: 500, headers: { 'content-type': 'application/json' } });
}

async function answer(request: Request, url: URL, path: string): Promise<Response> {
  try {
    const core = await apiServer();
    return await core.handle(await toCoreRequest(request, url, path));
  } catch (error) {
    console.error('KubeTab service worker:', error);
    return internalError(error);
  }
}

sw.addEventListener('install', (event) => {
  // A new version takes over at once: the page has no state that an old worker must finish.
  event.waitUntil(sw.skipWaiting());
});

sw.addEventListener('activate', (event) => {
  // Control the pages already open, so that the first visit's API calls reach the worker with no reload.
  event.waitUntil(sw.clients.claim());
});

sw.addEventListener('message', (event) => {
  if (isPageToWorkerMessage(event.data) && event.data.type === 'kubetab:claim') event.waitUntil(sw.clients.claim());
});

sw.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== sw.location.origin) return;
  const path = stripBase(url.pathname, basePath);
  if (path === undefined || !isServerPath(path)) return; // the app's own files: the network answers
  event.respondWith(answer(event.request, url, path));
});

// Start opening the store as soon as the worker runs, so the first request waits less.
void apiServer().catch(() => {});
