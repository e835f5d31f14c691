// The Node host: opens the store (in memory, or on disk with --data-dir),
// builds the core around it and serves it over HTTP with the adapter. Used by
// the CLI, the kubectl test and the benchmark alike.

import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { systemClock, type Clock } from '../../core/clock';
import { createApiServer, type ApiServer, type NodeConfig } from '../../core/server';
import { openStore, type OpenedStore } from '../../core/storage/mvcc-store';
import { parseGoDuration } from '../shared/go-duration';
import { startExpiryCompaction } from '../shared/expiry-compaction';
import { createFilePersistence } from './file-persistence';
import { startNodeServer, type TlsOptions } from './http-adapter';
import { attachPeerCertificates, attachRemoteAddress } from '../../core/api/access';
import { createPeerVerifier } from './client-certificates';
import { clientTrustFromFlags } from './tls-flags';
import type { TLSSocket } from 'node:tls';
import { watchConfigFiles, type ConfigWatcherOptions } from './config-file-watcher';
import { auditLogFileFromFlags } from './audit-log-file';
import { nodeAdmissionWebhookFetch } from './admission-webhook-fetch';
import { parseRoute } from '../../core/api/route';
import { queryBool } from '../../core/api/query-bool';
import { compileCorsOrigins, splitCorsFlag, withCors } from './cors';

/** kube-apiserver's default for --etcd-compaction-interval. */
export const DEFAULT_RETENTION_MS = 5 * 60_000;

export interface NodeHostOptions {
  /** 0 picks a free port. */
  readonly port: number;
  readonly host?: string;
  /** Keep the data in this directory across restarts; in memory when absent. */
  readonly dataDir?: string;
  /** kube-apiserver flags by name (no dashes). */
  readonly flags?: Readonly<Record<string, string>>;
  readonly clock?: Clock;
  readonly tls?: TlsOptions;
  readonly maxWatchSeconds?: number;
  /** Reloads of --authorization-config / --authentication-config (log, poll interval, outcome callback). */
  readonly configWatcher?: Omit<ConfigWatcherOptions, 'flags' | 'apiServer'>;
  /** The simulated nodes (default: kind's three; [] for none). */
  readonly nodes?: readonly NodeConfig[];
  /** The cluster CA and its key (the secure default's generated CA): CSRs are signed with it. */
  readonly clusterCA?: { readonly cert: string; readonly key: string };
}

export interface NodeHost {
  readonly url: string;
  readonly port: number;
  readonly apiServer: ApiServer;
  readonly store: OpenedStore;
  close(): Promise<void>;
}

/** History retention from --etcd-compaction-interval ("0" disables compaction in kube-apiserver: keep the default window then). */
export function retentionFromFlags(flags: Readonly<Record<string, string>>): number {
  const text = flags['etcd-compaction-interval'];
  if (text === undefined) return DEFAULT_RETENTION_MS;
  const ms = parseGoDuration(text);
  if (ms < 0) throw new Error(`invalid argument "${text}" for "--etcd-compaction-interval" flag`);
  return ms === 0 ? Number.POSITIVE_INFINITY : ms;
}

/**
 * Waits until the core's /readyz answers 200 (its post-start hooks have run),
 * so that the URL the CLI prints is usable at once. Gives up quietly after
 * `timeoutMs`: the server is then served anyway, as kube-apiserver serves
 * while not ready.
 */
export async function waitUntilReady(apiServer: ApiServer, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await apiServer.handle(new Request('http://127.0.0.1/readyz'));
    await response.arrayBuffer();
    if (response.status === 200) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Whether a request is a watch, by the core's own routing: its response is a
 * stream however short, sent chunked with its headers first (kube's watch
 * server flushes them before any event).
 */
export function isWatchRequest(request: Request): boolean {
  const href = request.url;
  // Most requests never mention it (not even percent-encoded): no routing for them.
  if (!/watch/i.test(href) && !href.includes('%')) return false;
  const url = new URL(href);
  try {
    const route = parseRoute(request.method, url.pathname, url.searchParams);
    return route.kind === 'resource' && route.verb === 'watch';
  } catch {
    // A malformed path: the core answers it with its 400.
    return false;
  }
}

/**
 * Whether a request's response is a stream by nature: a watch, or a followed
 * pod log (kube-apiserver flushes its headers and each chunk the kubelet sends).
 */
export function isStreamedRequest(request: Request): boolean {
  if (isWatchRequest(request)) return true;
  const href = request.url;
  if (!/follow/i.test(href) && !href.includes('%')) return false;
  const url = new URL(href);
  try {
    const route = parseRoute(request.method, url.pathname, url.searchParams);
    return route.kind === 'resource' && route.subresource === 'log' && queryBool(url.searchParams.get('follow')) === true;
  } catch {
    return false;
  }
}

/** The CA as the core asks for it: kept in this closure, read when the signer first needs it. */
function clusterCAOf(pair: { readonly cert: string; readonly key: string }) {
  return async () => ({ certificate: pair.cert, privateKey: pair.key });
}

export async function startNodeHost(options: NodeHostOptions): Promise<NodeHost> {
  const flags = options.flags ?? {};
  const clock = options.clock ?? systemClock();
  const retentionMs = retentionFromFlags(flags);
  // --cors-allowed-origins: checked before anything starts, as kube-apiserver validates its flags.
  const corsOrigins = compileCorsOrigins(splitCorsFlag(flags['cors-allowed-origins']));
  // --etcd-servers: etcd is the store, at kube's keys (src/platform/node/etcd); else memory or --data-dir's files.
  const store: OpenedStore = flags['etcd-servers']
    ? await (await import('./etcd/etcd-flags')).openEtcdStoreFromFlags(flags, clock)
    : await openStore({ persistence: options.dataDir ? await createFilePersistence(options.dataDir) : undefined, clock, retentionMs });
  // --audit-log-path: the events --audit-policy-file selects, as JSON lines.
  const auditLog = auditLogFileFromFlags(flags);
  const apiServer = await createApiServer({
    ...(auditLog ? { auditSink: (event) => auditLog.write(event) } : {}),
    store,
    clock,
    flags,
    host: 'node',
    // On a shared etcd, this server's identity (host name and port) and the live servers' records.
    ...('masterLeases' in store && typeof store.masterLeases === 'function'
      ? { apiServerIdentity: { hostname: hostname(), identity: `${hostname()}:${options.port || process.pid}`, masterLeases: (store as import('./etcd/etcd-store').EtcdStore).masterLeases() } }
      : {}),
    // Files named by flags (--token-auth-file, --authorization-config, …) are read from disk.
    readFile: (path) => readFile(path, 'utf8'),
    // Admission webhooks over https, trusting each configuration's caBundle.
    admissionWebhookFetch: nodeAdmissionWebhookFetch,
    ...(options.maxWatchSeconds !== undefined ? { maxWatchSeconds: options.maxWatchSeconds } : {}),
    ...(options.nodes ? { nodes: options.nodes } : {}),
    ...(options.clusterCA ? { clusterCA: clusterCAOf(options.clusterCA) } : {}),
  });
  await waitUntilReady(apiServer);
  const stopCompaction = startExpiryCompaction(store, retentionMs);
  const configWatcher = watchConfigFiles({ flags, apiServer, ...(options.configWatcher ?? {}) });
  // Client certificates are verified per connection and handed to the core with the request (decision 0180).
  const peerOf = createPeerVerifier(clientTrustFromFlags(flags));
  const server = await startNodeServer({
    handler: withCors((request, incoming) => {
      const peer = peerOf(incoming.socket as TLSSocket);
      if (peer) attachPeerCertificates(request, peer);
      if (incoming.socket.remoteAddress) attachRemoteAddress(request, incoming.socket.remoteAddress);
      return apiServer.handle(request);
    }, corsOrigins),
    streamed: isStreamedRequest,
    port: options.port,
    host: options.host,
    tls: options.tls,
  });
  return {
    url: server.url,
    port: server.port,
    apiServer,
    store,
    async close() {
      configWatcher.stop();
      stopCompaction();
      await server.close();
      await apiServer.close();
      await store.close();
      auditLog?.close();
    },
  };
}
