// The browser host's cluster: one server core at a time, started from the
// stored configuration document, and what a real cluster's operator does
// outside the API — change the flags (restart with a new document), wipe the
// data, back it up and restore it, power the simulated nodes off and on,
// and (KubeTab's teaching aid) move the clock forward. Every such operation
// runs one after another, and requests that arrive during a restart wait for
// the new core.
//
// The nodes' kubelets run inside the core, in this worker. A browser stops an
// idle worker: the kubelets stop with it and, when the next event starts it
// again, resume their pods from the API's state (the node-lifecycle
// controller gives every node a full grace period from its own start).
//
// Globals stay out: the service worker (service-worker.ts) passes the
// IndexedDB persistence, the settings database and the single-writer lock;
// tests pass memory ones.

import { systemClock, type Clock } from '../../core/clock';
import { createApiServer, type ApiServer } from '../../core/server';
import { parseGoDuration } from '../../core/auth';
import { openStore, type OpenedStore } from '../../core/storage/mvcc-store';
import type { KeyValue, Persistence } from '../../core/storage/types';
import { archiveFile, exportCluster, importCluster, primedPersistence, readArchiveFile, wipeCluster } from './cluster-archive';
import { administratorOf, isOpen, nodesOf, secureConfiguration, toServerInput, type ClusterConfiguration } from './cluster-config';
import { validateConfiguration } from './cluster-config-validation';
import { validateTopology } from '../../core/kubelet/node/topology-spec';
import { runExec, type ExecOutcome } from './exec-session';
import type { HostSettings } from './host-settings';
import type { ClockState, ClusterArchive, ConfigurationState, ExecRequest, ExportedArchive, MessageReply, NodesState, ValidationAnswer } from './messages';

/** kube-apiserver's default --etcd-compaction-interval. */
const DEFAULT_RETENTION_MS = 5 * 60_000;
/** The clock moves forward by at most a year at a time. */
const MAX_ADVANCE_MS = 366 * 24 * 3_600_000;

export interface ClusterHostOptions {
  /** A persistence for the cluster's objects (a new connection each call is fine). */
  readonly persistence: () => Persistence;
  readonly settings: HostSettings;
  /** Waits until this host may write the store (one writer per database); resolves with the release. */
  readonly acquireStoreLock?: () => Promise<() => void>;
  readonly maxWatchSeconds: number;
  /** Controllers to run (kube-controller-manager's syntax); default all. */
  readonly controllers?: readonly string[];
  /** Runs the store's periodic compaction; returns its stop. */
  readonly startCompaction?: (store: OpenedStore, retentionMs: number) => () => void;
  readonly log?: (message: string) => void;
  /** The cluster's clock from the stored offset (default: the host's clock plus the offset; tests pass a manual one). */
  readonly clock?: (offsetMs: number) => Clock;
}

/** Who the host acts as when it removes the Node of a machine taken out of the topology (an operator's `kubectl delete node`). */
const OPERATOR = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };

interface Running {
  readonly core: ApiServer;
  readonly store: OpenedStore;
  stop(): Promise<void>;
}

/** This host stepped aside for a newer version of the worker; the request should be sent again shortly. */
export class ReplacedError extends Error {
  constructor() {
    super('the server is being replaced by a newer version; send the request again');
    this.name = 'ReplacedError';
  }
}

export class ClusterHost {
  private clock: Clock | undefined;
  private document: ClusterConfiguration | undefined;
  private loading: Promise<void> | undefined;
  private running: Promise<Running> | undefined;
  private startError: string | undefined;
  private retired = false;
  /** Life-cycle operations, one after another. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The values an import just wrote, for the start that follows it (primedPersistence). */
  private afterImport: KeyValue[] | undefined;
  /** The nodes the user stopped (kept in the settings). */
  private stopped: string[] | undefined;

  constructor(private readonly options: ClusterHostOptions) {}

  /** The core, started if it is not running (a failed start is tried again by the next call). */
  server(): Promise<ApiServer> {
    this.running ??= this.start().catch((err: unknown) => {
      this.running = undefined;
      throw err;
    });
    return this.running.then((r) => r.core);
  }

  async handle(request: Request): Promise<Response> {
    // A request arriving during a restart waits for the restart's end.
    await this.queue;
    return (await this.server()).handle(request);
  }

  /** Resolves once the core (started if need be) is ready, as /readyz would say; rejects with why it could not start. */
  async ready(): Promise<void> {
    await this.queue;
    await (await this.server()).ready();
  }

  /** Stops the core; the next request starts it again. */
  shutdown(): Promise<void> {
    return this.serially(() => this.stopRunning());
  }

  /**
   * Stops the core for good: a newer worker is taking the store over. Its open
   * watches end with it (a browser activates the new worker only once the old
   * one's requests are done), and new requests are refused with 503.
   */
  retire(): Promise<void> {
    this.retired = true;
    return this.shutdown();
  }

  async configurationState(): Promise<ConfigurationState> {
    await this.queue;
    const document = await this.loadDocument();
    // Start (or try to) so that a start error is known.
    await this.server().catch(() => undefined);
    return this.stateOf(document);
  }

  validate(document: unknown): Promise<ValidationAnswer> {
    return validateConfiguration(document);
  }

  /** Validates, saves and restarts; puts the previous document back when the server cannot start with the new one. */
  save(input: unknown): Promise<MessageReply<'kubetab:configuration:save'>> {
    return this.serially(async () => {
      const validation = await validateConfiguration(input);
      const previous = await this.loadDocument();
      if (!validation.valid) return { ...validation, saved: false, state: this.stateOf(previous) };
      const document = structuredClone(input) as ClusterConfiguration;
      const removed = nodeNames(previous).filter((name) => !nodeNames(document).includes(name));
      await this.saveStopped((await this.stoppedNodes()).filter((name) => nodeNames(document).includes(name)));
      await this.restartWith(document);
      if (this.startError === undefined) {
        await this.deleteNodes(removed);
        return { ...validation, saved: true, state: this.stateOf(document) };
      }
      const problem = { field: '', message: this.startError };
      await this.restartWith(previous);
      return { valid: false, problems: [problem], warnings: [], saved: false, state: this.stateOf(previous) };
    });
  }

  /** Wipes the objects (a fresh cluster bootstraps again); 'default' also restores the secure configuration. */
  reset(configuration: 'keep' | 'default'): Promise<ConfigurationState> {
    return this.serially(async () => {
      await this.stopRunning();
      const persistence = this.options.persistence();
      try {
        await wipeCluster(persistence, (await this.clockNow()).now());
      } finally {
        await persistence.close();
      }
      const document = configuration === 'default' ? secureConfiguration() : await this.loadDocument();
      // A fresh cluster: every machine powered on.
      await this.saveStopped([]);
      await this.restartWith(document);
      return this.stateOf(document);
    });
  }

  /** The whole cluster as a JSON file (see ExportedArchive). */
  exportArchive(): Promise<ExportedArchive> {
    return this.serially(async () => {
      const clock = await this.clockNow();
      const persistence = this.options.persistence();
      let archive: ClusterArchive;
      try {
        archive = await exportCluster(persistence, { configuration: await this.loadDocument(), clockOffsetMs: clock.offset(), now: clock.now() });
      } finally {
        await persistence.close();
      }
      return { file: archiveFile(archive), keys: archive.items.length, revision: archive.revision, exportedAt: archive.exportedAt };
    });
  }

  /**
   * Replaces the cluster with an archive file (the user's File, or an
   * exported Blob). The file is read, parsed and checked, its configuration
   * validated, before anything stops or changes: a bad file is an error and
   * the cluster goes on as it was. That happens outside the queue of
   * life-cycle operations: the file's read need not wait for one still
   * running (a reset whose cluster is bootstrapping).
   */
  importArchive(file: Blob): Promise<ConfigurationState> {
    const checked = (async () => {
      try {
        const archive = await readArchiveFile(file);
        const validation = await validateConfiguration(archive.configuration);
        if (!validation.valid) throw new Error(`the archive's configuration is not valid: ${validation.problems.map((p) => p.message).join('; ')}`);
        return archive;
      } catch (err) {
        throw new Error(`cannot import: ${err instanceof Error ? err.message : String(err)}`);
      }
    })();
    // Not an unhandled rejection while it waits for the queue: the operation below awaits (and rethrows) it.
    checked.catch(() => undefined);
    return this.serially(async () => {
      const archive = await checked;
      const clock = await this.clockNow();
      await this.stopRunning();
      // The clock never goes back: it takes the archive's offset only when that is ahead.
      if (archive.clockOffsetMs > clock.offset()) {
        clock.advance(archive.clockOffsetMs - clock.offset());
        await this.options.settings.saveClockOffset(clock.offset());
      }
      const persistence = this.options.persistence();
      try {
        // The next start loads the store from what was just written, not from IndexedDB again.
        this.afterImport = await importCluster(persistence, archive, clock.now());
      } finally {
        await persistence.close();
      }
      await this.saveStopped([]);
      await this.restartWith(structuredClone(archive.configuration));
      return this.stateOf(archive.configuration);
    });
  }

  async clockState(): Promise<ClockState> {
    const clock = await this.clockNow();
    return { now: clock.now(), offsetMs: clock.offset() };
  }

  async advanceClock(ms: number): Promise<ClockState> {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > MAX_ADVANCE_MS) {
      throw new Error(`the clock moves forward by 0 to ${MAX_ADVANCE_MS} ms at a time, not ${String(ms)}`);
    }
    const clock = await this.clockNow();
    clock.advance(ms);
    await this.options.settings.saveClockOffset(clock.offset());
    // History past the window goes now, not at the next timer tick (watches from before it get 410).
    const running = await this.running?.catch(() => undefined);
    await running?.store.compactExpired().catch(() => undefined);
    return { now: clock.now(), offsetMs: clock.offset() };
  }

  /** The configured nodes and which kubelets run. */
  async nodesState(): Promise<NodesState> {
    await this.queue;
    return this.currentNodes();
  }

  /** Stops a node's kubelet (and remembers it stopped across restarts). */
  stopNode(name: string): Promise<NodesState> {
    return this.serially(async () => {
      const core = await this.server();
      if (!core.nodes.configured.some((n) => n.name === name)) throw new Error(`no node named ${JSON.stringify(name)} in this cluster`);
      // The kubelets start once the cluster has bootstrapped: switch this one after that.
      await core.idle();
      await this.saveStopped([...new Set([...(await this.stoppedNodes()), name])]);
      await core.nodes.stopNode(name);
      return this.currentNodes();
    });
  }

  /** Starts a stopped node's kubelet again. */
  startNode(name: string): Promise<NodesState> {
    return this.serially(async () => {
      const core = await this.server();
      if (!core.nodes.configured.some((n) => n.name === name)) throw new Error(`no node named ${JSON.stringify(name)} in this cluster`);
      // The kubelets start once the cluster has bootstrapped: switch this one after that.
      await core.idle();
      await this.saveStopped((await this.stoppedNodes()).filter((n) => n !== name));
      core.nodes.startNode(name);
      return this.currentNodes();
    });
  }

  /**
   * Runs an exec from the page (exec-session.ts): kubectl's request through
   * the core, as the identity of the headers given; `finished` settles when
   * the session is over.
   */
  exec(origin: string, input: ExecRequest): Promise<ExecOutcome> {
    return runExec(origin, input, (request) => this.handle(request));
  }

  private async currentNodes(): Promise<NodesState> {
    const core = await this.server().catch(() => undefined);
    const configured = core?.nodes.configured ?? nodesOf(await this.loadDocument());
    const running = new Set(core?.nodes.running() ?? []);
    const stopped = new Set(await this.stoppedNodes());
    return { nodes: configured.map((config) => ({ config, stopped: stopped.has(config.name), running: running.has(config.name) })) };
  }

  private async stoppedNodes(): Promise<string[]> {
    this.stopped ??= await this.options.settings.stoppedNodes();
    return this.stopped;
  }

  private async saveStopped(names: string[]): Promise<void> {
    await this.options.settings.saveStoppedNodes(names);
    this.stopped = names;
  }

  /** The Node objects of machines taken out of the topology go, as an operator deletes them; their pods are then the pod GC's. */
  private async deleteNodes(names: readonly string[]): Promise<void> {
    if (!names.length) return;
    const core = await this.server().catch(() => undefined);
    if (!core) return;
    for (const name of names) {
      const response = await core.handleAs(new Request(`http://kubetab.local/api/v1/nodes/${name}`, { method: 'DELETE' }), OPERATOR).catch(() => undefined);
      if (response && response.status !== 200 && response.status !== 404) this.options.log?.(`removing node ${name}: HTTP ${response.status} ${await response.text()}`);
    }
  }

  private serially<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.queue.then(operation);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async clockNow(): Promise<Clock> {
    const offset = await this.options.settings.clockOffset();
    this.clock ??= this.options.clock ? this.options.clock(offset) : systemClock(offset);
    return this.clock;
  }

  private loadDocument(): Promise<ClusterConfiguration> {
    // One load for all callers: two would each make a default with its own administrator token.
    this.loading ??= (async () => {
      let document = await this.options.settings.configuration();
      if (!document) {
        // A new cluster: the secure default, with its own administrator token.
        document = secureConfiguration();
        await this.options.settings.saveConfiguration(document);
      }
      this.document ??= document;
    })().catch((err: unknown) => {
      this.loading = undefined;
      throw err;
    });
    return this.loading.then(() => this.document!);
  }

  private stateOf(document: ClusterConfiguration): ConfigurationState {
    const admin = administratorOf(document);
    return {
      document,
      ...(admin ? { administrator: { user: admin.user, token: admin.token } } : {}),
      open: isOpen(document),
      ...(this.startError !== undefined ? { startError: this.startError } : {}),
    };
  }

  private async restartWith(document: ClusterConfiguration): Promise<void> {
    await this.stopRunning();
    await this.options.settings.saveConfiguration(document);
    this.document = document;
    await this.server().catch(() => undefined);
  }

  private async stopRunning(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    const r = await running?.catch(() => undefined);
    await r?.stop();
  }

  private async start(): Promise<Running> {
    if (this.retired) throw new ReplacedError();
    // The settings reads and the store's lock do not depend on each other: a
    // cold start waits for the slowest of them, not for their sum.
    const persistence = this.options.persistence();
    const [clockResult, documentResult, lockResult, stoppedResult] = await Promise.allSettled([
      this.clockNow(),
      this.loadDocument(),
      this.options.acquireStoreLock?.() ?? Promise.resolve(() => {}),
      this.stoppedNodes(),
      // Connecting reads nothing, so it need not wait for the lock; open() below reads once it is held.
      persistence.connect?.().catch(() => undefined),
    ]);
    const release = lockResult.status === 'fulfilled' ? lockResult.value : () => {};
    let clock: Clock;
    let flags: Record<string, string>;
    let files: Record<string, string>;
    let retentionMs: number;
    let document: ClusterConfiguration;
    try {
      for (const result of [clockResult, documentResult, lockResult, stoppedResult]) if (result.status === 'rejected') throw result.reason;
      clock = (clockResult as PromiseFulfilledResult<Clock>).value;
      document = (documentResult as PromiseFulfilledResult<ClusterConfiguration>).value;
      ({ flags, files } = toServerInput(document));
      retentionMs = (flags['etcd-compaction-interval'] && parseGoDuration(flags['etcd-compaction-interval'])) || DEFAULT_RETENTION_MS;
    } catch (err) {
      // Not a start error of the configuration: the settings or the lock could not be had.
      release();
      await persistence.close().catch(() => undefined);
      throw err;
    }
    let store: OpenedStore | undefined;
    try {
      const imported = this.afterImport;
      this.afterImport = undefined;
      store = await openStore({ persistence: imported ? primedPersistence(persistence, imported) : persistence, clock, retentionMs });
      const core = await createApiServer({
        store,
        clock,
        host: 'browser',
        maxWatchSeconds: this.options.maxWatchSeconds,
        flags,
        readFile: async (path) => {
          const text = files[path];
          if (text === undefined) throw new Error('no such file or directory');
          return text;
        },
        ...(this.options.controllers ? { controllers: this.options.controllers } : {}),
        ...(this.options.log ? { log: this.options.log } : {}),
        // Absent from the document: the core's default (kind's three nodes when controllers run).
        ...(document.nodes ? { nodes: validateTopology(document.nodes) } : {}),
        stoppedNodes: (stoppedResult as PromiseFulfilledResult<string[]>).value,
      });
      this.startError = undefined;
      const opened = store;
      // History past the window is dropped on start (the worker may have slept long) and then
      // periodically; once the store has loaded, which the first request does not wait for.
      opened
        .ready()
        .then(() => opened.compactExpired())
        .catch((error: unknown) => console.warn('compaction failed', error));
      const stopCompaction = this.options.startCompaction?.(opened, retentionMs) ?? (() => {});
      return {
        core,
        store: opened,
        async stop() {
          stopCompaction();
          try {
            await core.close();
          } finally {
            release();
          }
        },
      };
    } catch (err) {
      this.startError = err instanceof Error ? err.message : String(err);
      // The store closes its persistence; without a store, the connection is closed here.
      await (store ? store.close() : persistence.close()).catch(() => undefined);
      release();
      throw err;
    }
  }
}

function nodeNames(document: ClusterConfiguration): string[] {
  return nodesOf(document).map((n) => n.name);
}
