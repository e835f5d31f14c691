// startKubeTab: a KubeTab API server inside the calling process (a test
// runner, a script), served over HTTP(S) on a free loopback port for the app
// under test, kubectl and client libraries, with the helpers a test needs.
//
// It is the Node host (src/platform/node) with one difference: the core
// behind the listening socket can be replaced. restore() and reset() stop
// the running core (its controllers, kubelets and watches), give a new one a
// store holding the snapshot's keys (or nothing), and route the next
// requests to it, as an etcd restore under a kube-apiserver restart would:
// open watches end, and a client resuming one from before gets 410 Gone and
// lists again. The revision counter never goes back.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { systemClock } from '../../core/clock';
import { createApiServer, type ApiServer, type FaultInjection, type FaultSpec, type InjectedFault } from '../../core/server';
import { openStore, type OpenedStore } from '../../core/storage/mvcc-store';
import { createMemoryPersistence } from '../../core/storage/memory-persistence';
import type { PersistedChange } from '../../core/storage/types';
import { attachPeerCertificates, attachRemoteAddress } from '../../core/api/access';
import { startExpiryCompaction } from '../../platform/shared/expiry-compaction';
import { isStreamedRequest, retentionFromFlags } from '../../platform/node/node-host';
import { startNodeServer, type RunningNodeServer } from '../../platform/node/http-adapter';
import { createPeerVerifier } from '../../platform/node/client-certificates';
import { clientTrustFromFlags, tlsFromFlags } from '../../platform/node/tls-flags';
import { secureDefaults } from '../../platform/node/secure-defaults';
import { kubeconfigText } from '../../platform/node/kubeconfig';
import { ensureClusterAdminsBinding } from '../../platform/node/admin-certificate';
import { nodeAdmissionWebhookFetch } from '../../platform/node/admission-webhook-fetch';
import { compileCorsOrigins, splitCorsFlag, withCors } from '../../platform/node/cors';
import { readFile } from 'node:fs/promises';
import { KUBETAB_VERSION } from '../version';
import { resolveOptions, type KubeTabOptions, type ResolvedOptions } from './options';
import { TestClient, type ApplyOptions, type KubeObject, type ListQuery, type ObjectRef, type WaitOptions, type WatchEventType } from './test-client';
import { snapshotProblem, takeSnapshot, type KubeTabSnapshot } from './snapshot';

export interface KubeTab {
  /** The server's URL, e.g. https://127.0.0.1:41234 */
  readonly url: string;
  readonly port: number;
  /** A kubeconfig file for kubectl and client libraries (current context: the administrator). */
  readonly kubeconfigPath: string;
  /** The same kubeconfig, as YAML text. */
  readonly kubeconfig: string;
  /** The administrator's bearer token (kubernetes-admin, in system:masters); undefined when open. */
  readonly token: string | undefined;
  /** PEM of the serving certificate, for clients to trust; undefined when open (plain http). */
  readonly ca: string | undefined;
  /** The token of each user of the `users` option, by name. */
  readonly users: Readonly<Record<string, string>>;
  /** Environment for tools a test runs: { KUBECONFIG }. */
  readonly env: Readonly<Record<string, string>>;
  /** Faults for the app's error paths (requests from outside only: the helpers below are never faulted). */
  readonly faults: FaultInjection;
  /** Server-side apply as the test's field manager ("kubetab-test"); YAML (several documents) or objects. */
  apply(input: string | KubeObject | readonly KubeObject[], options?: ApplyOptions): Promise<KubeObject[]>;
  get(ref: ObjectRef): Promise<KubeObject | undefined>;
  /** Without namespace: every namespace. */
  list(query: ListQuery): Promise<KubeObject[]>;
  delete(ref: ObjectRef & { readonly propagationPolicy?: 'Background' | 'Foreground' | 'Orphan' }): Promise<boolean>;
  waitFor(query: ListQuery, predicate: (object: KubeObject, type: WatchEventType) => boolean, options?: WaitOptions): Promise<KubeObject>;
  /** Resolves when the controllers and kubelets have handled everything so far. */
  idle(): Promise<void>;
  /** The whole cluster's state, once it is idle. Plain JSON data. */
  snapshot(): Promise<KubeTabSnapshot>;
  /** Puts the cluster back to a snapshot of this server's version and nodes (faults are kept). */
  restore(snapshot: KubeTabSnapshot): Promise<void>;
  /** A fresh cluster, as just started (faults are kept). */
  reset(): Promise<void>;
  /** Moves the cluster's clock forward (tokens, leases, CronJobs, ages). */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

/** The running core and its store, replaced together. */
interface Generation {
  readonly core: ApiServer;
  readonly store: OpenedStore;
  readonly stopCompaction: () => void;
}

/** Faults outlive a restore: the helpers' object forwards to whichever core runs. */
function forwardingFaults(current: () => ApiServer): FaultInjection {
  return {
    add: (spec: FaultSpec): InjectedFault => current().faults.add(spec),
    list: () => current().faults.list(),
    remove: (id) => current().faults.remove(id),
    clear: () => current().faults.clear(),
  };
}

function tokenFileText(adminToken: string, users: ResolvedOptions['users'], tokens: Record<string, string>): string {
  const quote = (s: string) => (/[,"\s]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const lines = [`${adminToken},kubernetes-admin,kubernetes-admin,system:masters`];
  for (const user of users) {
    const groups = user.groups?.length ? `,"${user.groups.join(',')}"` : '';
    lines.push(`${tokens[user.name]},${quote(user.name)},${quote(user.uid ?? user.name)}${groups}`);
  }
  return `${lines.join('\n')}\n`;
}

export async function startKubeTab(input?: KubeTabOptions): Promise<KubeTab> {
  const options = resolveOptions(input);
  // --cors-allowed-origins is checked before anything starts, as kube-apiserver checks its flags.
  const corsOrigins = compileCorsOrigins(splitCorsFlag(options.flags['cors-allowed-origins']));
  const clock = systemClock();
  const dir = await mkdtemp(join(tmpdir(), 'kubetab-'));
  let flags: Record<string, string> = options.flags;
  let adminToken: string | undefined;
  const userTokens: Record<string, string> = {};
  for (const user of options.users) userTokens[user.name] = user.token ?? randomBytes(24).toString('base64url');
  try {
    if (!options.open || options.users.length) {
      // Static tokens: the administrator's and the users'.
      if (flags['token-auth-file'] === undefined) {
        adminToken = randomBytes(32).toString('base64url');
        const tokenFile = join(dir, 'tokens.csv');
        await writeFile(tokenFile, tokenFileText(adminToken, options.users, userTokens), { mode: 0o600 });
        flags = { ...flags, 'token-auth-file': tokenFile };
      }
    }
    // The secure set-up of the CLI: Node,RBAC, https with a self-signed certificate, the cluster CA.
    const secure = options.open ? undefined : await secureDefaults(flags, { bindAddress: options.host, dataDir: dir });
    if (secure) {
      flags = secure.flags;
      adminToken ??= secure.adminToken;
    }
    if (options.open) adminToken = undefined;
    const clusterCA = secure?.clusterCA;
    const tls = tlsFromFlags(flags);
    const retentionMs = retentionFromFlags(flags);

    const startGeneration = async (changes?: { items: readonly PersistedChange[]; revision: number }): Promise<Generation> => {
      let store: OpenedStore;
      if (changes) {
        const persistence = createMemoryPersistence();
        // Compacted at the top: the snapshot's objects are current values with no history to replay.
        await persistence.replace!(changes.items, { revision: changes.revision, compactedRevision: changes.revision });
        store = await openStore({ persistence, clock, retentionMs });
        // Load now: the start's own reads and writes must not wait for the lazy load's timer.
        await store.compact(store.compactedRevision());
      } else {
        store = await openStore({ clock, retentionMs });
      }
      const core = await createApiServer({
        store,
        clock,
        flags,
        host: 'node',
        readFile: (path) => readFile(path, 'utf8'),
        admissionWebhookFetch: nodeAdmissionWebhookFetch,
        nodes: options.nodes,
        // The cluster CA signs CSRs and is published as kube-root-ca.crt, as under the CLI.
        ...(clusterCA ? { clusterCA: async () => ({ certificate: clusterCA.cert, privateKey: clusterCA.key }) } : {}),
        ...(options.controllers ? { controllers: options.controllers } : {}),
        log: options.log,
      });
      await core.ready();
      if (secure?.adminCertificate) await ensureClusterAdminsBinding(core, 'https://127.0.0.1');
      return { core, store, stopCompaction: startExpiryCompaction(store, retentionMs) };
    };

    let generation = await startGeneration();
    // Requests wait while a restore swaps the core.
    let current: Promise<Generation> = Promise.resolve(generation);
    let closed = false;
    const peerOf = createPeerVerifier(clientTrustFromFlags(flags));
    let server: RunningNodeServer;
    try {
      server = await startNodeServer({
        handler: withCors(async (request, incoming) => {
          const peer = peerOf(incoming.socket as TLSSocket);
          if (peer) attachPeerCertificates(request, peer);
          if (incoming.socket.remoteAddress) attachRemoteAddress(request, incoming.socket.remoteAddress);
          return (await current).core.handle(request);
        }, corsOrigins),
        streamed: isStreamedRequest,
        port: options.port,
        host: options.host,
        tls,
      });
    } catch (error) {
      await generation.core.close();
      throw error;
    }

    const kubeconfigPath = options.kubeconfigPath ?? join(dir, 'kubeconfig');
    const kubeconfig = kubeconfigText({
      server: server.url,
      ...(tls ? { certificateAuthorityData: tls.cert.toString() } : {}),
      ...(adminToken ? { token: adminToken, userName: 'kubernetes-admin' } : {}),
      ...(secure?.adminCertificate ? { certificateUsers: [{ name: 'kubernetes-admin-cert', ...secure.adminCertificate }] } : {}),
    });
    await writeFile(kubeconfigPath, kubeconfig, { mode: 0o600 });

    const client = new TestClient(async () => (await current).core, server.url);
    const nodeNames = options.nodes.map((n) => n.name);
    // Restores, resets and closes run one at a time.
    let queue: Promise<unknown> = Promise.resolve();
    const serially = <T>(run: () => Promise<T>): Promise<T> => {
      const next = queue.then(run);
      queue = next.catch(() => undefined);
      return next;
    };
    const replace = (changes?: { items: readonly PersistedChange[]; revision: number }) =>
      serially(async () => {
        if (closed) throw new Error('KubeTab is closed');
        const old = generation;
        const faults = old.core.faults.list();
        let settle!: (g: Generation) => void;
        let fail!: (e: unknown) => void;
        current = new Promise<Generation>((resolve, reject) => {
          settle = resolve;
          fail = reject;
        });
        current.catch(() => undefined);
        old.stopCompaction();
        await old.core.close();
        // The counter continues above anything the old store handed out.
        const floor = old.store.currentRevision() + 1;
        try {
          generation = await startGeneration(changes ? { items: changes.items, revision: Math.max(floor, changes.revision) } : { items: [], revision: floor });
        } catch (error) {
          fail(error);
          throw error;
        }
        // The faults a test added stay in force across restores.
        for (const fault of faults) generation.core.faults.add(fault.remaining === null ? fault.spec : { ...fault.spec, times: fault.remaining });
        client.invalidate();
        settle(generation);
      });

    const tab: KubeTab = {
      url: server.url,
      port: server.port,
      kubeconfigPath,
      kubeconfig,
      token: adminToken,
      ca: tls ? tls.cert.toString() : undefined,
      users: { ...userTokens },
      env: { KUBECONFIG: kubeconfigPath },
      faults: forwardingFaults(() => generation.core),
      apply: (input, applyOptions) => client.apply(input, applyOptions),
      get: (ref) => client.get(ref),
      list: (query) => client.list(query),
      delete: (ref) => client.delete(ref),
      waitFor: (query, predicate, waitOptions) => client.waitFor(query, predicate, waitOptions),
      idle: async () => (await current).core.idle(),
      async snapshot() {
        const { core, store } = await current;
        await core.idle();
        return takeSnapshot(store, KUBETAB_VERSION, nodeNames, clock.now());
      },
      async restore(snapshot) {
        const problem = snapshotProblem(snapshot, KUBETAB_VERSION, nodeNames);
        if (problem) throw new Error(`restore: ${problem}`);
        const items: PersistedChange[] = [...snapshot.items]
          .sort((a, b) => a.modRevision - b.modRevision)
          .map((kv) => ({ revision: kv.modRevision, type: 'put', key: kv.key, value: kv.value, createRevision: kv.createRevision, version: kv.version, time: clock.now() }));
        await replace({ items, revision: snapshot.revision });
      },
      reset: () => replace(),
      advanceClock: (ms) => clock.advance(ms),
      close: () =>
        serially(async () => {
          if (closed) return;
          closed = true;
          generation.stopCompaction();
          await server.close();
          await generation.core.close();
          await rm(dir, { recursive: true, force: true });
        }),
    };
    return tab;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
