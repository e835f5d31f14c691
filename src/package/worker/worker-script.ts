// kubetab-worker.js: KubeTab's service worker for other apps' pages (what
// `kubetab init <public dir>` copies, as `msw init` copies mockServiceWorker.js).
// It answers the page's requests under the API base (or the plain /api, /apis,
// /version, … paths) with a KubeTab API server running here, and lets every
// other request go to the network untouched (no respondWith: the browser
// fetches it as if there were no worker).
//
// Its settings come from the query of its own URL (protocol.ts), put there by
// startKubeTabWorker; an app's own worker that pulls this one in with
// importScripts sets `self.KUBETAB_WORKER_SETTINGS` (a query string) first.

import { createIndexedDbPersistence } from '../../storage/indexeddb-persistence';
import { createMemoryPersistence } from '../../core/storage/memory-persistence';
import { startExpiryCompaction } from '../../platform/shared/expiry-compaction';
import { openHostSettings, type HostSettings } from '../../platform/browser/host-settings';
import { acquireStoreLock } from '../../platform/browser/store-lock';
import type { ClusterConfiguration } from '../../platform/browser/cluster-config';
import { settingsFromQuery } from './protocol';
import { WorkerCluster, type SeedMarker } from './worker-cluster';
import { indexedDbSeedMarker } from './seed-marker';

declare const __KUBETAB_VERSION__: string | undefined;

// The WebWorker lib cannot be loaded beside the DOM lib in one program: the globals used, by hand.
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
interface WorkerGlobalLike {
  readonly registration: { readonly scope: string };
  readonly clients: { claim(): Promise<void> };
  readonly location: Location;
  readonly KUBETAB_WORKER_SETTINGS?: string;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEventLike) => void): void;
}

const sw = self as unknown as WorkerGlobalLike;
/** A browser ends a worker's response after about 5 minutes; the server ends each watch well before. */
const MAX_WATCH_SECONDS = 240;

const settings = settingsFromQuery(sw.KUBETAB_WORKER_SETTINGS ?? sw.location.search);
const scope = new URL(sw.registration.scope).pathname;
// Its own databases (not KubeTab's app's): one cluster per scope and API base.
const dbName = `kubetab-worker:${scope}${settings.apiBase || '(root)'}`;

function memorySettings(): HostSettings {
  let configuration: ClusterConfiguration | undefined;
  let offset = 0;
  let stopped: string[] = [];
  return {
    configuration: async () => configuration,
    saveConfiguration: async (c) => void (configuration = structuredClone(c)),
    clockOffset: async () => offset,
    saveClockOffset: async (ms) => void (offset = ms),
    stoppedNodes: async () => stopped,
    saveStoppedNodes: async (names) => void (stopped = [...names]),
  };
}

function memoryMarker(): SeedMarker {
  let seeded = false;
  return { seeded: async () => seeded, set: async (value) => void (seeded = value) };
}

const memory = settings.persist === 'memory' ? createMemoryPersistence() : undefined;
const cluster = new WorkerCluster({
  settings,
  version: typeof __KUBETAB_VERSION__ === 'string' ? __KUBETAB_VERSION__ : 'dev',
  maxWatchSeconds: MAX_WATCH_SECONDS,
  ...(memory
    ? { persistence: () => memory, hostSettings: memorySettings(), seedMarker: memoryMarker() }
    : {
        persistence: () => createIndexedDbPersistence({ dbName }),
        hostSettings: openHostSettings(`${dbName}:settings`),
        seedMarker: indexedDbSeedMarker(`${dbName}:seed`),
        acquireStoreLock: () => acquireStoreLock(dbName),
      }),
  startCompaction: (store, retentionMs) => startExpiryCompaction(store, retentionMs),
  log: (message) => console.warn(`KubeTab: ${message}`),
});

sw.addEventListener('install', (event) => event.waitUntil(sw.skipWaiting()));
sw.addEventListener('activate', (event) => {
  // Control the pages already open, so that the page that registered the worker is answered with no reload.
  event.waitUntil(sw.clients.claim());
  void cluster.host.server().catch(() => {});
});

sw.addEventListener('message', (event) => {
  const port = event.ports[0];
  const data = event.data as { type?: unknown } | null;
  if (data && data.type === 'kubetab-worker:claim') {
    event.waitUntil(sw.clients.claim());
    return;
  }
  const answer = cluster.carryOut(event.data);
  event.waitUntil(answer.then((reply) => reply && port?.postMessage(reply)));
});

sw.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== sw.location.origin) return;
  const path = cluster.serverPathOf(url);
  if (path === undefined) return;
  event.respondWith(cluster.handle(event.request, url, path));
});
