// Which pods a workload deletes first when it has too many: kube's
// ActivePodsWithRanks ordering (pkg/controller/controller_utils.go, 1.32,
// with PodDeletionCost and LogarithmicScaleDown on as they are by default),
// each rule deciding only when the ones before it tie:
//   1. not yet scheduled before scheduled;
//   2. Pending before Unknown before Running;
//   3. not Ready before Ready;
//   4. lower controller.kubernetes.io/pod-deletion-cost first;
//   5. more related active pods on the same node (a higher rank) first;
//   6. Ready for less time first (compared on a log2 scale of the time
//      since, equal buckets broken by uid);
//   7. more container restarts first;
//   8. created more recently first (same log2 scale, then uid).
// The rank of a pod is how many active pods related to it (of the same
// workload's family) run on its node (getPodsRankedByRelatedPodsOnSameNode).

import type { KubeObject } from '../../kinds/types';
import { isPodActive, isPodReady, podPhase, podReadyCondition } from './pod-readiness';
import { arr, int, rec, timeMs } from './objects';

export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

const PHASE_ORDINAL: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

const nodeName = (pod: KubeObject): string => String(rec(pod.spec).nodeName ?? '');

/** helper.GetDeletionCostFromPodAnnotations: an int32; absent or invalid is 0. */
export function podDeletionCost(pod: KubeObject): number {
  const text = pod.metadata?.annotations?.[POD_DELETION_COST_ANNOTATION];
  if (text === undefined || !/^[+-]?\d+$/.test(text.trim())) return 0;
  const value = Number(text.trim());
  return value >= -2147483648 && value <= 2147483647 ? value : 0;
}

/** maxContainerRestarts: the highest restart count among the pod's (regular) containers. */
export function maxContainerRestarts(pod: KubeObject): number {
  let max = 0;
  for (const s of arr(rec(pod.status).containerStatuses).map(rec)) max = Math.max(max, int(s.restartCount));
  return max;
}

/** When the pod became Ready (NaN when it is not Ready), as podReadyTime. */
function readySince(pod: KubeObject): number {
  return isPodReady(pod) ? timeMs(podReadyCondition(pod)?.lastTransitionTime) : NaN;
}

/** afterOrZero: a zero time sorts first; otherwise the later time first. */
function afterOrZero(a: number, b: number): boolean {
  const az = !Number.isFinite(a);
  const bz = !Number.isFinite(b);
  if (az || bz) return az;
  return a > b;
}

/** int(math.Log2(ns since t)), or -1 for a time not in the past. */
function logRank(t: number, nowMs: number): number {
  const ns = (nowMs - t) * 1e6;
  return ns > 0 ? Math.floor(Math.log2(ns)) : -1;
}

/** Compares two times on the log2 scale, ties broken by uid; negative means `a` goes first. */
function logarithmicLess(a: number, b: number, uidA: string, uidB: string, nowMs: number): boolean {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return afterOrZero(a, b);
  const diff = logRank(a, nowMs) - logRank(b, nowMs);
  if (diff === 0) return uidA < uidB;
  return diff < 0;
}

interface Ranked {
  readonly pod: KubeObject;
  readonly rank: number;
}

/** ActivePodsWithRanks.Less: whether `a` should be deleted before `b`. */
export function deleteBefore(a: Ranked, b: Ranked, nowMs: number): boolean {
  const pa = a.pod;
  const pb = b.pod;
  const na = nodeName(pa);
  const nb = nodeName(pb);
  if (na !== nb && (na === '' || nb === '')) return na === '';
  const oa = PHASE_ORDINAL[podPhase(pa)] ?? 0;
  const ob = PHASE_ORDINAL[podPhase(pb)] ?? 0;
  if (oa !== ob) return oa < ob;
  const ra = isPodReady(pa);
  const rb = isPodReady(pb);
  if (ra !== rb) return !ra;
  const ca = podDeletionCost(pa);
  const cb = podDeletionCost(pb);
  if (ca !== cb) return ca < cb;
  if (a.rank !== b.rank) return a.rank > b.rank;
  const uidA = pa.metadata?.uid ?? '';
  const uidB = pb.metadata?.uid ?? '';
  if (ra && rb) {
    const ta = readySince(pa);
    const tb = readySince(pb);
    const same = (Number.isNaN(ta) && Number.isNaN(tb)) || ta === tb;
    if (!same) return logarithmicLess(ta, tb, uidA, uidB, nowMs);
  }
  const restartsA = maxContainerRestarts(pa);
  const restartsB = maxContainerRestarts(pb);
  if (restartsA !== restartsB) return restartsA > restartsB;
  const ctA = timeMs(pa.metadata?.creationTimestamp);
  const ctB = timeMs(pb.metadata?.creationTimestamp);
  const sameCreation = (Number.isNaN(ctA) && Number.isNaN(ctB)) || ctA === ctB;
  if (!sameCreation) return logarithmicLess(ctA, ctB, uidA, uidB, nowMs);
  return false;
}

/** getPodsRankedByRelatedPodsOnSameNode: each pod's count of active related pods on its node. */
export function ranksByRelatedPodsOnSameNode(pods: readonly KubeObject[], relatedPods: readonly KubeObject[]): number[] {
  const onNode = new Map<string, number>();
  for (const p of relatedPods) if (isPodActive(p)) onNode.set(nodeName(p), (onNode.get(nodeName(p)) ?? 0) + 1);
  return pods.map((p) => onNode.get(nodeName(p)) ?? 0);
}

/**
 * getPodsToDelete: the `count` pods to delete, the first to go first
 * (every pod when count covers them all, in their given order).
 */
export function podsToDelete(pods: readonly KubeObject[], relatedPods: readonly KubeObject[], count: number, nowMs: number): KubeObject[] {
  if (count >= pods.length) return pods.slice(0, count);
  const ranks = ranksByRelatedPodsOnSameNode(pods, relatedPods);
  const ranked: Ranked[] = pods.map((pod, i) => ({ pod, rank: ranks[i]! }));
  ranked.sort((a, b) => (deleteBefore(a, b, nowMs) ? -1 : deleteBefore(b, a, nowMs) ? 1 : 0));
  return ranked.slice(0, count).map((r) => r.pod);
}
