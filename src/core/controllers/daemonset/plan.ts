// The DaemonSet controller's decisions, without I/O (kube's manage,
// podsShouldBeOnNode, rollingUpdate and updateDaemonSetStatus): which nodes
// need a daemon pod, which pods go (failed or succeeded ones, extras beyond
// one per node, those on nodes they no longer belong on, unscheduled ones
// pinned to nodes that are gone), which old pods a rolling update replaces
// within maxUnavailable — or, with maxSurge, where it starts new pods next
// to old ones — and the status counts.

import type { KubeObject } from '../../kinds/types';
import { isPodAvailable, isPodReady, podPhase } from '../workloads';
import { allowsSurge, byCreationAndPhase, DAEMON_SET_REVISION_LABEL, isPodUpdated, surgeCount, templateGeneration, unavailableCount } from './daemon-pods';
import { nodeShouldRunDaemonPod, rec } from './node-eligibility';

export type NodePods = Map<string, KubeObject[]>;

const minReady = (ds: KubeObject): number => (typeof rec(ds.spec).minReadySeconds === 'number' ? (rec(ds.spec).minReadySeconds as number) : 0);
const nameOf = (o: KubeObject) => o.metadata?.name ?? '';

/** Remembers failed-pod deletions per node so a node that keeps failing pods is backed off (1 s doubling to 15 min). */
export interface FailedPodBackoff {
  /** The delay still to wait, or undefined when not backing off. */
  waiting(key: string, nowMs: number): number | undefined;
  next(key: string, nowMs: number): void;
}

export interface NodeDecision {
  readonly create: string[];
  readonly remove: string[];
  readonly events: { type: 'Normal' | 'Warning'; reason: string; message: string }[];
  /** Look again after this many ms (a backed-off failed pod). */
  readonly requeueAfterMs?: number;
}

/** podsShouldBeOnNode. */
export function podsShouldBeOnNode(node: KubeObject, nodePods: NodePods, ds: KubeObject, hash: string, nowMs: number, backoff: FailedPodBackoff): NodeDecision {
  const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
  const nodeName = nameOf(node);
  const daemonPods = nodePods.get(nodeName);
  const create: string[] = [];
  const remove: string[] = [];
  const events: NodeDecision['events'] = [];
  let requeueAfterMs: number | undefined;
  if (shouldRun && !daemonPods) {
    create.push(nodeName);
  } else if (shouldContinueRunning) {
    const running: KubeObject[] = [];
    for (const pod of daemonPods ?? []) {
      if (pod.metadata?.deletionTimestamp) continue;
      const phase = podPhase(pod);
      if (phase === 'Failed') {
        const key = `${ds.metadata?.uid}/${rec(ds.status).observedGeneration ?? 0}/${nodeName}`;
        const wait = backoff.waiting(key, nowMs);
        if (wait !== undefined) {
          requeueAfterMs = Math.min(requeueAfterMs ?? Infinity, wait);
          continue;
        }
        backoff.next(key, nowMs);
        events.push({ type: 'Warning', reason: 'FailedDaemonPod', message: `Found failed daemon pod ${pod.metadata?.namespace}/${nameOf(pod)} on node ${nodeName}, will try to kill it` });
        remove.push(nameOf(pod));
      } else if (phase === 'Succeeded') {
        events.push({ type: 'Normal', reason: 'SucceededDaemonPod', message: `Found succeeded daemon pod ${pod.metadata?.namespace}/${nameOf(pod)} on node ${nodeName}, will try to delete it` });
        remove.push(nameOf(pod));
      } else {
        running.push(pod);
      }
    }
    running.sort(byCreationAndPhase);
    if (!allowsSurge(ds)) {
      // One pod per node: all but the oldest go.
      for (const pod of running.slice(1)) remove.push(nameOf(pod));
    } else if (running.length <= 1) {
      if (running.length === 0 && shouldRun) create.push(nodeName);
    } else {
      // Surging: keep the oldest new pod and the oldest old pod; the old one goes once the new one is available (or the old one is not ready).
      let oldestNew: KubeObject | undefined;
      let oldestOld: KubeObject | undefined;
      for (const pod of running) {
        if (pod.metadata?.labels?.[DAEMON_SET_REVISION_LABEL] === hash) {
          if (!oldestNew) {
            oldestNew = pod;
            continue;
          }
        } else if (!oldestOld) {
          oldestOld = pod;
          continue;
        }
        remove.push(nameOf(pod));
      }
      if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, minReady(ds), nowMs))) remove.push(nameOf(oldestOld));
    }
  } else if (daemonPods) {
    for (const pod of daemonPods) if (!pod.metadata?.deletionTimestamp) remove.push(nameOf(pod));
  }
  return { create, remove, events, ...(requeueAfterMs !== undefined ? { requeueAfterMs } : {}) };
}

/** getUnscheduledPodsWithoutNode: unbound pods pinned to a node that no longer exists. */
export function unscheduledPodsWithoutNode(nodes: readonly KubeObject[], nodePods: NodePods): string[] {
  const known = new Set(nodes.map(nameOf));
  const out: string[] = [];
  for (const [node, pods] of nodePods) {
    if (known.has(node)) continue;
    for (const pod of pods) if (!rec(pod.spec).nodeName) out.push(nameOf(pod));
  }
  return out;
}

/** findUpdatedPodsOnNode: at most one new and one old live pod, else not ok. */
function updatedPodsOnNode(ds: KubeObject, pods: readonly KubeObject[], hash: string): { newPod?: KubeObject; oldPod?: KubeObject; ok: boolean } {
  let newPod: KubeObject | undefined;
  let oldPod: KubeObject | undefined;
  const generation = templateGeneration(ds);
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (newPod) return { ok: false };
      newPod = pod;
    } else {
      if (oldPod) return { ok: false };
      oldPod = pod;
    }
  }
  return { newPod, oldPod, ok: true };
}

export interface UpdateDecision {
  readonly remove: string[];
  readonly create: string[];
}

/** rollingUpdate: which old pods to delete (maxUnavailable) or which nodes get a surge pod (maxSurge). */
export function rollingUpdatePlan(ds: KubeObject, nodes: readonly KubeObject[], nodePodsIn: NodePods, hash: string, nowMs: number): UpdateDecision {
  const nodePods: NodePods = new Map(nodePodsIn);
  let desired = 0;
  const byName = new Map(nodes.map((n) => [nameOf(n), n]));
  for (const node of nodes) {
    if (!nodeShouldRunDaemonPod(node, ds).shouldRun) continue;
    desired++;
    if (!nodePods.has(nameOf(node))) nodePods.set(nameOf(node), []);
  }
  let maxUnavailable = unavailableCount(ds, desired);
  const maxSurge = surgeCount(ds, desired);
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  const mrs = minReady(ds);
  const available = (pod: KubeObject) => isPodAvailable(pod, mrs, nowMs);

  if (maxSurge === 0) {
    let numUnavailable = 0;
    const allowedReplacements: string[] = [];
    const candidates: string[] = [];
    for (const pods of nodePods.values()) {
      const { newPod, oldPod, ok } = updatedPodsOnNode(ds, pods, hash);
      if (!ok) {
        numUnavailable++;
        continue;
      }
      if ((!oldPod && !newPod) || (oldPod && newPod)) numUnavailable++;
      else if (newPod) {
        if (!available(newPod)) numUnavailable++;
      } else if (oldPod) {
        if (!available(oldPod)) {
          allowedReplacements.push(nameOf(oldPod));
          numUnavailable++;
        } else if (numUnavailable < maxUnavailable) {
          candidates.push(nameOf(oldPod));
        }
      }
    }
    const remaining = Math.min(Math.max(0, maxUnavailable - numUnavailable), candidates.length);
    return { remove: [...allowedReplacements, ...candidates.slice(0, remaining)], create: [] };
  }

  const oldPodsToDelete: string[] = [];
  const shouldNotRunPodsToDelete: string[] = [];
  const candidateNewNodes: string[] = [];
  const allowedNewNodes: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  for (const [nodeName, pods] of nodePods) {
    const { newPod, oldPod, ok } = updatedPodsOnNode(ds, pods, hash);
    if (!ok) {
      numSurge++;
      continue;
    }
    if (oldPod) {
      if (available(oldPod)) numAvailable++;
    } else if (newPod && available(newPod)) numAvailable++;
    if (!oldPod) continue;
    const node = byName.get(nodeName);
    const shouldRun = node ? nodeShouldRunDaemonPod(node, ds).shouldRun : false;
    if (!newPod) {
      if (!available(oldPod)) {
        if (!shouldRun) oldPodsToDelete.push(nameOf(oldPod));
        else allowedNewNodes.push(nodeName);
      } else if (!shouldRun) {
        shouldNotRunPodsToDelete.push(nameOf(oldPod));
      } else if (numSurge < maxSurge) {
        candidateNewNodes.push(nodeName);
      }
      continue;
    }
    if (!available(newPod)) {
      numSurge++;
      continue;
    }
    oldPodsToDelete.push(nameOf(oldPod));
  }
  const deletable = Math.min(numAvailable - desired, shouldNotRunPodsToDelete.length);
  if (deletable > 0) oldPodsToDelete.push(...shouldNotRunPodsToDelete.slice(0, deletable));
  const remainingSurge = Math.min(Math.max(0, maxSurge - numSurge), candidateNewNodes.length);
  return { remove: oldPodsToDelete, create: [...allowedNewNodes, ...candidateNewNodes.slice(0, remainingSurge)] };
}

export interface DaemonCounts {
  desiredNumberScheduled: number;
  currentNumberScheduled: number;
  numberMisscheduled: number;
  numberReady: number;
  updatedNumberScheduled: number;
  numberAvailable: number;
  numberUnavailable: number;
}

/** updateDaemonSetStatus's counts (the oldest pod of each node speaks for it). */
export function daemonCounts(ds: KubeObject, nodes: readonly KubeObject[], nodePods: NodePods, hash: string, nowMs: number): DaemonCounts {
  const c: DaemonCounts = { desiredNumberScheduled: 0, currentNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0, updatedNumberScheduled: 0, numberAvailable: 0, numberUnavailable: 0 };
  const generation = templateGeneration(ds);
  for (const node of nodes) {
    const { shouldRun } = nodeShouldRunDaemonPod(node, ds);
    const pods = nodePods.get(nameOf(node)) ?? [];
    const scheduled = pods.length > 0;
    if (!shouldRun) {
      if (scheduled) c.numberMisscheduled++;
      continue;
    }
    c.desiredNumberScheduled++;
    if (!scheduled) continue;
    c.currentNumberScheduled++;
    const pod = [...pods].sort(byCreationAndPhase)[0]!;
    if (isPodReady(pod)) {
      c.numberReady++;
      if (isPodAvailable(pod, minReady(ds), nowMs)) c.numberAvailable++;
    }
    if (isPodUpdated(pod, hash, generation)) c.updatedNumberScheduled++;
  }
  c.numberUnavailable = c.desiredNumberScheduled - c.numberAvailable;
  return c;
}
