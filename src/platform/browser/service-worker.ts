// The browser host: a service worker that answers the API server's paths
// under its scope (the app's base path) with the core, keeping the objects in
// IndexedDB. The app's own files come from the app cache (app-cache.ts), so the
// app opens offline; anything else under the scope goes to the network.
//
// A worker can be stopped whenever it is idle and started again for the next
// fetch: nothing that matters lives only in memory here. The store rebuilds
// its state from IndexedDB on start, the configuration document and the
// clock's offset are kept in a second database (host-settings.ts), and watch
// clients resume from their last resourceVersion as Kubernetes clients do.
//
// The cluster's life cycle (configuration, reset, export/import, clock) is
// cluster-host.ts; this file only connects it to the worker's events.

import { createIndexedDbPersistence } from '../../storage/indexeddb-persistence';
import { startExpiryCompaction } from '../shared/expiry-compaction';
import { createAppCache } from './app-cache';
import { ClusterHost, ReplacedError } from './cluster-host';
import { openHostSettings } from './host-settings';
import { isPageToWorkerMessage, type MessageReply, type MessageType, type PageToWorkerMessage, type WorkerReply } from './messages';
import { RebasedRequest } from './rebased-request';
import { isServerPath, normalizeBase, stripBase } from './server-paths';
import { acquireStoreLock } from './store-lock';

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
  readonly ports: readonly MessagePort[];
}
interface ServiceWorkerLike extends EventTarget {
  readonly state: string;
}
interface ServiceWorkerGlobalLike {
  readonly registration: { readonly scope: string; readonly installing: ServiceWorkerLike | null; readonly active: ServiceWorkerLike | null } & EventTarget;
  readonly clients: { claim(): Promise<void> };
  readonly location: Location;
  /** This worker itself (recent browsers). */
  readonly serviceWorker?: ServiceWorkerLike;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEventLike) => void): void;
}

const sw = self as unknown as ServiceWorkerGlobalLike;

/** A browser ends a service worker's response after about 5 minutes; the server ends each watch well before. */
const MAX_WATCH_SECONDS = 240;

const basePath = normalizeBase(new URL(sw.registration.scope).pathname);
// One database per scope: two apps under different base paths of one origin are two clusters.
const dbName = basePath === '/' ? 'kubetab' : `kubetab:${basePath}`;

// The app's own files for offline use (app-cache.ts); undefined under the dev server.
const appCache = createAppCache(sw.registration.scope);

const host = new ClusterHost({
  persistence: () => createIndexedDbPersistence({ dbName }),
  settings: openHostSettings(`${dbName}:settings`),
  acquireStoreLock: () => acquireStoreLock(dbName),
  maxWatchSeconds: MAX_WATCH_SECONDS,
  startCompaction: (store, retentionMs) => startExpiryCompaction(store, retentionMs),
});

/** The Request the core sees: the event's request with the base path removed from the URL (rebased-request.ts). */
function toCoreRequest(request: Request, url: URL, path: string): Request {
  return new RebasedRequest(request, url.origin + path + url.search);
}

/** While a newer worker takes over: come back in a second (kube-apiserver's 503 with Retry-After). */
function serviceUnavailable(message: string): Response {
  const body = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'ServiceUnavailable', details: { retryAfterSeconds: 1 }, code: 503 };
  return new Response(JSON.stringify(body), { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '1' } });
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
    return await host.handle(toCoreRequest(request, url, path));
  } catch (error) {
    if (error instanceof ReplacedError) return serviceUnavailable(error.message);
    console.error('KubeTab service worker:', error);
    return internalError(error);
  }
}

/** Carries out one page message; its answer goes back on the message's port. */
function carryOut(message: Exclude<PageToWorkerMessage, { type: 'kubetab:pods:exec' }>): Promise<MessageReply<MessageType>> {
  switch (message.type) {
    case 'kubetab:claim':
      return sw.clients.claim();
    case 'kubetab:ready':
      return host.ready();
    case 'kubetab:configuration:get':
      return host.configurationState();
    case 'kubetab:configuration:validate':
      return host.validate(message.document);
    case 'kubetab:configuration:save':
      return host.save(message.document);
    case 'kubetab:cluster:reset':
      return host.reset(message.configuration === 'default' ? 'default' : 'keep');
    case 'kubetab:cluster:export':
      return host.exportArchive();
    case 'kubetab:cluster:import':
      return host.importArchive(message.file);
    case 'kubetab:clock:get':
      return host.clockState();
    case 'kubetab:clock:advance':
      return host.advanceClock(message.ms);
    case 'kubetab:nodes:get':
      return host.nodesState();
    case 'kubetab:nodes:stop':
      return host.stopNode(message.name);
    case 'kubetab:nodes:start':
      return host.startNode(message.name);
  }
}

/**
 * A newer worker is taking over: close the store so that it can open it (see
 * store-lock.ts). As soon as it is installed, not when it activates: a browser
 * activates it only once this worker's requests are done, and an open watch
 * would hold that off for minutes.
 */
function stepAsideFor(next: ServiceWorkerLike | null | undefined): void {
  if (!next || next === sw.serviceWorker) return;
  const check = () => {
    if (next.state === 'installed' || next.state === 'activating' || next.state === 'activated') void host.retire();
  };
  next.addEventListener('statechange', check);
  check();
}

sw.addEventListener('install', (event) => {
  // An update stores all of its app files before it takes over (the old version serves meanwhile); the first
  // visit cannot wait for that, its page waits for the worker: it fills the cache after (fillOnce below).
  const files = sw.registration.active ? appCache?.install() : undefined;
  // A new version takes over at once; the old one steps aside (closes its store) as it does.
  event.waitUntil(Promise.resolve(files).then(() => sw.skipWaiting()));
});

sw.addEventListener('activate', (event) => {
  // Control the pages already open, so that the first visit's API calls reach the worker with no reload.
  event.waitUntil(Promise.all([sw.clients.claim(), appCache?.removeOtherVersions()]));
  // Start opening the store now (it waits for an old worker to let go of it), so the first request waits less.
  void host.server().catch(() => {});
});

sw.registration.addEventListener('updatefound', () => stepAsideFor(sw.registration.installing));
sw.serviceWorker?.addEventListener('statechange', () => {
  if (sw.serviceWorker?.state === 'redundant') void host.retire();
});

sw.addEventListener('message', (event) => {
  if (!isPageToWorkerMessage(event.data)) return;
  const port = event.ports[0];
  const reply = (value: WorkerReply) => port?.postMessage(value);
  const refuse = (error: unknown) => reply({ ok: false, error: error instanceof Error ? error.message : String(error) });
  if (event.data.type === 'kubetab:pods:exec') {
    // Answered once the API has accepted or refused the exec; the event keeps the worker alive while the
    // session runs (a browser allows an event about five minutes).
    event.waitUntil(
      host.exec(sw.location.origin, event.data).then((outcome) => {
        reply({ ok: true, value: outcome.start });
        return outcome.finished;
      }, refuse),
    );
    return;
  }
  event.waitUntil(carryOut(event.data).then((value) => reply({ ok: true, value }), refuse));
});

sw.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== sw.location.origin) return;
  const path = stripBase(url.pathname, basePath);
  if (path === undefined) return;
  if (appCache) event.waitUntil(appCache.fillOnce());
  if (isServerPath(path)) return event.respondWith(answer(event.request, url, path));
  // The app's own files from this version's cache; anything else under the scope goes to the network.
  const file = appCache?.respond(event.request, path);
  if (file) event.respondWith(file);
});

// A worker started again after being stopped gets no activate event: its first fetch starts the core.
if (sw.serviceWorker?.state === 'activated') void host.server().catch(() => {});
