// One pod's life on its node, as the kubelet's pod worker drives it. Each
// sync looks at the pod and its containers and takes the next steps: mount
// the volumes (or wait: FailedMount), set up the sandbox (the pod's IP),
// run the init containers one after another (sidecars stay running), start
// the containers (image pull, config, create, start), restart those that
// exited as restartPolicy says with the kubelet's back-off, and write the
// status when it changed. A deleted pod is stopped gracefully (preStop,
// SIGTERM, SIGKILL at the end of its grace period) and then removed with
// grace 0. Syncs of one pod never overlap; anything that changes (a
// process exit, a finished pull, a probe result, a back-off's end, an
// update from the API) asks for another.

import type { KubeObject } from '../../kinds/types';
import { arr, rec, str } from '../../kinds/builtin/common/table';
import { errorMessage, isConflict, isNotFound } from '../../controllers/client/api-error';
import type { GroupVersionResource } from '../../controllers/client/resource-path';
import type { TimerHandle } from '../../util/clock-timers';
import { goDuration } from '../images/go-duration';
import { MountError, setUpVolumes } from '../volumes/volume-builder';
import type { VolumeFiles } from '../volumes/volume-files';
import { isRunning, newRecord, type ContainerRecord, type Instance, type Terminated } from './container-record';
import { initDone, podPhase, podStatus } from './pod-status';
import type { WorkerContext } from './worker-context';
import type { PodFacts } from './downward-api';
import { ContainerStarter } from './container-starter';
import { ProbeWorker, type ProbeKind } from './probe-worker';
import { runProbe } from './probes';
import { restoreRecords } from './resume';

export const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };

/** The kubelet waits this long for a pod's volumes before it reports them (podAttachAndMountTimeout). */
const MOUNT_TIMEOUT_MS = 123_000;
/** How often a waiting mount (an unbound claim) is looked at again. */
const MOUNT_RETRY_MS = 5_000;
/** kubelet's minimum grace for killing containers. */
const MIN_GRACE_S = 2;
/** The kubelet's periodic resync of a running pod (volume content follows its sources). */
const RESYNC_MS = 60_000;

export class PodWorker {
  pod: KubeObject;
  readonly uid: string;
  readonly init: ContainerRecord[] = [];
  readonly main: ContainerRecord[] = [];
  podIP: string | undefined;
  startTime: number | undefined;
  sandboxReady = false;
  /** Reached Succeeded/Failed: the containers are done and the sandbox is gone. */
  finished = false;
  /** Stopping the sidecars of a pod whose containers are done. */
  private finishing = false;
  terminating = false;
  /** Every container has stopped after a deletion. */
  private stoppedAll = false;
  gone = false;
  volumes = new Map<string, VolumeFiles>();
  private mountWaitSince: number | undefined;
  private mountReported = 0;
  private syncing = false;
  private dirty = false;
  private lastWritten: string | undefined;
  private readonly wakeups = new Set<TimerHandle>();
  private readonly probes = new Map<ContainerRecord, ProbeWorker[]>();
  readonly starter: ContainerStarter;
  private resynced = 0;

  constructor(
    readonly ctx: WorkerContext,
    pod: KubeObject,
  ) {
    this.pod = pod;
    this.uid = pod.metadata?.uid ?? '';
    const spec = rec(pod.spec);
    for (const c of arr(spec.initContainers).map(rec)) this.init.push(newRecord(str(c.name), c.restartPolicy === 'Always' ? 'sidecar' : 'init', c));
    for (const c of arr(spec.containers).map(rec)) this.main.push(newRecord(str(c.name), 'main', c));
    this.starter = new ContainerStarter(this);
    this.replay = restoreRecords(this);
  }

  /** Containers that were running before the kubelet restarted, to replay once the volumes are back. */
  private replay: { record: ContainerRecord; id: string; startedAt: number }[];

  get namespace(): string {
    return this.pod.metadata?.namespace ?? 'default';
  }

  get name(): string {
    return this.pod.metadata?.name ?? '';
  }

  /** name_namespace(uid), as kubelet's format.Pod prints a pod. */
  get podDescription(): string {
    return `${this.name}_${this.namespace}(${this.uid})`;
  }

  get restartPolicy(): string {
    return str(rec(this.pod.spec).restartPolicy) || 'Always';
  }

  get hostNetwork(): boolean {
    return rec(this.pod.spec).hostNetwork === true;
  }

  facts(): PodFacts {
    const ip = this.podIP ?? '';
    return { podIP: ip, podIPs: ip ? [ip] : [], hostIP: this.ctx.nodeIP, nodeAllocatable: this.ctx.allocatable };
  }

  fieldPath(r: ContainerRecord): string {
    return r.kind === 'main' ? `spec.containers{${r.name}}` : `spec.initContainers{${r.name}}`;
  }

  event(type: 'Normal' | 'Warning', reason: string, message: string, r?: ContainerRecord): void {
    this.ctx.recorder.emit(this.pod, { type, reason, message, ...(r ? { fieldPath: this.fieldPath(r) } : {}) });
  }

  records(): ContainerRecord[] {
    return [...this.init, ...this.main];
  }

  record(name: string): ContainerRecord | undefined {
    return this.main.find((r) => r.name === name) ?? this.init.find((r) => r.name === name);
  }

  /** A newer version of the pod from the API. */
  update(pod: KubeObject): void {
    if (this.gone) return;
    this.pod = pod;
    // Container images may change (the only mutable part of a container).
    const specs = [...arr(rec(pod.spec).initContainers), ...arr(rec(pod.spec).containers)].map(rec);
    for (const r of this.records()) {
      const s = specs.find((c) => c.name === r.name);
      if (s) r.spec = s;
    }
    this.kick();
  }

  /** Asks for a sync (now, or after the running one). */
  kick(): void {
    if (this.gone) return;
    if (this.syncing) {
      this.dirty = true;
      return;
    }
    this.syncing = true;
    const end = this.ctx.activity.begin();
    void (async () => {
      try {
        do {
          this.dirty = false;
          try {
            await this.sync();
          } catch (err) {
            this.ctx.log(`pod ${this.namespace}/${this.name}: sync failed: ${errorMessage(err)}`);
            this.wakeAfter(1000);
          }
        } while (this.dirty && !this.gone);
      } finally {
        this.syncing = false;
        end();
      }
    })();
  }

  /** Another sync at `at` on the Clock. */
  wakeAt(at: number): void {
    if (this.gone) return;
    const handle = this.ctx.timers.at(at, () => {
      this.wakeups.delete(handle);
      this.kick();
    });
    this.wakeups.add(handle);
  }

  wakeAfter(ms: number): void {
    this.wakeAt(this.ctx.clock.now() + ms);
  }

  private async sync(): Promise<void> {
    if (this.gone) return;
    const pod = this.pod;
    if (pod.metadata?.deletionTimestamp) return this.terminate();
    if (this.finished || this.finishing) return this.writeStatus();
    const now = this.ctx.clock.now();
    this.startTime ??= now;
    // Volumes.
    const mounted = await this.mountVolumes(now);
    if (!mounted) return this.writeStatus();
    // Sandbox: the pod's network.
    if (!this.sandboxReady) {
      const ip = this.hostNetwork ? this.ctx.nodeIP : (this.podIP ?? this.ctx.ips.allocate(this.uid));
      if (!ip) {
        this.event('Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox: plugin type="ptp" failed (add): failed to allocate for range 0: no IP addresses available in range set: ${this.ctx.ips.gateway}-`);
        this.wakeAfter(10_000);
        return this.writeStatus();
      }
      this.podIP = ip;
      this.sandboxReady = true;
    }
    for (const { record, id, startedAt } of this.replay.splice(0)) this.starter.start(record, { id, startedAt });
    // Init containers, in order.
    let initialized = true;
    for (const r of this.init) {
      if (r.kind === 'sidecar') {
        if (isRunning(r)) {
          if (!r.started) {
            initialized = false;
            break;
          }
          continue;
        }
        if (!r.starting) this.startOrBackoff(r);
        initialized = false;
        break;
      }
      if (initDone(r) && !r.waiting) continue;
      if (isRunning(r) || r.starting) {
        initialized = false;
        break;
      }
      const t = r.current?.terminated;
      if (t && t.exitCode !== 0) {
        if (this.restartPolicy === 'Never') {
          initialized = false;
          break;
        }
        this.startOrBackoff(r);
      } else if (!r.current) this.startOrBackoff(r);
      initialized = false;
      break;
    }
    if (initialized) {
      for (const r of this.main) {
        if (isRunning(r) || r.starting) continue;
        if (!r.current) {
          this.startOrBackoff(r);
          continue;
        }
        const t = r.current.terminated!;
        if (this.shouldRestart(r, t)) this.startOrBackoff(r);
      }
    } else {
      for (const r of this.main) if (!r.current && !r.starting) r.waiting = { reason: 'PodInitializing' };
    }
    // The pod has ended when no container will run again: sidecars stop, the sandbox goes.
    const phase = podPhase(this.init, this.main, this.restartPolicy, false);
    if (phase === 'Succeeded' || phase === 'Failed') this.finish();
    else if (now - this.resynced >= RESYNC_MS) {
      this.resynced = now;
      this.wakeAfter(RESYNC_MS);
    }
    await this.writeStatus();
  }

  private shouldRestart(r: ContainerRecord, t: Terminated): boolean {
    if (this.terminating || this.finished || this.finishing) return false;
    if (r.kind === 'sidecar') return true;
    if (r.kind === 'init') return t.exitCode !== 0 && this.restartPolicy !== 'Never';
    if (this.restartPolicy === 'Always') return true;
    if (this.restartPolicy === 'OnFailure') return t.exitCode !== 0;
    return false;
  }

  /** Restarts an exited container, or waits out its back-off (CrashLoopBackOff). */
  private startOrBackoff(r: ContainerRecord): void {
    if (r.retryAt !== undefined && this.ctx.clock.now() < r.retryAt) return;
    const t = r.current?.terminated;
    if (!t) {
      if (!r.starting) this.starter.start(r);
      return;
    }
    const key = `${this.uid}/${r.name}`;
    const now = this.ctx.clock.now();
    const inBackoff = this.ctx.restartBackoff.inBackoffSince(key, t.finishedAt, now);
    if (inBackoff) {
      const firstTime = r.restartAt !== inBackoff.untilMs;
      r.waiting = { reason: 'CrashLoopBackOff', message: `back-off ${goDuration(inBackoff.backoffMs)} restarting failed container=${r.name} pod=${this.podDescription}` };
      if (firstTime) {
        r.restartAt = inBackoff.untilMs;
        this.event('Warning', 'BackOff', `Back-off restarting failed container ${r.name} in pod ${this.podDescription}`, r);
        this.wakeAt(inBackoff.untilMs);
      }
      return;
    }
    this.ctx.restartBackoff.next(key, t.finishedAt);
    r.restartAt = undefined;
    this.starter.start(r);
  }

  private async mountVolumes(now: number): Promise<boolean> {
    try {
      this.volumes = await setUpVolumes({ pod: this.pod, source: this.ctx.source, facts: this.facts(), node: this.ctx.volumes, existing: this.volumes, keepTokens: this.volumes.size > 0 });
      this.mountWaitSince = undefined;
      return true;
    } catch (err) {
      if (!(err instanceof MountError)) throw err;
      for (const r of this.main) if (!r.current) r.waiting = { reason: 'ContainerCreating' };
      if (err.waiting) {
        this.mountWaitSince ??= now;
        const due = this.mountWaitSince + MOUNT_TIMEOUT_MS * (this.mountReported + 1);
        if (now >= due) {
          this.mountReported++;
          this.event('Warning', 'FailedMount', err.message);
        }
        this.wakeAfter(MOUNT_RETRY_MS);
      } else {
        this.event('Warning', 'FailedMount', err.message);
        this.mountReported++;
        // The volume manager retries with its own exponential back-off (capped at about 2 minutes).
        this.wakeAfter(Math.min(500 * 2 ** Math.min(this.mountReported, 8), 122_000));
      }
      return false;
    }
  }

  // ---- containers' ends and probes ----

  /** Called by the starter once a container's process runs. */
  started(r: ContainerRecord, inst: Instance): void {
    const spec = r.spec;
    r.started = !spec.startupProbe;
    r.ready = !spec.readinessProbe;
    const workers: ProbeWorker[] = [];
    for (const kind of ['startup', 'liveness', 'readiness'] as ProbeKind[]) {
      const probe = spec[`${kind}Probe`];
      if (!probe || r.kind === 'init') continue;
      const label = kind[0]!.toUpperCase() + kind.slice(1);
      const worker = new ProbeWorker({
        kind,
        spec: rec(probe),
        timers: this.ctx.timers,
        startedAt: inst.startedAt,
        enabled: () => isRunning(r) && r.current === inst && (kind === 'startup' ? !r.started : r.started),
        probe: (p, timeoutMs) => runProbe(this, r, inst, p, timeoutMs),
        onFailureOutput: (output) => this.event('Warning', 'Unhealthy', `${label} probe failed: ${output}`, r),
        onResult: (ok) => this.probeResult(r, inst, kind, ok),
      });
      workers.push(worker);
    }
    this.probes.set(r, workers);
  }

  private probeResult(r: ContainerRecord, inst: Instance, kind: ProbeKind, ok: boolean): void {
    if (r.current !== inst || !isRunning(r) || (this.terminating && kind !== 'readiness')) return;
    if (kind === 'readiness') r.ready = ok;
    else if (kind === 'startup' && ok) r.started = true;
    else if (!ok) {
      const probe = rec(r.spec[`${kind}Probe`]);
      this.event('Normal', 'Killing', `Container ${r.name} failed ${kind} probe, will be restarted`, r);
      const grace = typeof probe.terminationGracePeriodSeconds === 'number' ? probe.terminationGracePeriodSeconds : this.podGraceSeconds();
      void this.killContainer(r, this.ctx.clock.now() + Math.max(grace, MIN_GRACE_S) * 1000, undefined);
    }
    this.kick();
  }

  /** Called when a container's process has ended. */
  exited(r: ContainerRecord, inst: Instance, t: Terminated): void {
    inst.terminated = t;
    inst.log.end(t.finishedAt);
    this.stopProbes(r);
    r.started = false;
    r.ready = false;
    this.kick();
  }

  private stopProbes(r: ContainerRecord, which: (kind: ProbeKind) => boolean = () => true): void {
    const workers = this.probes.get(r) ?? [];
    for (const w of workers) if (which(w.kind)) w.stop();
    const left = workers.filter((w) => !which(w.kind));
    if (left.length > 0) this.probes.set(r, left);
    else this.probes.delete(r);
  }

  private podGraceSeconds(): number {
    const g = rec(this.pod.spec).terminationGracePeriodSeconds;
    return typeof g === 'number' ? g : 30;
  }

  /** Stops a running container: preStop hook, SIGTERM, SIGKILL at the deadline; resolves once it has ended. */
  async killContainer(r: ContainerRecord, deadline: number, eventMessage: string | undefined): Promise<void> {
    const inst = r.current;
    const process = inst?.process;
    if (!inst || !process || !process.running) return;
    if (eventMessage) this.event('Normal', 'Killing', eventMessage, r);
    await this.starter.runPreStop(r, inst, deadline);
    const { timers, clock } = this.ctx;
    process.signal('SIGTERM', clock.now());
    if (process.running) {
      const handle = timers.at(deadline, () => process.signal('SIGKILL', clock.now()));
      await process.done;
      timers.cancel(handle);
    }
    await process.done;
  }

  /** The pod's containers are all done: stop the sidecars (in the background) and tear the sandbox down. */
  private finish(): void {
    if (this.finishing || this.finished) return;
    this.finishing = true;
    const deadline = this.ctx.clock.now() + Math.max(this.podGraceSeconds(), MIN_GRACE_S) * 1000;
    void (async () => {
      for (const r of [...this.init].reverse()) {
        if (r.kind === 'sidecar' && isRunning(r)) await this.killContainer(r, deadline, `Stopping container ${r.name}`);
      }
      for (const r of this.records()) this.stopProbes(r);
      this.sandboxReady = false;
      this.finished = true;
      this.kick();
    })();
  }

  /**
   * Graceful deletion: stop every container within the grace period (in
   * the background: the wait is on the Clock, not work in hand), then write
   * the final status and remove the pod.
   */
  private async terminate(): Promise<void> {
    if (!this.terminating) {
      this.terminating = true;
      const meta = this.pod.metadata ?? {};
      const requested = typeof meta.deletionGracePeriodSeconds === 'number' ? meta.deletionGracePeriodSeconds : this.podGraceSeconds();
      const deadline = this.ctx.clock.now() + Math.max(requested, MIN_GRACE_S) * 1000;
      this.starter.cancelAll();
      // As the kubelet's StopLivenessAndStartup: readiness is still probed
      // (and a container without a readiness probe stays ready) until the
      // container has stopped, so a terminating pod reads 1/1 until then.
      for (const r of this.records()) this.stopProbes(r, (kind) => kind !== 'readiness');
      void (async () => {
        await Promise.all(this.main.filter(isRunning).map((r) => this.killContainer(r, deadline, `Stopping container ${r.name}`)));
        for (const r of [...this.init].reverse()) if (isRunning(r)) await this.killContainer(r, deadline, `Stopping container ${r.name}`);
        for (const r of this.records()) r.waiting = r.current ? undefined : r.waiting;
        this.sandboxReady = false;
        this.stoppedAll = true;
        this.kick();
      })();
    }
    if (this.gone) return;
    if (!this.stoppedAll) return this.writeStatus();
    this.finished = true;
    await this.writeStatus(true);
    if (this.gone) return;
    try {
      await this.ctx.client.delete(PODS, this.namespace, this.name, { gracePeriodSeconds: 0, preconditions: { uid: this.uid } });
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
  }

  // ---- status ----

  async writeStatus(terminal = false): Promise<void> {
    for (let attempt = 0; attempt < 5 && !this.gone; attempt++) {
      const pod = this.pod;
      const status = podStatus(pod, this.init, this.main, {
        hostIP: this.ctx.nodeIP,
        ...(this.podIP ? { podIP: this.podIP } : {}),
        ...(this.startTime !== undefined ? { startTime: this.startTime } : {}),
        sandboxReady: this.sandboxReady,
        terminal: terminal || this.terminating,
      }, this.ctx.clock.now());
      const text = JSON.stringify(status);
      if (text === this.lastWritten) return;
      try {
        const updated = await this.ctx.client.update(PODS, this.namespace, { ...pod, status }, 'status');
        // What was sent: the records may have moved on while the write was under way (the next sync writes that).
        this.lastWritten = text;
        if (Number(updated.metadata?.resourceVersion ?? 0) > Number(this.pod.metadata?.resourceVersion ?? 0)) this.pod = { ...updated, metadata: { ...updated.metadata, deletionTimestamp: updated.metadata?.deletionTimestamp ?? this.pod.metadata?.deletionTimestamp } };
        return;
      } catch (err) {
        if (isNotFound(err)) {
          this.gone = true;
          return;
        }
        if (!isConflict(err)) throw err;
        try {
          this.pod = await this.ctx.client.get(PODS, this.namespace, this.name);
          if (this.pod.metadata?.uid !== this.uid) {
            this.gone = true;
            return;
          }
        } catch (getErr) {
          if (isNotFound(getErr)) {
            this.gone = true;
            return;
          }
          throw getErr;
        }
      }
    }
  }

  /** The pod is gone from the API (deleted for good): everything stops at once. */
  removed(): void {
    if (this.gone) return;
    this.gone = true;
    this.starter.cancelAll();
    for (const handle of this.wakeups) this.ctx.timers.cancel(handle);
    this.wakeups.clear();
    for (const r of this.records()) {
      this.stopProbes(r);
      r.current?.process?.signal('SIGKILL', this.ctx.clock.now());
    }
    this.ctx.ips.release(this.uid);
    this.ctx.restartBackoff.forget(`${this.uid}/`);
    this.ctx.pullBackoff.forget(`${this.uid}/`);
  }
}
