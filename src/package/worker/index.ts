// kubetab/worker: the page side of KubeTab's worker for other apps
// (docs/embedding.md, "… in your app's demo or Storybook").
//
//   import { startKubeTabWorker } from 'kubetab/worker';
//   const kube = await startKubeTabWorker({ apiBase: '/k8s', open: true, seed: yaml });
//   fetch('/k8s/api/v1/namespaces/default/pods')   // answered by KubeTab in the tab
//
// It registers kubetab-worker.js (copied into the app's public folder by
// `npx kubetab init <public dir>`), waits until the worker controls this page
// and the cluster is ready, and returns the page API: the administrator's
// token, the open switch, reset, seed, snapshot/restore, the clock and faults
// (the same shapes as kubetab/server's). A `kubetab:ready` event is
// dispatched on window with the same object as detail.
//
// Browser code: no Node, and nothing of the core but types.

import type { FaultSpec, InjectedFault } from '../../core/api/faults/index';
import { MESSAGE_PREFIX, normalizeApiBase, settingsToQuery, type PlainObject, type SeedInput, type WorkerAnswer, type WorkerRequests, type WorkerRequestType, type WorkerState } from './protocol';

export type { FaultSpec, InjectedFault, PlainObject as KubeObject, SeedInput };

export interface KubeTabWorkerOptions {
  /** Where the app serves kubetab-worker.js (default '/kubetab-worker.js'). */
  readonly url?: string;
  /** The worker's scope (default: the folder of `url`). It must cover this page and the API base. */
  readonly scope?: string;
  /** The path under which the page's API requests go ('/k8s'); default: the plain /api, /apis, /version, … paths. */
  readonly apiBase?: string;
  /** No access control (AlwaysAllow; no token needed). Default false: secured as kubeadm, requests need `token`. */
  readonly open?: boolean;
  /** Objects (YAML text or objects) applied when the cluster is created: on first start and after reset(). */
  readonly seed?: SeedInput;
  /** 'indexeddb' (default): the cluster survives reloads. 'memory': a fresh cluster per worker start (tests). */
  readonly persist?: 'indexeddb' | 'memory';
  /** kube-controller-manager's --controllers, or false for none (fastest start; nothing rolls out). Default: kubeadm's set. */
  readonly controllers?: false | readonly string[];
  /** Simulated nodes (a count or roles, "control-plane,worker"); default 1. 0: pods stay Pending. */
  readonly nodes?: number | string;
  /** How long to wait for the worker and the cluster (ms, default 30 000). */
  readonly timeoutMs?: number;
}

export interface KubeTabWorker {
  /** KubeTab's version (of the worker script). */
  readonly version: string;
  /** The API base the worker answers ('' for the plain paths). */
  readonly apiBase: string;
  /** The server's URL for a client (origin + API base), e.g. 'http://localhost:5173/k8s'. */
  readonly server: string;
  /** The administrator's bearer token (kubernetes-admin, system:masters); undefined when open. */
  readonly token: string | undefined;
  readonly open: boolean;
  /** True when this start created the cluster (and applied the seed). */
  readonly created: boolean;
  readonly registration: ServiceWorkerRegistration;
  /** Switches to the open set-up (the server restarts; `token` becomes undefined). */
  setOpen(): Promise<void>;
  /** A fresh cluster with the same settings, seeded again (faults are kept). */
  reset(): Promise<void>;
  /** Server-side apply as the administrator (field manager "kubetab-test", forced). */
  apply(objects: SeedInput, options?: { fieldManager?: string; force?: boolean }): Promise<PlainObject[]>;
  get(ref: { apiVersion?: string; kind: string; name: string; namespace?: string }): Promise<PlainObject | undefined>;
  list(query: { apiVersion?: string; kind: string; namespace?: string; labelSelector?: string; fieldSelector?: string }): Promise<PlainObject[]>;
  delete(ref: { apiVersion?: string; kind: string; name: string; namespace?: string }): Promise<boolean>;
  /** The whole cluster as plain JSON data (KubeTab's cluster archive). */
  snapshot(): Promise<unknown>;
  /** Puts back a snapshot() (faults are kept; open watches end, as after an etcd restore). */
  restore(snapshot: unknown): Promise<void>;
  /** Moves the cluster's clock forward. */
  advanceClock(ms: number): Promise<{ now: number; offsetMs: number }>;
  readonly faults: {
    add(spec: FaultSpec): Promise<InjectedFault>;
    list(): Promise<InjectedFault[]>;
    remove(id: string): Promise<boolean>;
    clear(): Promise<void>;
  };
  /** Unregisters the worker (its stored cluster stays, for the next start). */
  stop(): Promise<void>;
}

export class KubeTabWorkerError extends Error {
  constructor(message: string) {
    super(`startKubeTabWorker: ${message}`);
    this.name = 'KubeTabWorkerError';
  }
}

const KNOWN = ['url', 'scope', 'apiBase', 'open', 'seed', 'persist', 'controllers', 'nodes', 'timeoutMs'];

/** The folder of a path ('/a/b.js' → '/a/'). */
const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);

export async function startKubeTabWorker(options: KubeTabWorkerOptions = {}): Promise<KubeTabWorker> {
  if (typeof options !== 'object' || options === null) throw new KubeTabWorkerError('options must be an object');
  const unknown = Object.keys(options).filter((k) => !KNOWN.includes(k));
  if (unknown.length) throw new KubeTabWorkerError(`unknown option ${unknown.map((k) => JSON.stringify(k)).join(', ')} (known: ${KNOWN.join(', ')})`);
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) {
    throw new KubeTabWorkerError('this page cannot use service workers (they need https or localhost, and are off in some private windows)');
  }
  if (options.persist !== undefined && options.persist !== 'indexeddb' && options.persist !== 'memory') throw new KubeTabWorkerError(`persist is "indexeddb" or "memory", not ${JSON.stringify(options.persist)}`);
  if (options.open !== undefined && typeof options.open !== 'boolean') throw new KubeTabWorkerError('open must be true or false');
  if (options.nodes !== undefined && !(typeof options.nodes === 'string' || (Number.isInteger(options.nodes) && options.nodes >= 0))) throw new KubeTabWorkerError('nodes is a count (0 or more) or roles such as "control-plane,worker"');
  if (options.controllers !== undefined && options.controllers !== false && !(Array.isArray(options.controllers) && options.controllers.every((c) => typeof c === 'string'))) {
    throw new KubeTabWorkerError('controllers is false or a list such as ["*", "-garbage-collector-controller"]');
  }
  if (options.seed !== undefined && (options.seed === null || (typeof options.seed !== 'string' && typeof options.seed !== 'object'))) throw new KubeTabWorkerError('seed is YAML text, an object or a list of objects');
  if (options.apiBase !== undefined && (typeof options.apiBase !== 'string' || /^[a-z]+:/i.test(options.apiBase) || /[?#]/.test(options.apiBase))) {
    throw new KubeTabWorkerError(`apiBase is a path of this origin such as "/k8s", not ${JSON.stringify(options.apiBase)} (the worker answers its own origin only)`);
  }

  const apiBase = normalizeApiBase(options.apiBase ?? '');
  const script = new URL(options.url ?? '/kubetab-worker.js', location.href);
  if (script.origin !== location.origin) throw new KubeTabWorkerError(`the worker script must be on this page's origin (${location.origin}), not ${script.origin}`);
  const scope = new URL(options.scope ?? folderOf(script.pathname), location.href).pathname;
  // A worker answers only pages it controls, and only their requests: both must be under its scope.
  const covered = `${apiBase || '/api'}/`;
  if (!covered.startsWith(scope)) {
    throw new KubeTabWorkerError(
      `the worker's scope ${scope} does not cover the API base ${apiBase ? `${apiBase}/` : '(the plain paths /api, /apis, /version, …)'}: serve kubetab-worker.js from ${apiBase ? 'a folder above it (e.g. /kubetab-worker.js)' : 'the root (/kubetab-worker.js)'}, or give an apiBase under ${scope} such as "${scope}k8s"`,
    );
  }
  if (!location.pathname.startsWith(scope)) {
    throw new KubeTabWorkerError(`this page (${location.pathname}) is outside the worker's scope ${scope}, so the worker cannot answer its requests: serve kubetab-worker.js from a folder above the page (e.g. /kubetab-worker.js)`);
  }

  const nodes = options.nodes === undefined ? '1' : String(options.nodes);
  script.search = settingsToQuery({
    apiBase,
    persist: options.persist ?? 'indexeddb',
    open: options.open === true,
    controllers: options.controllers === false ? [] : options.controllers,
    nodes,
  });
  const timeoutMs = options.timeoutMs ?? 30_000;
  const container = navigator.serviceWorker;
  const deadline = Date.now() + timeoutMs;
  const timeout = <T>(promise: Promise<T>, what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new KubeTabWorkerError(`${what} within ${timeoutMs} ms`)), Math.max(0, deadline - Date.now()));
      promise.then(resolve, reject).finally(() => clearTimeout(timer));
    });

  let registration: ServiceWorkerRegistration;
  try {
    registration = await container.register(script.href, { scope });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new KubeTabWorkerError(`registering ${script.pathname} failed: ${reason} (is it served? \`npx kubetab init <public dir>\` copies it into the app's public folder; a scope above the script's folder needs the Service-Worker-Allowed header)`);
  }
  // The worker that will answer: the new version when the settings changed, else the active one.
  const worker = () => registration.installing ?? registration.waiting ?? registration.active;
  await timeout(waitForActivation(registration), 'the KubeTab worker did not activate');
  if (!isControlledBy(container, script)) {
    // A hard reload, or a claim that came before this page: ask the worker to claim it.
    const controlled = new Promise<void>((resolve) => {
      const check = () => {
        if (isControlledBy(container, script)) {
          container.removeEventListener('controllerchange', check);
          resolve();
        }
      };
      container.addEventListener('controllerchange', check);
      check();
    });
    registration.active?.postMessage({ type: 'kubetab-worker:claim' });
    await timeout(controlled, 'the KubeTab worker did not take control of this page');
  }

  const send = async <T extends WorkerRequestType>(type: T, request: WorkerRequests[T]['request']): Promise<WorkerRequests[T]['reply']> => {
    const target = registration.active ?? worker();
    if (!target) throw new KubeTabWorkerError('the worker is gone (unregistered?)');
    const channel = new MessageChannel();
    const answer = new Promise<WorkerAnswer>((resolve) => {
      channel.port1.onmessage = (event: MessageEvent<WorkerAnswer>) => resolve(event.data);
    });
    target.postMessage({ type: `${MESSAGE_PREFIX}${type}`, ...request }, [channel.port2]);
    const reply = await answer;
    channel.port1.close();
    if (!reply.ok) {
      const error = new Error(reply.error);
      if (reply.name) error.name = reply.name;
      throw error;
    }
    return reply.value as WorkerRequests[T]['reply'];
  };

  const seed = options.seed;
  let state: WorkerState = await timeout(send('start', seed === undefined ? {} : { seed }), 'the cluster was not ready');
  const origin = location.origin;
  const api: KubeTabWorker = {
    get version() {
      return state.version;
    },
    apiBase,
    server: origin + apiBase,
    get token() {
      return state.token;
    },
    get open() {
      return state.open;
    },
    get created() {
      return state.created;
    },
    registration,
    async setOpen() {
      state = await send('open', {});
    },
    async reset() {
      state = await send('reset', seed === undefined ? {} : { seed });
    },
    apply: (objects, opts = {}) => send('apply', { objects, ...opts }),
    get: async (ref) => (await send('get', { ref })) ?? undefined,
    list: (query) => send('list', { query }),
    delete: (ref) => send('delete', { ref }),
    async snapshot() {
      const file = await send('snapshot', {});
      return JSON.parse(await file.text()) as unknown;
    },
    async restore(snapshot) {
      if (!snapshot || typeof snapshot !== 'object') throw new KubeTabWorkerError('restore takes what snapshot() returned');
      state = await send('restore', { file: new Blob([JSON.stringify(snapshot)], { type: 'application/json' }) });
    },
    advanceClock: (ms) => send('advanceClock', { ms }),
    faults: {
      add: (spec) => send('faults:add', { spec }),
      list: () => send('faults:list', {}),
      remove: (id) => send('faults:remove', { id }),
      clear: async () => void (await send('faults:clear', {})),
    },
    async stop() {
      await registration.unregister();
    },
  };
  window.dispatchEvent(new CustomEvent('kubetab:ready', { detail: api }));
  return api;
}

function isControlledBy(container: ServiceWorkerContainer, script: URL): boolean {
  return container.controller?.scriptURL === script.href;
}

/** Resolves once the registration's newest worker is active. */
function waitForActivation(registration: ServiceWorkerRegistration): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const pending = registration.installing ?? registration.waiting;
    if (!pending) {
      if (registration.active) resolve();
      else reject(new KubeTabWorkerError('the worker has no installing, waiting or active version'));
      return;
    }
    const check = () => {
      if (pending.state === 'activated') resolve();
      else if (pending.state === 'redundant') reject(new KubeTabWorkerError('the worker failed to install (see the browser console of the service worker)'));
    };
    pending.addEventListener('statechange', check);
    check();
  });
}
