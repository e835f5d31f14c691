// The one message map between the page and the service worker. The API itself
// goes over fetch like any client's; messages are only for what a real
// cluster does outside its API: the worker's life cycle, the cluster's
// configuration (kube-apiserver's flags and files, changed by restarting the
// server), wiping, exporting and importing the storage, the clock, the
// simulated nodes' power switches — and exec, which kube serves only over a
// WebSocket that a service worker cannot take: the page hands the worker a
// MessagePort that stands for the socket (decision 0352, exec-session.ts).
//
// A message that expects an answer carries a MessagePort (the second argument
// of postMessage); the worker answers on it with a WorkerReply.

import type { ClusterConfiguration, NodeConfig } from './cluster-config';

/** What the page learns about the configuration in use. */
export interface ConfigurationState {
  readonly document: ClusterConfiguration;
  /** The administrator the UI sends as (the first static token user in system:masters), when there is one. */
  readonly administrator?: { readonly user: string; readonly token: string };
  /** True when no access control is configured (AlwaysAllow, requests without credentials served). */
  readonly open: boolean;
  /** Why the server could not start with this document, if it could not. */
  readonly startError?: string;
}

export interface ValidationAnswer {
  readonly valid: boolean;
  readonly problems: readonly { readonly field: string; readonly message: string }[];
  readonly warnings: readonly string[];
}

export interface ClockState {
  /** The server's time (ms since the epoch). */
  readonly now: number;
  /** How far it has been moved ahead of the host's clock (ms). */
  readonly offsetMs: number;
}

/** A whole cluster in one file: its configuration, its clock and every stored key. */
export interface ClusterArchive {
  readonly apiVersion: 'kubetab.dev/v1';
  readonly kind: 'ClusterArchive';
  /** RFC 3339, by the server's clock. */
  readonly exportedAt: string;
  readonly configuration: ClusterConfiguration;
  readonly clockOffsetMs: number;
  /** The store's revision when exported. */
  readonly revision: number;
  readonly items: readonly { key: string; value: string; createRevision: number; modRevision: number; version: number }[];
}

/**
 * An export: the archive as a JSON file (a Blob, which the page gets by
 * reference and downloads as it is), and what the page says about it.
 */
export interface ExportedArchive {
  readonly file: Blob;
  /** The number of stored keys in it. */
  readonly keys: number;
  readonly revision: number;
  /** RFC 3339, by the server's clock. */
  readonly exportedAt: string;
}

/** One configured node: its configuration and its kubelet (Ready or not is the API's Node). */
export interface NodeState {
  readonly config: NodeConfig;
  /** The user stopped it: its lease expires, and it stays stopped across restarts. */
  readonly stopped: boolean;
  /** Its kubelet runs now (false while the cluster is starting, or when stopped). */
  readonly running: boolean;
}

export interface NodesState {
  readonly nodes: readonly NodeState[];
}

/**
 * An exec in a pod's container, as the identity whose request headers the
 * page passes (its Authorization, Impersonate-*): the worker sends kubectl
 * 1.32's request (GET …/pods/<name>/exec, v5.channel.k8s.io) through the whole
 * API pipeline, so authentication, authorization, admission and audit are
 * the API's own.
 */
export interface ExecRequest {
  readonly namespace: string;
  readonly pod: string;
  /** Absent: the pod's only container (the API's rule). */
  readonly container?: string;
  readonly command: readonly string[];
  /** Whether the process reads the page's stdin (ExecSessionMessage 'data' on channel 0). */
  readonly stdin?: boolean;
  readonly headers: readonly (readonly [string, string])[];
  /** The session: channel-protocol messages both ways (in the message's transfer list). */
  readonly session: MessagePort;
}

/** The API's answer to the exec request: accepted (the session runs on the port), or its error response. */
export type ExecStart =
  | { readonly accepted: true; readonly protocol: string }
  | { readonly accepted: false; readonly status: number; readonly body: string };

/**
 * What goes over an exec session's port, both ways: one WebSocket message of
 * kube's channel protocol (channel byte, then data), or the socket's close.
 */
export type ExecSessionMessage = { readonly kind: 'data'; readonly data: Uint8Array } | { readonly kind: 'close'; readonly code: number; readonly reason: string };

/** Each message: what the page sends, and what the worker answers. */
export interface PageToWorkerMessages {
  /**
   * Take control of the pages that are not controlled yet. After a hard reload
   * (Shift+Reload) a page is never controlled by the active worker unless the
   * worker claims it again, and the API would then go to the network.
   */
  'kubetab:claim': { request: Record<never, never>; reply: void };
  /**
   * Answers once the server core is ready (what makes /readyz answer 200: the
   * store loaded, the first-start objects in place), or with why it could not
   * start. The page waits on this instead of polling /readyz, which would fill
   * the browser's console and the audit log with the 403s and 500s of a start.
   */
  'kubetab:ready': { request: Record<never, never>; reply: void };
  /** The configuration document in use. */
  'kubetab:configuration:get': { request: Record<never, never>; reply: ConfigurationState };
  /** Validates a document without saving it. */
  'kubetab:configuration:validate': { request: { readonly document: unknown }; reply: ValidationAnswer };
  /**
   * Validates, saves and restarts the server core with the document. Invalid:
   * nothing changes. When the server cannot start with it, the previous
   * document is put back and the start error is answered.
   */
  'kubetab:configuration:save': { request: { readonly document: unknown }; reply: ValidationAnswer & { readonly saved: boolean; readonly state: ConfigurationState } };
  /** Wipes every stored object (a fresh cluster); `configuration: 'default'` also puts the secure default back. */
  'kubetab:cluster:reset': { request: { readonly configuration: 'keep' | 'default' }; reply: ConfigurationState };
  'kubetab:cluster:export': { request: Record<never, never>; reply: ExportedArchive };
  /**
   * Replaces the whole cluster (objects, configuration, clock) with an
   * archive file: the user's File or an exported Blob, read and parsed by the
   * worker (a Blob travels by reference; a parsed archive would be copied
   * object by object). A file that is not JSON or not an archive changes nothing.
   */
  'kubetab:cluster:import': { request: { readonly file: Blob }; reply: ConfigurationState };
  'kubetab:clock:get': { request: Record<never, never>; reply: ClockState };
  /** Moves the server's clock forward (tokens, continue tokens and watch history expire with it). */
  'kubetab:clock:advance': { request: { readonly ms: number }; reply: ClockState };
  /** The configured nodes and which kubelets run (the topology itself is the document's `nodes`). */
  'kubetab:nodes:get': { request: Record<never, never>; reply: NodesState };
  /** Stops a node's kubelet, as powering off its machine: the lease expires, the node-lifecycle controller marks it Unknown. */
  'kubetab:nodes:stop': { request: { readonly name: string }; reply: NodesState };
  /** Starts a stopped node's kubelet again. */
  'kubetab:nodes:start': { request: { readonly name: string }; reply: NodesState };
  /** Runs a command in a container (see ExecRequest); the output flows on the request's session port. */
  'kubetab:pods:exec': { request: ExecRequest; reply: ExecStart };
}

export type MessageType = keyof PageToWorkerMessages;
export type MessageRequest<K extends MessageType> = PageToWorkerMessages[K]['request'];
export type MessageReply<K extends MessageType> = PageToWorkerMessages[K]['reply'];

export type PageToWorkerMessage = {
  [K in MessageType]: { readonly type: K } & MessageRequest<K>;
}[MessageType];

/** What the worker posts back on the message's port. */
export type WorkerReply<T = unknown> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

const PAGE_TO_WORKER_TYPES: ReadonlySet<string> = new Set<MessageType>([
  'kubetab:claim',
  'kubetab:ready',
  'kubetab:configuration:get',
  'kubetab:configuration:validate',
  'kubetab:configuration:save',
  'kubetab:cluster:reset',
  'kubetab:cluster:export',
  'kubetab:cluster:import',
  'kubetab:clock:get',
  'kubetab:clock:advance',
  'kubetab:nodes:get',
  'kubetab:nodes:stop',
  'kubetab:nodes:start',
  'kubetab:pods:exec',
]);

export function isPageToWorkerMessage(data: unknown): data is PageToWorkerMessage {
  return typeof data === 'object' && data !== null && PAGE_TO_WORKER_TYPES.has((data as { type?: unknown }).type as string);
}
