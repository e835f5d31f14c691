// The API server: one function from a Fetch Request to a Response, built from a
// configuration and a storage backend. Hosts (the service worker, the Node
// HTTP server) only translate to and from this.

import type { Clock } from './clock';
import type { MvccStore } from './storage/types';

export interface ApiServerOptions {
  /** The storage backend (memory, IndexedDB-backed, file-backed). */
  readonly store: MvccStore;
  /** Time source; defaults to the host clock. */
  readonly clock?: Clock;
  /** kube-apiserver flags by their names without the leading dashes, e.g. {'runtime-config': 'batch/v1=false', 'feature-gates': '…'}. */
  readonly flags?: Readonly<Record<string, string>>;
  /**
   * Longest a watch may stay open, in seconds. A browser kills a service
   * worker's response after about 5 minutes, so the worker host passes less
   * than that; under Node kube-apiserver's 30–60 minutes apply.
   */
  readonly maxWatchSeconds?: number;
  /** Where the server is running, for /version and the defaults that differ. */
  readonly host: 'browser' | 'node';
}

export interface ApiServer {
  handle(request: Request): Promise<Response>;
  close(): Promise<void>;
}

export { createApiServer } from './api/create-server';
