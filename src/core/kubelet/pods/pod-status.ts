// The pod's status as the kubelet's status manager computes it from what it
// knows of the containers: containerStatuses and initContainerStatuses
// (state, lastState, ready, started, restartCount, image, imageID,
// containerID, volumeMounts), the phase (kubelet's getPhase rules), and the
// conditions it owns (PodReadyToStartContainers, Initialized,
// ContainersReady, Ready) with kube's reasons and messages. Conditions it
// does not own (PodScheduled, DisruptionTarget, readiness gates) are kept.

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { arr, rec, str } from '../../kinds/builtin/common/table';
import { isRunning, lastExit, type ContainerRecord, type Terminated } from './container-record';

export type Phase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

export interface PodFactsForStatus {
  readonly hostIP: string;
  readonly podIP?: string;
  readonly startTime?: number;
  readonly sandboxReady: boolean;
  /** The pod is being (or has been) terminated by the kubelet: its phase is final. */
  readonly terminal: boolean;
  /** A reason/message for the whole pod (e.g. a node-level rejection). */
  readonly reason?: string;
  readonly message?: string;
}

const KUBELET_CONDITIONS = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady'];

function terminatedJSON(t: Terminated): Record<string, unknown> {
  return {
    exitCode: t.exitCode,
    ...(t.signal !== undefined ? { signal: t.signal } : {}),
    reason: t.reason,
    ...(t.message ? { message: t.message } : {}),
    startedAt: rfc3339(t.startedAt),
    finishedAt: rfc3339(t.finishedAt),
    containerID: t.containerID,
  };
}

function volumeMounts(spec: Record<string, unknown>): Record<string, unknown>[] {
  return arr(spec.volumeMounts)
    .map(rec)
    .map((m) => ({
      name: str(m.name),
      mountPath: str(m.mountPath),
      ...(m.readOnly === true ? { readOnly: true, recursiveReadOnly: 'Disabled' } : {}),
    }));
}

export function containerStatusJSON(r: ContainerRecord): Record<string, unknown> {
  let state: Record<string, unknown>;
  let lastState: Record<string, unknown> = {};
  const running = isRunning(r);
  const cur = r.current;
  if (cur && running) {
    state = { running: { startedAt: rfc3339(cur.startedAt) } };
    const prev = r.previous?.terminated ?? r.lastTerminated;
    if (prev) lastState = { terminated: terminatedJSON(prev) };
  } else if (cur?.terminated) {
    if (r.waiting) {
      state = { waiting: { reason: r.waiting.reason, ...(r.waiting.message ? { message: r.waiting.message } : {}) } };
      lastState = { terminated: terminatedJSON(cur.terminated) };
    } else {
      state = { terminated: terminatedJSON(cur.terminated) };
      const prev = r.previous?.terminated ?? r.lastTerminated;
      if (prev) lastState = { terminated: terminatedJSON(prev) };
    }
  } else {
    const waiting = r.waiting ?? { reason: 'ContainerCreating' };
    state = { waiting: { reason: waiting.reason, ...(waiting.message ? { message: waiting.message } : {}) } };
    if (r.lastTerminated) lastState = { terminated: terminatedJSON(r.lastTerminated) };
  }
  const ready = r.kind === 'init' ? !!cur?.terminated && cur.terminated.exitCode === 0 && !r.waiting : running && r.started && r.ready;
  const created = !!cur;
  return {
    name: r.name,
    state,
    lastState,
    ready,
    restartCount: r.restartCount,
    image: r.image ?? str(r.spec.image),
    imageID: r.imageID ?? '',
    ...(cur ? { containerID: cur.id } : {}),
    started: running && r.started,
    ...(created && arr(r.spec.volumeMounts).length > 0 ? { volumeMounts: volumeMounts(r.spec) } : {}),
  };
}

/** Whether an init container has done its part: a regular one exited 0, a sidecar has started. */
export function initDone(r: ContainerRecord): boolean {
  if (r.kind === 'sidecar') return isRunning(r) && r.started;
  const t = r.current?.terminated;
  return !!t && t.exitCode === 0;
}

/** kubelet's getPhase. */
export function podPhase(init: readonly ContainerRecord[], main: readonly ContainerRecord[], restartPolicy: string, terminal: boolean): Phase {
  let pendingInit = 0;
  let failedInit = 0;
  for (const r of init) {
    if (r.kind === 'sidecar') {
      if (!isRunning(r) && !lastExit(r)) pendingInit++;
      continue;
    }
    const t = lastExit(r);
    if (t && t.exitCode === 0 && !r.waiting) continue;
    if (t && t.exitCode !== 0) failedInit++;
    else pendingInit++;
  }
  if (failedInit > 0 && restartPolicy === 'Never') return 'Failed';
  if (!terminal && (pendingInit > 0 || failedInit > 0)) return 'Pending';
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const r of main) {
    if (isRunning(r)) running++;
    else {
      const t = lastExit(r);
      if (t) {
        stopped++;
        if (t.exitCode === 0) succeeded++;
      } else waiting++;
    }
  }
  if (terminal && running === 0) {
    if (stopped === 0) return 'Failed';
    return succeeded === stopped + waiting ? 'Succeeded' : 'Failed';
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped > 0) {
    if (restartPolicy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (restartPolicy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

interface Condition {
  type: string;
  status: 'True' | 'False';
  reason?: string;
  message?: string;
}

function readinessGateProblem(pod: KubeObject, conditions: readonly Record<string, unknown>[]): string | undefined {
  const problems: string[] = [];
  for (const gate of arr(rec(pod.spec).readinessGates).map(rec)) {
    const type = str(gate.conditionType);
    const c = conditions.find((x) => x.type === type);
    if (!c) problems.push(`corresponding condition of pod readiness gate ${JSON.stringify(type)} does not exist.`);
    else if (c.status !== 'True') problems.push(`the status of pod readiness gate ${JSON.stringify(type)} is not "True", but ${str(c.status)}`);
  }
  return problems.length ? problems.join(', ') : undefined;
}

function kubeletConditions(pod: KubeObject, init: readonly ContainerRecord[], main: readonly ContainerRecord[], phase: Phase, facts: PodFactsForStatus): Condition[] {
  const others = arr(rec(pod.status).conditions).map(rec);
  const incomplete = init.filter((r) => !initDone(r) && !(r.kind === 'init' && lastExit(r)?.exitCode === 0)).map((r) => r.name);
  const initialized: Condition =
    incomplete.length === 0 || phase === 'Succeeded'
      ? { type: 'Initialized', status: 'True' }
      : { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: `containers with incomplete status: [${incomplete.join(' ')}]` };
  const unready = [...init.filter((r) => r.kind === 'sidecar'), ...main].filter((r) => !(isRunning(r) && r.started && r.ready)).map((r) => r.name);
  let containersReady: Condition;
  if (phase === 'Succeeded') containersReady = { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' };
  else if (unready.length > 0) containersReady = { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: [${unready.join(' ')}]` };
  else containersReady = { type: 'ContainersReady', status: 'True' };
  let ready: Condition = { ...containersReady, type: 'Ready' };
  if (ready.status === 'True') {
    const gate = readinessGateProblem(pod, others);
    if (gate) ready = { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: gate };
  }
  return [{ type: 'PodReadyToStartContainers', status: facts.sandboxReady ? 'True' : 'False' }, initialized, ready, containersReady];
}

/** The status to write: the pod's current status with the kubelet's fields replaced. */
export function podStatus(pod: KubeObject, init: readonly ContainerRecord[], main: readonly ContainerRecord[], facts: PodFactsForStatus, now: number): Record<string, unknown> {
  const old = rec(pod.status);
  const restartPolicy = str(rec(pod.spec).restartPolicy) || 'Always';
  const phase = podPhase(init, main, restartPolicy, facts.terminal);
  const oldConditions = arr(old.conditions).map(rec);
  const stamp = rfc3339(now);
  const mine = kubeletConditions(pod, init, main, phase, facts).map((c) => {
    const before = oldConditions.find((o) => o.type === c.type);
    const lastTransitionTime = before && before.status === c.status ? before.lastTransitionTime : stamp;
    return { type: c.type, status: c.status, lastProbeTime: null, lastTransitionTime, ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}) };
  });
  const foreign = oldConditions.filter((c) => !KUBELET_CONDITIONS.includes(str(c.type)));
  // kubelet's order: its own conditions, then PodScheduled and the rest.
  const conditions = [...mine, ...foreign];
  const status: Record<string, unknown> = {
    ...old,
    phase,
    conditions,
    hostIP: facts.hostIP,
    hostIPs: [{ ip: facts.hostIP }],
    ...(facts.podIP ? { podIP: facts.podIP, podIPs: [{ ip: facts.podIP }] } : {}),
    ...(facts.startTime !== undefined ? { startTime: rfc3339(facts.startTime) } : {}),
  };
  if (facts.reason) status.reason = facts.reason;
  if (facts.message) status.message = facts.message;
  if (init.length > 0) status.initContainerStatuses = init.map(containerStatusJSON);
  else delete status.initContainerStatuses;
  status.containerStatuses = main.map(containerStatusJSON);
  return status;
}
