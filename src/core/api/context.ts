// What every handler can reach: the server-wide context (store, clock,
// registry, flags) and the per-request scope (route, query, negotiated output).

import type { Clock } from '../clock';
import type { MvccStore } from '../storage/types';
import type { DecodeCache } from './object-codec';
import type { ResourceRegistry, ServedResource } from './registry';
import type { ResourceRoute } from './route';
import type { OutputFormat } from './media';
import type { FeatureGates } from './feature-gates';
import type { UserInfo } from '../auth/types';
import type { AccessControl } from './access/access-control';

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
  /** Authentication, authorization, audit and the RBAC cache (src/core/api/access). */
  readonly access?: AccessControl;
  /**
   * The user of the request being served. Set only on the per-request copy of
   * the context the pipeline hands to handlers (so strategies see it through
   * StrategyContext.user); absent on the server-wide context and when
   * authentication is not configured.
   */
  readonly user?: UserInfo;
}

export interface RequestScope {
  readonly request: Request;
  readonly url: URL;
  readonly query: URLSearchParams;
  readonly route: ResourceRoute;
  readonly served: ServedResource;
  readonly output: OutputFormat;
  readonly userAgent: string | null;
  /** The authenticated (or impersonated) user; absent when authentication is not configured. */
  readonly user?: UserInfo;
}
