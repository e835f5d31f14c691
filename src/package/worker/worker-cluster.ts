// The cluster of KubeTab's worker for other apps (kubetab-worker.js): which
// requests it answers, and what the page's API messages do. It sits on the
// browser host's ClusterHost (src/platform/browser/cluster-host.ts) — the same
// core life cycle, configuration document, reset, archive and clock as
// KubeTab's own app — and adds what another app's page needs: an API base of
// its choosing, the open switch, a seed for a new cluster, the test helpers
// (src/package/server/test-client.ts) and faults that outlive a restart of the
// core.
//
// Host globals stay out (persistence, settings and the seed marker are
// passed in): vitest runs it with memory ones.

import type { ApiServer } from '../../core/server';
import type { FaultSpec } from '../../core/api/faults/index';
import { parseNodesFlag } from '../../core/kubelet/node/topology-spec';
import type { Persistence } from '../../core/storage/types';
import type { OpenedStore } from '../../core/storage/mvcc-store';
import { ClusterHost, ReplacedError } from '../../platform/browser/cluster-host';
import { isOpen, openConfiguration, secureConfiguration, type ClusterConfiguration } from '../../platform/browser/cluster-config';
import type { ConfigurationState } from '../../platform/browser/messages';
import type { HostSettings } from '../../platform/browser/host-settings';
import { RebasedRequest } from '../../platform/browser/rebased-request';
import { isServerPath } from '../../platform/browser/server-paths';
import { TestClient, objectsOfYaml, type KubeObject } from '../server/test-client';
import { MESSAGE_PREFIX, type PlainObject, type SeedInput, type WorkerAnswer, type WorkerRequests, type WorkerRequestType, type WorkerSettings, type WorkerState } from './protocol';

/** Whether the seed was applied to the cluster in the store (kept beside it, so a stored cluster is seeded once). */
export interface SeedMarker {
  seeded(): Promise<boolean>;
  set(seeded: boolean): Promise<void>;
}

export interface WorkerClusterOptions {
  readonly settings: WorkerSettings;
  readonly persistence: () => Persistence;
  readonly hostSettings: HostSettings;
  readonly seedMarker: SeedMarker;
  readonly version: string;
  readonly maxWatchSeconds: number;
  readonly acquireStoreLock?: () => Promise<() => void>;
  readonly startCompaction?: (store: OpenedStore, retentionMs: number) => () => void;
  readonly log?: (message: string) => void;
}

/** The configuration a new cluster starts with, and what the settings change in a stored one. */
function withSettings(stored: ClusterConfiguration | undefined, settings: WorkerSettings): ClusterConfiguration {
  let document = stored ?? secureConfiguration();
  if (settings.open && !isOpen(document)) document = openConfiguration(document);
  const nodes = parseNodesFlag(settings.nodes);
  if (JSON.stringify(document.nodes) !== JSON.stringify(nodes)) document = { ...document, nodes };
  return document;
}

export class WorkerCluster {
  readonly host: ClusterHost;
  private readonly client: TestClient;

  constructor(private readonly options: WorkerClusterOptions) {
    const { settings } = options;
    // The settings apply to the stored document each time the core starts.
    const hostSettings: HostSettings = {
      ...options.hostSettings,
      configuration: async () => {
        const stored = await options.hostSettings.configuration();
        const document = withSettings(stored, settings);
        if (JSON.stringify(document) !== JSON.stringify(stored)) await options.hostSettings.saveConfiguration(document);
        return document;
      },
    };
    this.host = new ClusterHost({
      persistence: options.persistence,
      settings: hostSettings,
      maxWatchSeconds: options.maxWatchSeconds,
      ...(settings.controllers ? { controllers: settings.controllers } : {}),
      ...(options.acquireStoreLock ? { acquireStoreLock: options.acquireStoreLock } : {}),
      ...(options.startCompaction ? { startCompaction: options.startCompaction } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    this.client = new TestClient(() => this.readyCore(), 'http://kubetab.local');
  }

  /**
   * The server path of a same-origin request the worker answers ('/k8s/api/v1/pods' → '/api/v1/pods'
   * under the API base '/k8s'), or undefined for a request that goes to the network untouched.
   */
  serverPathOf(url: URL): string | undefined {
    const base = this.options.settings.apiBase;
    let path = url.pathname;
    if (base) {
      if (path !== base && !path.startsWith(`${base}/`)) return undefined;
      path = path.slice(base.length) || '/';
    }
    return isServerPath(path) ? path : undefined;
  }

  /** Answers a request under the API base with the core (the page's view: base removed). */
  async handle(request: Request, url: URL, path: string): Promise<Response> {
    try {
      return await this.host.handle(new RebasedRequest(request, url.origin + path + url.search));
    } catch (error) {
      if (error instanceof ReplacedError) return statusResponse(503, 'ServiceUnavailable', error.message, { 'retry-after': '1' });
      return statusResponse(500, 'InternalError', `Internal error occurred: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Carries out one of the page's messages; unknown ones are undefined (not ours). */
  async carryOut(data: unknown): Promise<WorkerAnswer | undefined> {
    if (!data || typeof data !== 'object' || typeof (data as { type?: unknown }).type !== 'string') return undefined;
    const type = (data as { type: string }).type;
    if (!type.startsWith(MESSAGE_PREFIX)) return undefined;
    try {
      return { ok: true, value: await this.run(type.slice(MESSAGE_PREFIX.length) as WorkerRequestType, data as never) };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error), ...(error instanceof Error ? { name: error.name } : {}) };
    }
  }

  private async run<T extends WorkerRequestType>(type: T, message: WorkerRequests[T]['request']): Promise<unknown> {
    const m = message as Record<string, unknown>;
    switch (type) {
      case 'start':
        return this.start(m.seed as SeedInput | undefined);
      case 'reset': {
        // Checked first: a bad seed leaves the cluster as it was.
        if (m.seed !== undefined) toObjects(m.seed as SeedInput);
        await this.restarting(async () => {
          await this.host.reset('keep');
          await this.options.seedMarker.set(false);
        });
        return this.start(m.seed as SeedInput | undefined);
      }
      case 'open': {
        const state = await this.host.configurationState();
        if (!state.open) await this.restarting(() => this.host.save(openConfiguration(state.document)));
        return this.state(false);
      }
      case 'apply':
        return this.client.apply(toObjects(m.objects as SeedInput), { ...(m.fieldManager !== undefined ? { fieldManager: m.fieldManager as string } : {}), ...(m.force !== undefined ? { force: m.force as boolean } : {}) });
      case 'get':
        return (await this.client.get(m.ref as never)) ?? null;
      case 'list':
        return this.client.list(m.query as never);
      case 'delete':
        return this.client.delete(m.ref as never);
      case 'snapshot':
        return (await this.host.exportArchive()).file;
      case 'restore':
        if (!(m.file instanceof Blob)) throw new Error('restore takes what snapshot() returned');
        await this.restarting(() => this.host.importArchive(m.file as Blob));
        return this.state(false);
      case 'advanceClock':
        return this.host.advanceClock(m.ms as number);
      case 'faults:add':
        return (await this.readyCore()).faults.add(m.spec as FaultSpec);
      case 'faults:list':
        return (await this.readyCore()).faults.list();
      case 'faults:remove':
        return (await this.readyCore()).faults.remove(m.id as string);
      case 'faults:clear':
        (await this.readyCore()).faults.clear();
        return null;
    }
    throw new Error(`unknown message ${JSON.stringify(`${MESSAGE_PREFIX}${String(type)}`)}`);
  }

  private async start(seed: SeedInput | undefined): Promise<WorkerState> {
    // Checked before the cluster is touched: a bad seed is the page's error, not a half-seeded cluster.
    const objects = seed === undefined ? [] : toObjects(seed);
    await this.readyCore();
    const created = !(await this.options.seedMarker.seeded());
    if (created) {
      if (objects.length) await this.client.apply(objects, { fieldManager: 'kubetab-seed' });
      await this.options.seedMarker.set(true);
    }
    return this.state(created);
  }

  private async state(created: boolean): Promise<WorkerState> {
    const state: ConfigurationState = await this.host.configurationState();
    if (state.startError !== undefined) throw new Error(`the cluster cannot start: ${state.startError}`);
    return {
      version: this.options.version,
      apiBase: this.options.settings.apiBase,
      open: state.open,
      ...(state.administrator && !state.open ? { token: state.administrator.token } : {}),
      created,
    };
  }

  /** The core once ready (/readyz), started if need be. */
  private async readyCore(): Promise<ApiServer> {
    await this.host.ready();
    return this.host.server();
  }

  /** Runs an operation that restarts the core, keeping the page's faults in force across it (ids change, as under Node). */
  private async restarting<T>(operation: () => Promise<T>): Promise<T> {
    const faults = (await this.host.server().catch(() => undefined))?.faults.list() ?? [];
    const result = await operation();
    this.client.invalidate();
    const core = await this.host.server();
    for (const fault of faults) core.faults.add(fault.remaining === null ? fault.spec : { ...fault.spec, times: fault.remaining });
    return result;
  }
}

function toObjects(input: SeedInput): KubeObject[] {
  if (typeof input === 'string') return objectsOfYaml(input);
  if (input && typeof input === 'object' && !Array.isArray(input)) input = [input as unknown as PlainObject];
  if (!Array.isArray(input)) throw new Error('seed and apply take YAML text, an object or a list of objects');
  for (const [i, object] of input.entries()) {
    if (!object || typeof object !== 'object' || typeof object.apiVersion !== 'string' || typeof object.kind !== 'string' || typeof object.metadata?.name !== 'string') {
      throw new Error(`objects[${i}] needs apiVersion, kind and metadata.name`);
    }
  }
  return input as KubeObject[];
}

function statusResponse(code: number, reason: string, message: string, headers: Record<string, string> = {}): Response {
  const body = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code, ...(code === 503 ? { details: { retryAfterSeconds: 1 } } : {}) };
  return new Response(JSON.stringify(body), { status: code, headers: { 'content-type': 'application/json', ...headers } });
}
