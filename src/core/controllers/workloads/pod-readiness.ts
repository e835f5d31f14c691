// Whether a pod counts for its workload, as kube's controllers judge it
// (k8s.io/kubernetes pkg/api/v1/pod and pkg/controller): active (not
// finished, not being deleted), Ready (its Ready condition is True) and
// available (Ready for longer than the workload's minReadySeconds, by the
// Ready condition's lastTransitionTime on the cluster's clock).

import type { KubeObject } from '../../kinds/types';
import { arr, rec, timeMs, type Obj } from './objects';

/** The pod's Ready condition, if it has one. */
export function podReadyCondition(pod: KubeObject): Obj | undefined {
  return arr(rec(pod.status).conditions)
    .map(rec)
    .find((c) => c.type === 'Ready');
}

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: KubeObject): boolean {
  return podReadyCondition(pod)?.status === 'True';
}

/** The pod's phase ('' when it has none yet). */
export function podPhase(pod: KubeObject): string {
  const phase = rec(pod.status).phase;
  return typeof phase === 'string' ? phase : '';
}

/** controller.IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(pod: KubeObject): boolean {
  const phase = podPhase(pod);
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

/** controller.FilterActivePods. */
export function filterActivePods(pods: readonly KubeObject[]): KubeObject[] {
  return pods.filter(isPodActive);
}

/**
 * podutil.IsPodAvailable: Ready, and with minReadySeconds > 0 Ready since
 * strictly more than minReadySeconds before `nowMs`.
 */
export function isPodAvailable(pod: KubeObject, minReadySeconds: number, nowMs: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = timeMs(podReadyCondition(pod)?.lastTransitionTime);
  return Number.isFinite(since) && since + minReadySeconds * 1000 < nowMs;
}

/**
 * When a Ready pod that is not yet available becomes available (the first
 * clock reading at which isPodAvailable holds), for a re-check timer;
 * undefined when it is not Ready, already available, or has no transition time.
 */
export function availableAtMs(pod: KubeObject, minReadySeconds: number, nowMs: number): number | undefined {
  if (!isPodReady(pod) || minReadySeconds <= 0) return undefined;
  const since = timeMs(podReadyCondition(pod)?.lastTransitionTime);
  if (!Number.isFinite(since)) return undefined;
  const at = since + minReadySeconds * 1000 + 1;
  return at > nowMs ? at : undefined;
}
