// The arithmetic of a PodDisruptionBudget's status, as kube's disruption
// controller and the eviction subresource share it: how many pods are
// expected and must stay healthy (minAvailable as a number counts the
// selected pods; a percentage, or maxUnavailable, is taken of the summed
// scale of the pods' controllers), how many are healthy now (Ready, not
// being deleted, not recently evicted), which evictions are still awaited
// (disruptedPods, forgotten after 2 minutes), and the DisruptionAllowed
// condition (SufficientPods / InsufficientPods / SyncFailed).

import type { KubeObject } from '../../kinds/types';
import { rfc3339 } from '../../clock';
import { arr, isPodReady, rec, timeMs } from '../workloads';

/** DeletionTimeout: how long an evicted pod may take to show its deletion before the budget counts it again. */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;
export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const SUFFICIENT_PODS = 'SufficientPods';
export const INSUFFICIENT_PODS = 'InsufficientPods';
export const SYNC_FAILED = 'SyncFailed';

export interface PdbStatus {
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  observedGeneration?: number;
  conditions?: Record<string, unknown>[];
}

/** intstr.GetScaledValueFromIntOrPercent. */
export function scaledValue(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    if (!value.endsWith('%')) throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
    const digits = value.slice(0, -1);
    if (!/^[+-]?\d+$/.test(digits)) throw new Error(`invalid value for IntOrString: invalid value ${JSON.stringify(value)}: strconv.Atoi: parsing ${JSON.stringify(digits)}: invalid syntax`);
    const exact = (Number(digits) * total) / 100;
    return roundUp ? Math.ceil(exact) : Math.floor(exact);
  }
  throw new Error('invalid value for IntOrString: invalid type: neither int nor percentage');
}

export interface ExpectedCount {
  readonly expectedCount: number;
  readonly desiredHealthy: number;
  readonly unmanagedPods: string[];
}

/**
 * getExpectedPodCount. `expectedScale` sums the scale of the pods'
 * controllers (getExpectedScale) and names the pods without one.
 */
export async function expectedPodCount(
  pdb: KubeObject,
  pods: readonly KubeObject[],
  expectedScale: () => Promise<{ expectedCount: number; unmanagedPods: string[] }>,
): Promise<ExpectedCount> {
  const spec = rec(pdb.spec);
  const has = (v: unknown) => v !== undefined && v !== null;
  if (has(spec.maxUnavailable)) {
    const { expectedCount, unmanagedPods } = await expectedScale();
    const maxUnavailable = scaledValue(spec.maxUnavailable, expectedCount, true);
    return { expectedCount, desiredHealthy: Math.max(0, expectedCount - maxUnavailable), unmanagedPods };
  }
  if (has(spec.minAvailable)) {
    if (typeof spec.minAvailable === 'number') return { expectedCount: pods.length, desiredHealthy: spec.minAvailable, unmanagedPods: [] };
    const { expectedCount, unmanagedPods } = await expectedScale();
    return { expectedCount, desiredHealthy: scaledValue(spec.minAvailable, expectedCount, true), unmanagedPods };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}

/** buildDisruptedPodMap: evictions still awaited, and when to look again. */
export function buildDisruptedPodMap(pods: readonly KubeObject[], pdb: KubeObject, nowMs: number): { disrupted: Record<string, string>; recheckAt?: number; notDeleted: KubeObject[] } {
  const recorded = rec(rec(pdb.status).disruptedPods) as Record<string, unknown>;
  const disrupted: Record<string, string> = {};
  const notDeleted: KubeObject[] = [];
  let recheckAt: number | undefined;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    const name = pod.metadata?.name ?? '';
    const at = recorded[name];
    if (typeof at !== 'string') continue;
    const expectedDeletion = timeMs(at) + DELETION_TIMEOUT_MS;
    if (expectedDeletion < nowMs) notDeleted.push(pod);
    else {
      if (recheckAt === undefined || expectedDeletion < recheckAt) recheckAt = expectedDeletion;
      disrupted[name] = at;
    }
  }
  return recheckAt === undefined ? { disrupted, notDeleted } : { disrupted, recheckAt, notDeleted };
}

/** countHealthyPods: Ready, not being deleted, not awaiting an eviction. */
export function countHealthyPods(pods: readonly KubeObject[], disrupted: Record<string, string>, nowMs: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    const at = disrupted[pod.metadata?.name ?? ''];
    if (at !== undefined && timeMs(at) + DELETION_TIMEOUT_MS > nowMs) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/** meta.SetStatusCondition: the transition time moves only when the status changes. */
export function setStatusCondition(conditions: Record<string, unknown>[], cond: { type: string; status: string; reason: string; message: string; observedGeneration?: number }, nowMs: number): Record<string, unknown>[] {
  const out = conditions.map((c) => ({ ...c }));
  const existing = out.find((c) => c.type === cond.type);
  if (!existing) {
    out.push({ type: cond.type, status: cond.status, observedGeneration: cond.observedGeneration, lastTransitionTime: rfc3339(nowMs), reason: cond.reason, message: cond.message });
    return out;
  }
  if (existing.status !== cond.status) {
    existing.status = cond.status;
    existing.lastTransitionTime = rfc3339(nowMs);
  }
  existing.reason = cond.reason;
  existing.message = cond.message;
  existing.observedGeneration = cond.observedGeneration;
  return out;
}

/** UpdateDisruptionAllowedCondition: True/SufficientPods while disruptions are allowed, else False/InsufficientPods. */
export function withDisruptionAllowedCondition(status: PdbStatus, nowMs: number): PdbStatus {
  const allowed = status.disruptionsAllowed > 0;
  const conditions = setStatusCondition(
    status.conditions ?? [],
    {
      type: DISRUPTION_ALLOWED,
      status: allowed ? 'True' : 'False',
      reason: allowed ? SUFFICIENT_PODS : INSUFFICIENT_PODS,
      message: '',
      ...(status.observedGeneration !== undefined ? { observedGeneration: status.observedGeneration } : {}),
    },
    nowMs,
  );
  return { ...status, conditions };
}

/** ConditionsAreUpToDate. */
export function conditionsAreUpToDate(pdb: KubeObject): boolean {
  const status = rec(pdb.status);
  const cond = arr(status.conditions)
    .map(rec)
    .find((c) => c.type === DISRUPTION_ALLOWED);
  if (!cond) return false;
  if ((status.observedGeneration ?? 0) !== (pdb.metadata?.generation ?? 0)) return false;
  if (((status.disruptionsAllowed as number) ?? 0) > 0) return cond.status === 'True' && cond.reason === SUFFICIENT_PODS;
  return cond.status === 'False' && cond.reason === INSUFFICIENT_PODS;
}

/** Whether two disruptedPods maps are equal (nil and empty alike, as Semantic.DeepEqual of maps compares entries). */
export function sameDisrupted(a: unknown, b: Record<string, string>): boolean {
  const x = rec(a);
  const kx = Object.keys(x);
  return kx.length === Object.keys(b).length && kx.every((k) => x[k] === b[k]);
}
