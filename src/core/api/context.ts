// What every handler can reach: the server-wide context (store, clock,
// registry, flags) and the per-request scope (route, query, negotiated output).

import type { Clock } from '../clock';
import type { MvccStore } from '../storage/types';
import type { DecodeCache } from './object-codec';
import type { ResourceRegistry, ServedResource } from './registry';
import type { ResourceRoute } from './route';
import type { OutputFormat } from './media';
import type { FeatureGates } from './feature-gates';

export interface ServerContext {
  readonly store: MvccStore;
  readonly clock: Clock;
  readonly registry: ResourceRegistry;
  readonly decodeCache: DecodeCache;
  readonly flags: Readonly<Record<string, string>>;
  readonly featureGates: FeatureGates;
  readonly host: 'browser' | 'node';
  /** Upper bound for a watch's lifetime, seconds. */
  readonly maxWatchSeconds: number;
  /** History retention (--etcd-compaction-interval), ms. */
  readonly retentionMs: number;
  /** Services strategies may use (allocators, …). */
  readonly services: Record<string, unknown>;
  /** Hooks other subsystems register: after-write listeners for controllers, etc. */
  readonly startedAt: number;
}

export interface RequestScope {
  readonly request: Request;
  readonly url: URL;
  readonly query: URLSearchParams;
  readonly route: ResourceRoute;
  readonly served: ServedResource;
  readonly output: OutputFormat;
  readonly userAgent: string | null;
}
