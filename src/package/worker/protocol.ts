// What the page (kubetab/worker's startKubeTabWorker) and KubeTab's worker
// for other apps (kubetab-worker.js) agree on: the worker's settings, carried
// in the query of the script's URL, and the messages the page sends.
//
// The settings travel in the script URL, not in a message, because a browser
// stops an idle service worker and starts it again for the next fetch: the
// restarted worker must know its API base and storage before it answers that
// fetch, with no page to ask. A change of settings is a new script URL, which
// the browser installs as a new version of the worker.
//
// Plain data only: imported by the page bundle, which must stay small.

import type { FaultSpec, InjectedFault } from '../../core/api/faults/index';

export const MESSAGE_PREFIX = 'kubetab-worker:';

/** The worker's settings, as the script URL's query holds them. */
export interface WorkerSettings {
  /** Path prefix of the API ('/k8s'), or '' when the plain server paths (/api, /apis, /version, …) are answered. */
  readonly apiBase: string;
  readonly persist: 'indexeddb' | 'memory';
  /** Switch the cluster to the open set-up (AlwaysAllow) when it starts. */
  readonly open: boolean;
  /** kube-controller-manager's --controllers, or [] for none; undefined: kubeadm's set. */
  readonly controllers: readonly string[] | undefined;
  /** The simulated nodes: a count or roles ("control-plane,worker"), as the Node server's --nodes. */
  readonly nodes: string;
}

export const DEFAULT_NODES = '1';

export function settingsToQuery(settings: WorkerSettings): string {
  const query = new URLSearchParams();
  if (settings.apiBase) query.set('apiBase', settings.apiBase);
  query.set('persist', settings.persist);
  if (settings.open) query.set('open', 'true');
  if (settings.controllers !== undefined) query.set('controllers', settings.controllers.length ? settings.controllers.join(',') : 'false');
  if (settings.nodes !== DEFAULT_NODES) query.set('nodes', settings.nodes);
  return query.toString();
}

/** The settings of a script URL's query (the worker's own location), with defaults for what is absent. */
export function settingsFromQuery(search: string): WorkerSettings {
  const query = new URLSearchParams(search);
  const persist = query.get('persist');
  const controllers = query.get('controllers');
  return {
    apiBase: normalizeApiBase(query.get('apiBase') ?? ''),
    persist: persist === 'memory' ? 'memory' : 'indexeddb',
    open: query.get('open') === 'true',
    controllers: controllers === null ? undefined : controllers === 'false' ? [] : controllers.split(',').filter(Boolean),
    nodes: query.get('nodes') ?? DEFAULT_NODES,
  };
}

/** '/k8s/' and 'k8s' → '/k8s'; '' and '/' → '' (the plain paths). */
export function normalizeApiBase(base: string): string {
  let b = base.trim().replace(/\/{2,}/g, '/');
  if (b === '' || b === '/') return '';
  if (!b.startsWith('/')) b = `/${b}`;
  return b.replace(/\/+$/, '');
}

/** The messages, each answered on the port sent with it by { ok: true, value } or { ok: false, error }. */
export interface WorkerRequests {
  /** Starts the cluster if need be, seeds a new one, and answers once it is ready. */
  start: { request: { seed?: SeedInput }; reply: WorkerState };
  /** A fresh cluster (same settings), seeded again. */
  reset: { request: { seed?: SeedInput }; reply: WorkerState };
  /** Switches the running cluster to the open set-up (AlwaysAllow, no token needed). */
  open: { request: Record<never, never>; reply: WorkerState };
  apply: { request: { objects: SeedInput; fieldManager?: string; force?: boolean }; reply: PlainObject[] };
  get: { request: { ref: { apiVersion?: string; kind: string; name: string; namespace?: string } }; reply: PlainObject | null };
  list: { request: { query: { apiVersion?: string; kind: string; namespace?: string; labelSelector?: string; fieldSelector?: string } }; reply: PlainObject[] };
  delete: { request: { ref: { apiVersion?: string; kind: string; name: string; namespace?: string } }; reply: boolean };
  /** The cluster as an archive file (a Blob of JSON). */
  snapshot: { request: Record<never, never>; reply: Blob };
  restore: { request: { file: Blob }; reply: WorkerState };
  advanceClock: { request: { ms: number }; reply: { now: number; offsetMs: number } };
  'faults:add': { request: { spec: FaultSpec }; reply: InjectedFault };
  'faults:list': { request: Record<never, never>; reply: InjectedFault[] };
  'faults:remove': { request: { id: string }; reply: boolean };
  'faults:clear': { request: Record<never, never>; reply: null };
}

export type WorkerRequestType = keyof WorkerRequests;
export type WorkerMessage<T extends WorkerRequestType = WorkerRequestType> = { type: `${typeof MESSAGE_PREFIX}${T}` } & WorkerRequests[T]['request'];
export type WorkerAnswer = { ok: true; value: unknown } | { ok: false; error: string; name?: string };

/** Objects to apply: YAML text (several documents, or a List), an object or a list of objects. */
export type SeedInput = string | PlainObject | readonly PlainObject[];
export type PlainObject = { apiVersion: string; kind: string; metadata: { name?: string; namespace?: string; [key: string]: unknown }; [key: string]: unknown };

/** What the page learns when the cluster is ready (or after a reset, restore or switch to open). */
export interface WorkerState {
  /** The KubeTab version of the worker script. */
  readonly version: string;
  readonly apiBase: string;
  /** True when the cluster has no access control. */
  readonly open: boolean;
  /** The administrator's bearer token (kubernetes-admin, system:masters); absent when open. */
  readonly token?: string;
  /** True when this start created the cluster (and applied the seed). */
  readonly created: boolean;
}
