// The replica calculator of kube-controller-manager's HPA controller, as
// pure functions over the target's pods and their metrics: pods are sorted
// into ready, unready (Pending, or for cpu not yet Ready / still warming up),
// missing (no metrics) and ignored (deleting or Failed); the usage ratio is
// taken over the ready pods; within the tolerance (10 %) nothing changes;
// otherwise missing and unready pods are counted conservatively (as using
// their whole request on a scale-down, nothing on a scale-up) and a change
// of direction caused by them cancels the change.

import type { KubeObject } from '../../kinds/types';
import { milliValue } from './quantities';

/** --horizontal-pod-autoscaler-tolerance */
export const TOLERANCE = 0.1;
/** --horizontal-pod-autoscaler-cpu-initialization-period */
export const CPU_INITIALIZATION_PERIOD_MS = 5 * 60_000;
/** --horizontal-pod-autoscaler-initial-readiness-delay */
export const INITIAL_READINESS_DELAY_MS = 30_000;

export interface PodMetric {
  readonly timestampMs: number;
  readonly windowMs: number;
  /** Milli-units: millicores, or bytes × 1000. */
  readonly value: number;
}

/** Metrics by pod name. */
export type PodMetricsInfo = Map<string, PodMetric>;

export interface CalculatorContext {
  readonly nowMs: number;
  readonly tolerance?: number;
}

export class CalculationError extends Error {}

function rec(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
}

function timeMs(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

interface Groups {
  readyPodCount: number;
  unready: Set<string>;
  missing: Set<string>;
  ignored: Set<string>;
}

export function groupPods(pods: readonly KubeObject[], metrics: PodMetricsInfo, resource: string, nowMs: number): Groups {
  const groups: Groups = { readyPodCount: 0, unready: new Set(), missing: new Set(), ignored: new Set() };
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    const status = rec(pod['status']);
    if (pod.metadata?.deletionTimestamp || status['phase'] === 'Failed') {
      groups.ignored.add(name);
      continue;
    }
    if (status['phase'] === 'Pending') {
      groups.unready.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      groups.missing.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const ready = (Array.isArray(status['conditions']) ? (status['conditions'] as Record<string, unknown>[]) : []).find((c) => c['type'] === 'Ready');
      const startTime = timeMs(status['startTime']);
      let unready: boolean;
      if (!ready || startTime === undefined) unready = true;
      else {
        const transition = timeMs(ready['lastTransitionTime']) ?? 0;
        if (startTime + CPU_INITIALIZATION_PERIOD_MS > nowMs) {
          // Still starting: a sample counts once a whole window was taken after the pod became ready.
          unready = ready['status'] === 'False' || metric.timestampMs < transition + metric.windowMs;
        } else {
          // Later on, only a pod that has never been ready is left out.
          unready = ready['status'] === 'False' && startTime + INITIAL_READINESS_DELAY_MS > transition;
        }
      }
      if (unready) {
        groups.unready.add(name);
        continue;
      }
    }
    groups.readyPodCount++;
  }
  return groups;
}

/** Each pod's request for the resource in milli-units (its containers, and restartable init containers), by pod name. */
export function podRequests(pods: readonly KubeObject[], container: string, resource: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const pod of pods) {
    const spec = rec(pod['spec']);
    const containers = [
      ...(Array.isArray(spec['containers']) ? (spec['containers'] as Record<string, unknown>[]) : []),
      ...(Array.isArray(spec['initContainers']) ? (spec['initContainers'] as Record<string, unknown>[]) : []).filter((c) => c['restartPolicy'] === 'Always'),
    ];
    let sum = 0;
    for (const c of containers) {
      if (container && c['name'] !== container) continue;
      const request = milliValue(rec(rec(c['resources'])['requests'])[resource]);
      if (request === undefined) throw new CalculationError(`missing request for ${resource} in container ${String(c['name'] ?? '')} of Pod ${pod.metadata?.name ?? ''}`);
      sum += request;
    }
    out.set(pod.metadata?.name ?? '', sum);
  }
  return out;
}

/** Utilization against requests: the ratio to the target, the utilization (whole percent) and the average raw value (milli). */
export function utilizationRatio(metrics: PodMetricsInfo, requests: Map<string, number>, targetUtilization: number): { ratio: number; utilization: number; rawAverage: number } {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let entries = 0;
  for (const [name, metric] of metrics) {
    const request = requests.get(name);
    if (request === undefined) continue;
    metricsTotal += metric.value;
    requestsTotal += request;
    entries++;
  }
  if (requestsTotal === 0) throw new CalculationError('no metrics returned matched known pods');
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ratio: utilization / targetUtilization, utilization, rawAverage: Math.trunc(metricsTotal / entries) };
}

function usageRatio(metrics: PodMetricsInfo, targetUsage: number): { ratio: number; usage: number } {
  let total = 0;
  for (const m of metrics.values()) total += m.value;
  const usage = Math.trunc(total / metrics.size);
  return { ratio: usage / targetUsage, usage };
}

function withoutPods(metrics: PodMetricsInfo, names: Iterable<string>): PodMetricsInfo {
  const out = new Map(metrics);
  for (const n of names) out.delete(n);
  return out;
}

/**
 * The conservative second pass, shared by utilization and raw-value targets:
 * `fill` gives the value assumed for a missing pod on a scale-down.
 */
function adjust(
  currentReplicas: number,
  first: number,
  metrics: PodMetricsInfo,
  groups: Groups,
  tolerance: number,
  readyPodCount: number,
  fillDown: (name: string) => number,
  ratioOf: (m: PodMetricsInfo) => number,
): number {
  const scaleUpWithUnready = groups.unready.size > 0 && first > 1;
  if (!scaleUpWithUnready && groups.missing.size === 0) {
    if (Math.abs(1 - first) <= tolerance) return currentReplicas;
    return Math.ceil(first * readyPodCount);
  }
  const adjusted = new Map(metrics);
  if (groups.missing.size > 0) {
    if (first < 1) for (const name of groups.missing) adjusted.set(name, { timestampMs: 0, windowMs: 0, value: fillDown(name) });
    else if (first > 1) for (const name of groups.missing) adjusted.set(name, { timestampMs: 0, windowMs: 0, value: 0 });
  }
  if (scaleUpWithUnready) for (const name of groups.unready) adjusted.set(name, { timestampMs: 0, windowMs: 0, value: 0 });
  const second = ratioOf(adjusted);
  if (Math.abs(1 - second) <= tolerance || (first < 1 && second > 1) || (first > 1 && second < 1)) return currentReplicas;
  const proposed = Math.ceil(second * adjusted.size);
  if ((second < 1 && proposed > currentReplicas) || (second > 1 && proposed < currentReplicas)) return currentReplicas;
  return proposed;
}

export interface UtilizationProposal {
  readonly replicas: number;
  readonly utilization: number;
  readonly rawAverage: number;
}

/** GetResourceReplicas: a target utilization (percent of request). */
export function resourceReplicas(
  ctx: CalculatorContext,
  currentReplicas: number,
  targetUtilization: number,
  resource: string,
  container: string,
  pods: readonly KubeObject[],
  allMetrics: PodMetricsInfo,
): UtilizationProposal {
  if (pods.length === 0) throw new CalculationError('no pods returned by selector while calculating replica count');
  const groups = groupPods(pods, allMetrics, resource, ctx.nowMs);
  const metrics = withoutPods(withoutPods(allMetrics, groups.ignored), groups.unready);
  if (metrics.size === 0) throw new CalculationError('did not receive metrics for targeted pods (pods might be unready)');
  const requests = podRequests(pods, container, resource);
  const { ratio, utilization, rawAverage } = utilizationRatio(metrics, requests, targetUtilization);
  const fallback = Math.max(100, targetUtilization);
  const replicas = adjust(
    currentReplicas,
    ratio,
    metrics,
    groups,
    ctx.tolerance ?? TOLERANCE,
    groups.readyPodCount,
    (name) => Math.trunc(((requests.get(name) ?? 0) * fallback) / 100),
    (m) => utilizationRatio(m, requests, targetUtilization).ratio,
  );
  return { replicas, utilization, rawAverage };
}

/** GetRawResourceReplicas: a target average value per pod (milli-units). */
export function rawResourceReplicas(
  ctx: CalculatorContext,
  currentReplicas: number,
  targetUsage: number,
  resource: string,
  pods: readonly KubeObject[],
  allMetrics: PodMetricsInfo,
): { replicas: number; usage: number } {
  if (pods.length === 0) throw new CalculationError('no pods returned by selector while calculating replica count');
  const groups = groupPods(pods, allMetrics, resource, ctx.nowMs);
  const metrics = withoutPods(withoutPods(allMetrics, groups.ignored), groups.unready);
  if (metrics.size === 0) throw new CalculationError('did not receive metrics for targeted pods (pods might be unready)');
  const { ratio, usage } = usageRatio(metrics, targetUsage);
  const replicas = adjust(currentReplicas, ratio, metrics, groups, ctx.tolerance ?? TOLERANCE, groups.readyPodCount, () => targetUsage, (m) => usageRatio(m, targetUsage).ratio);
  return { replicas, usage };
}
