// Starting one container, as the kubelet's startContainer does it with
// containerd: ensure the image (Pulling/Pulled, "already present", or
// InvalidImageName, ErrImagePull then ImagePullBackOff), build its config
// (environment: CreateContainerConfigError when a reference is missing),
// create it (Created), start it (Started, or containerd's StartError shown
// as RunContainerError) and run its postStart hook. Also the processes
// started inside a running container: exec sessions, exec probes, hooks.

import { arr, rec, str } from '../../kinds/builtin/common/table';
import { parseQuantity } from '../../kinds/builtin/common/quantity';
import { containerArgv, imageInfo, isKnownImage } from '../images/image-catalog';
import { imageID, InvalidImageReference, parseImageReference, type ImageReference } from '../images/image-reference';
import { goDuration } from '../images/go-duration';
import { ContainerFileSystem, type Mount } from '../runtime/container-fs';
import { ContainerLog } from '../runtime/container-log';
import { hexDigest } from '../runtime/hash';
import { imageRootFiles, podHostname } from '../runtime/image-files';
import { launch, programsFor, quietServer, startError } from '../runtime/launcher';
import { commandExists } from '../shell';
import type { ProcessExit, SimProcess } from '../runtime/process';
import { answerHttp, accessLogLine } from '../runtime/http-responder';
import type { ContainerRecord, Instance, Terminated } from './container-record';
import { ContainerConfigError, containerEnv, expandVars } from './env';
import type { PodWorker } from './pod-worker';

const IMAGE_ENV = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root' };
/** The kubelet's limits on a termination message taken from the log (FallbackToLogsOnError). */
const TERMINATION_LOG_LINES = 80;
const TERMINATION_MESSAGE_BYTES = 4096;
/** How soon the kubelet tries again after a config error (its pod worker's back-off, simplified). */
const CONFIG_RETRY_MS = 10_000;

interface Attempt {
  cancelled: boolean;
  /** Ends the attempt's work in hand (see waitOnClock). */
  inHand: () => void;
}

/** Where a container left off, for a restarted kubelet to replay it (same ID, same start time, no events). */
export interface ResumeAt {
  readonly id: string;
  readonly startedAt: number;
}

export class ContainerStarter {
  private readonly attempts = new Set<Attempt>();

  constructor(private readonly worker: PodWorker) {}

  cancelAll(): void {
    for (const a of this.attempts) a.cancelled = true;
  }

  /** Starts (or, with `resume`, replays) the container in the background; the worker syncs again when it is done. */
  start(r: ContainerRecord, resume?: ResumeAt): void {
    if (r.starting) return;
    r.starting = true;
    const attempt: Attempt = { cancelled: false, inHand: this.worker.ctx.activity.begin() };
    this.attempts.add(attempt);
    void this.run(r, attempt, resume)
      .catch((err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        this.worker.ctx.log(`pod ${this.worker.namespace}/${this.worker.name}: starting container ${r.name} failed: ${message}`);
        this.worker.event('Warning', 'Failed', `Error: ${message}`, r);
        return 10_000;
      })
      .then((retryAfter) => {
        r.starting = false;
        this.attempts.delete(attempt);
        if (retryAfter !== undefined) {
          r.retryAt = this.worker.ctx.clock.now() + retryAfter;
          this.worker.wakeAt(r.retryAt);
        } else r.retryAt = undefined;
        this.worker.kick();
      })
      .finally(() => attempt.inHand());
  }

  /** A wait on the Clock (a pull) is not work in hand: idle() must not wait for the Clock to move. */
  private async waitOnClock<T>(attempt: Attempt, wait: Promise<T>): Promise<T> {
    attempt.inHand();
    try {
      return await wait;
    } finally {
      attempt.inHand = this.worker.ctx.activity.begin();
    }
  }

  private waitingReason(r: ContainerRecord): string {
    return r.kind === 'main' ? 'ContainerCreating' : 'PodInitializing';
  }

  /** One start; returns when the worker should look again (undefined: at once). */
  private async run(r: ContainerRecord, attempt: Attempt, resume: ResumeAt | undefined): Promise<number | undefined> {
    const w = this.worker;
    const { ctx } = w;
    const requested = str(r.spec.image);
    let ref: ImageReference;
    try {
      ref = parseImageReference(requested);
    } catch (err) {
      if (!(err instanceof InvalidImageReference)) throw err;
      const message = `Failed to apply default image tag ${JSON.stringify(requested)}: ${err.message}`;
      r.waiting = { reason: 'InvalidImageName', message };
      w.event('Warning', 'InspectFailed', message, r);
      w.event('Warning', 'Failed', 'Error: InvalidImageName', r);
      return CONFIG_RETRY_MS;
    }
    if (!resume) {
      const wait = await this.ensureImage(r, ref, requested, attempt);
      if (wait !== 'ready') return wait;
    } else ctx.images.add(ref);
    if (attempt.cancelled) return undefined;
    const info = imageInfo(ref);
    const hostname = podHostname(w.pod, ctx.node.name);
    let env: Record<string, string>;
    try {
      env = await containerEnv({ pod: w.pod, container: r.spec, source: ctx.source, facts: w.facts(), imageEnv: IMAGE_ENV, hostname });
    } catch (err) {
      if (!(err instanceof ContainerConfigError)) throw err;
      r.waiting = { reason: 'CreateContainerConfigError', message: err.message };
      w.event('Warning', 'Failed', `Error: ${err.message}`, r);
      return CONFIG_RETRY_MS;
    }
    if (attempt.cancelled) return undefined;
    const fs = this.fileSystem(r, ref);
    const attemptNo = resume ? r.restartCount : r.current ? r.restartCount + 1 : 0;
    const id = resume?.id ?? `containerd://${hexDigest(`${w.uid}/${r.name}/${attemptNo}`)}`;
    const command = arr(r.spec.command).map((c) => expandVars(String(c), env));
    const args = arr(r.spec.args).map((a) => expandVars(String(a), env));
    const argv = containerArgv(info, command.length ? command : undefined, args.length ? args : undefined);
    const firstPort = arr(r.spec.ports).map(rec).map((p) => Number(p.containerPort))[0];
    // An unknown image's entrypoint is a quiet server, unless the shell knows the program by that
    // name (polinux/stress's `stress`, busybox-like images): then it does what the shell's does.
    // (A known image may have no ENTRYPOINT at all: busybox, alpine.)
    const entry = info.entrypoint[0]?.split('/').pop() ?? '';
    const programs = programsFor(isKnownImage(ref) || !entry || commandExists(entry) ? {} : { [entry]: quietServer(firstPort) });
    const now = ctx.clock.now();
    const inst: Instance = { id, startedAt: resume?.startedAt ?? now, log: new ContainerLog(id) };
    if (!resume) {
      r.previous = r.current;
      r.lastTerminated = undefined;
    }
    r.current = inst;
    r.restartCount = attemptNo;
    r.image = ref.normalized;
    r.imageID = imageID(ref);
    if (!resume) w.event('Normal', 'Created', `Created container: ${r.name}`, r);
    const failure = startError(argv, programs, info.hasShell, fs, str(r.spec.workingDir) || '/');
    if (failure) {
      inst.terminated = { exitCode: 128, reason: 'StartError', message: failure, startedAt: 0, finishedAt: now, containerID: id };
      inst.log.end(now);
      r.waiting = { reason: 'RunContainerError', message: failure };
      w.event('Warning', 'Failed', `Error: ${failure}`, r);
      return undefined;
    }
    const limit = parseQuantity(rec(rec(r.spec.resources).limits).memory);
    const process = launch({
      argv,
      env,
      fs,
      hostname,
      timers: ctx.timers,
      startMs: inst.startedAt,
      programs,
      output: (stream, text, at) => inst.log.write(stream, text, at),
      stdin: r.spec.stdin === true,
      tty: r.spec.tty === true,
      cwd: str(r.spec.workingDir) || '/',
      isInit: true,
      ...(limit !== undefined && limit > 0 ? { memoryLimitBytes: limit } : {}),
    });
    inst.process = process;
    inst.fs = fs;
    inst.env = env;
    r.waiting = undefined;
    if (!resume) w.event('Normal', 'Started', `Started container ${r.name}`, r);
    w.started(r, inst);
    void process.done.then((exit) => w.exited(r, inst, this.terminated(r, inst, exit)));
    if (!resume) void this.postStart(r, inst);
    return undefined;
  }

  /** The image is present (or pulled); else why the container waits, and when to look again. */
  private async ensureImage(r: ContainerRecord, ref: ImageReference, requested: string, attempt: Attempt): Promise<'ready' | number | undefined> {
    const w = this.worker;
    const { ctx } = w;
    const policy = str(r.spec.imagePullPolicy) || (ref.tag === 'latest' && !ref.digest ? 'Always' : 'IfNotPresent');
    const present = ctx.images.has(ref);
    if (present && policy !== 'Always') {
      w.event('Normal', 'Pulled', `Container image ${JSON.stringify(requested)} already present on machine`, r);
      return 'ready';
    }
    if (policy === 'Never') {
      const message = `Container image ${JSON.stringify(requested)} is not present with pull policy of Never`;
      r.waiting = { reason: 'ErrImageNeverPull', message };
      w.event('Warning', 'ErrImageNeverPull', message, r);
      w.event('Warning', 'Failed', 'Error: ErrImageNeverPull', r);
      return CONFIG_RETRY_MS;
    }
    const key = `${w.uid}/${ref.normalized}`;
    const now = ctx.clock.now();
    const backoff = ctx.pullBackoff.inBackoffSinceUpdate(key, now);
    if (backoff) {
      r.waiting = { reason: 'ImagePullBackOff', message: `Back-off pulling image ${JSON.stringify(requested)}` };
      w.event('Normal', 'BackOff', `Back-off pulling image ${JSON.stringify(requested)}`, r);
      w.event('Warning', 'Failed', 'Error: ImagePullBackOff', r);
      return Math.max(0, backoff.untilMs - now);
    }
    w.event('Normal', 'Pulling', `Pulling image ${JSON.stringify(requested)}`, r);
    if (!r.waiting || r.waiting.reason !== 'ImagePullBackOff') r.waiting = { reason: this.waitingReason(r) };
    const result = await this.waitOnClock(attempt, ctx.images.pull(ref, attempt));
    if (attempt.cancelled) return undefined;
    if (!result.ok) {
      const error = `rpc error: code = ${result.code} desc = ${result.message}`;
      w.event('Warning', 'Failed', `Failed to pull image ${JSON.stringify(requested)}: ${error}`, r);
      ctx.pullBackoff.next(key, ctx.clock.now());
      r.waiting = { reason: 'ErrImagePull', message: error };
      w.event('Warning', 'Failed', 'Error: ErrImagePull', r);
      // The next sync finds the pull in its back-off (ImagePullBackOff).
      return 1_000;
    }
    w.event('Normal', 'Pulled', `Successfully pulled image ${JSON.stringify(requested)} in ${goDuration(result.pullMs!)} (${goDuration(result.totalMs!)} including waiting). Image size: ${result.sizeBytes} bytes.`, r);
    return 'ready';
  }

  private fileSystem(r: ContainerRecord, ref: ImageReference): ContainerFileSystem {
    const w = this.worker;
    const info = imageInfo(ref);
    const root = imageRootFiles(ref, info, w.pod, {
      podIP: w.podIP ?? '',
      hostname: podHostname(w.pod, w.ctx.node.name),
      hostNetwork: w.hostNetwork,
      nodeName: w.ctx.node.name,
      clusterDomain: 'cluster.local',
      clusterDNS: '10.96.0.10',
    });
    const mounts: Mount[] = [];
    for (const m of arr(r.spec.volumeMounts).map(rec)) {
      const volume = w.volumes.get(str(m.name));
      if (!volume) continue;
      mounts.push({ mountPath: str(m.mountPath), volume, readOnly: m.readOnly === true, ...(str(m.subPath) ? { subPath: str(m.subPath) } : {}) });
    }
    return new ContainerFileSystem(root, mounts);
  }

  /** The container's terminated state from its process's end. */
  private terminated(r: ContainerRecord, inst: Instance, exit: ProcessExit): Terminated {
    if (exit.crashed) this.worker.ctx.log(`pod ${this.worker.namespace}/${this.worker.name}: container ${r.name}: simulation error: ${exit.crashed}`);
    const reason = exit.oomKilled ? 'OOMKilled' : exit.code === 0 ? 'Completed' : 'Error';
    const path = str(r.spec.terminationMessagePath) || '/dev/termination-log';
    let message = inst.fs?.read(path)?.slice(0, TERMINATION_MESSAGE_BYTES);
    if (!message && str(r.spec.terminationMessagePolicy) === 'FallbackToLogsOnError' && exit.code !== 0) {
      inst.log.end(exit.atMs);
      const text = inst.log.all().slice(-TERMINATION_LOG_LINES).map((l) => l.text).join('');
      message = text.slice(-TERMINATION_MESSAGE_BYTES);
    }
    return { exitCode: exit.code, reason, ...(message ? { message } : {}), startedAt: inst.startedAt, finishedAt: exit.atMs, containerID: inst.id };
  }

  /** A process started inside the running container (exec, an exec probe, a hook). */
  spawn(inst: Instance, r: ContainerRecord, argv: readonly string[], options: { stdin?: boolean; tty?: boolean; output: (stream: 'stdout' | 'stderr', text: string) => void }): SimProcess | string {
    const w = this.worker;
    const ref = parseImageReference(str(r.spec.image));
    const info = imageInfo(ref);
    const programs = programsFor();
    const failure = startError(argv, programs, info.hasShell, inst.fs, str(r.spec.workingDir) || '/');
    if (failure) return failure;
    return launch({
      argv,
      env: inst.env ?? {},
      fs: inst.fs!,
      hostname: podHostname(w.pod, w.ctx.node.name),
      timers: w.ctx.timers,
      startMs: w.ctx.clock.now(),
      programs,
      output: (stream, text) => options.output(stream, text),
      stdin: options.stdin ?? false,
      tty: options.tty ?? false,
      cwd: str(r.spec.workingDir) || '/',
      pid: 7 + r.restartCount,
      isInit: false,
    });
  }

  /** Runs a hook handler (exec, httpGet, sleep) until it ends or the deadline; resolves with its failure or undefined. */
  private async runHandler(r: ContainerRecord, inst: Instance, handler: Record<string, unknown>, deadline: number): Promise<string | undefined> {
    const { timers, clock } = this.worker.ctx;
    if (handler.exec) {
      const command = arr(rec(handler.exec).command).map(String);
      let output = '';
      const p = this.spawn(inst, r, command, { output: (_s, t) => (output += t) });
      if (typeof p === 'string') return p;
      const handle = timers.at(deadline, () => p.signal('SIGKILL', clock.now()));
      const exit = await p.done;
      timers.cancel(handle);
      return exit.code === 0 ? undefined : `command ${JSON.stringify(command.join(' '))} exited with ${exit.code}: ${output}`;
    }
    if (handler.sleep) {
      const seconds = Number(rec(handler.sleep).seconds) || 0;
      await timers.until(Math.min(clock.now() + seconds * 1000, deadline));
      return undefined;
    }
    if (handler.httpGet) {
      const g = rec(handler.httpGet);
      const path = str(g.path) || '/';
      const answer = answerHttp({ repository: parseImageReference(str(r.spec.image)).repository, podName: this.worker.name, fs: inst.fs! }, 'GET', path);
      const line = accessLogLine(parseImageReference(str(r.spec.image)).repository, this.worker.ctx.ips.gateway, 'GET', path, answer, 'kube-lifecycle/1.32', clock.now());
      if (line) inst.log.write('stdout', line, Math.max(clock.now(), inst.process?.time ?? 0));
      return answer.status < 400 ? undefined : `HTTP lifecycle hook failed with statuscode: ${answer.status}`;
    }
    return undefined;
  }

  private async postStart(r: ContainerRecord, inst: Instance): Promise<void> {
    const handler = rec(rec(r.spec.lifecycle).postStart);
    if (Object.keys(handler).length === 0) return;
    const grace = Number(rec(this.worker.pod.spec).terminationGracePeriodSeconds ?? 30);
    const failure = await this.runHandler(r, inst, handler, this.worker.ctx.clock.now() + grace * 1000);
    if (failure && inst.process?.running) {
      this.worker.event('Warning', 'FailedPostStartHook', 'PostStartHook failed', r);
      await this.worker.killContainer(r, this.worker.ctx.clock.now() + 2000, undefined);
    }
  }

  async runPreStop(r: ContainerRecord, inst: Instance, deadline: number): Promise<void> {
    const handler = rec(rec(r.spec.lifecycle).preStop);
    if (Object.keys(handler).length === 0) return;
    const failure = await this.runHandler(r, inst, handler, deadline);
    if (failure) this.worker.event('Warning', 'FailedPreStopHook', 'PreStopHook failed', r);
  }
}
