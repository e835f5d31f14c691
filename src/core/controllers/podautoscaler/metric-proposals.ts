// computeReplicasForMetrics of kube's HPA controller: one proposal per spec
// metric (resource and container-resource metrics from metrics.k8s.io; the
// custom and external metrics APIs are not served, so Pods, Object and
// External metrics fail as they do on a cluster without an adapter), the
// highest proposal winning, the status of each metric at its index, and
// ScalingActive set from the outcome with kube's reasons and messages.

import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import { errorMessage } from '../client/api-error';
import type { EventRecorder } from '../runtime/event-recorder';
import { setCondition, type HpaCondition } from './conditions';
import { MetricsError, resourceMetric } from './metrics-client';
import { milliQuantity, milliValue } from './quantities';
import { rawResourceReplicas, resourceReplicas } from './replica-calculator';

function rec(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
}

export interface ProposalContext {
  readonly client: ApiClient;
  readonly recorder: EventRecorder;
  readonly hpa: KubeObject;
  readonly conditions: HpaCondition[];
  readonly nowMs: number;
  readonly nowIso: string;
  /** The target's pods in the HPA's namespace that the scale's selector selects. */
  readonly pods: readonly KubeObject[];
  readonly selector: string;
  readonly specReplicas: number;
}

interface Failure {
  readonly reason: string;
  /** What the event and the ScalingActive condition say. */
  readonly error: string;
  /** The same wrapped with the metric's kind, as the "invalid metrics" summary quotes it. */
  readonly wrapped: string;
}

interface MetricOutcome {
  readonly replicas: number;
  readonly name: string;
  readonly status: Record<string, unknown>;
}

export interface ProposalsResult {
  /** -1 when no metric gave a usable proposal (or some failed and the rest would scale down). */
  readonly replicas: number;
  readonly metricName: string;
  readonly statuses: Record<string, unknown>[];
  readonly error?: string;
}

/** A resource or container-resource metric (computeStatusForResourceMetricGeneric). */
async function resourceProposal(ctx: ProposalContext, source: Record<string, unknown>, container: string): Promise<MetricOutcome> {
  const resource = String(source['name'] ?? '');
  const target = rec(source['target']);
  const namespace = ctx.hpa.metadata?.namespace ?? '';
  const containerSource = container !== '';
  const type = containerSource ? 'ContainerResource' : 'Resource';
  const field = containerSource ? 'containerResource' : 'resource';
  const statusOf = (current: Record<string, unknown>) => ({ type, [field]: containerSource ? { name: resource, current, container } : { name: resource, current } });
  if (target['averageValue'] !== undefined && target['averageValue'] !== null) {
    let result;
    try {
      const { metrics } = await resourceMetric(ctx.client, resource, namespace, ctx.selector, container);
      result = rawResourceReplicas({ nowMs: ctx.nowMs }, ctx.specReplicas, milliValue(target['averageValue']) ?? 0, resource, ctx.pods, metrics);
    } catch (err) {
      throw new Error(`failed to get ${resource} usage: ${prefixed(resource, err)}`);
    }
    return { replicas: result.replicas, name: `${resource} resource`, status: statusOf({ averageValue: milliQuantity(result.usage) }) };
  }
  if (target['averageUtilization'] === undefined || target['averageUtilization'] === null) {
    throw new Error('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set');
  }
  let result;
  try {
    const { metrics } = await resourceMetric(ctx.client, resource, namespace, ctx.selector, container);
    result = resourceReplicas({ nowMs: ctx.nowMs }, ctx.specReplicas, Number(target['averageUtilization']), resource, container, ctx.pods, metrics);
  } catch (err) {
    throw new Error(`failed to get ${resource} utilization: ${prefixed(resource, err)}`);
  }
  return {
    replicas: result.replicas,
    name: containerSource ? `${resource} container resource utilization (percentage of request)` : `${resource} resource utilization (percentage of request)`,
    status: statusOf({ averageUtilization: result.utilization, averageValue: milliQuantity(result.rawAverage) }),
  };
}

/** The metrics client's failures are reported as "unable to get metrics for resource …"; the calculator's as they are. */
function prefixed(resource: string, err: unknown): string {
  const text = errorMessage(err);
  return err instanceof MetricsError ? `unable to get metrics for resource ${resource}: ${text}` : text;
}

/** One spec metric: its proposal, or the failure kube records (event and ScalingActive condition). */
async function metricProposal(ctx: ProposalContext, spec: Record<string, unknown>): Promise<MetricOutcome | Failure> {
  const type = String(spec['type'] ?? '');
  try {
    switch (type) {
      case 'Resource':
        return await resourceProposal(ctx, rec(spec['resource']), '');
      case 'ContainerResource': {
        const source = rec(spec['containerResource']);
        return await resourceProposal(ctx, source, String(source['container'] ?? ''));
      }
    }
  } catch (err) {
    const resource = type === 'Resource';
    // kube names the resource of a Resource metric and the container of a ContainerResource one.
    const name = resource ? String(rec(spec['resource'])['name'] ?? '') : String(rec(spec['containerResource'])['container'] ?? '');
    return {
      reason: resource ? 'FailedGetResourceMetric' : 'FailedGetContainerResourceMetric',
      error: errorMessage(err),
      wrapped: `failed to get ${name} ${resource ? 'resource' : 'container'} metric value: ${errorMessage(err)}`,
    };
  }
  return unservedMetric(ctx, type, spec);
}

/** Pods, Object and External metrics need the custom or external metrics API, which KubeTab does not serve. */
function unservedMetric(ctx: ProposalContext, type: string, spec: Record<string, unknown>): Failure {
  const noCustom = 'unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered';
  const noExternal = 'unable to fetch metrics from external metrics API: no external metrics API (external.metrics.k8s.io) registered';
  const metricName = (source: unknown) => String(rec(rec(source)['metric'])['name'] ?? '');
  const failure = (reason: string, kind: string, error: string): Failure => ({ reason, error, wrapped: `failed to get ${kind} metric value: ${error}` });
  switch (type) {
    case 'Pods':
      return failure('FailedGetPodsMetric', 'pods', `unable to get metric ${metricName(spec['pods'])}: ${noCustom}`);
    case 'Object': {
      const object = rec(spec['object']);
      const ref = rec(object['describedObject']);
      return failure('FailedGetObjectMetric', 'object', `unable to get metric ${metricName(object)}: ${String(ref['kind'] ?? '')} on ${ctx.hpa.metadata?.namespace ?? ''} ${String(ref['name'] ?? '')}/${noCustom}`);
    }
    case 'External':
      return failure('FailedGetExternalMetric', 'external', `unable to get external metric ${ctx.hpa.metadata?.namespace ?? ''}/${metricName(spec['external'])}/nil: ${noExternal}`);
    default: {
      const error = `unknown metric source type "${type}"`;
      return { reason: 'InvalidMetricSourceType', error, wrapped: error };
    }
  }
}

export async function computeReplicasForMetrics(ctx: ProposalContext, specs: readonly Record<string, unknown>[]): Promise<ProposalsResult> {
  const statuses: Record<string, unknown>[] = specs.map(() => ({ type: '' }));
  let replicas = 0;
  let metricName = '';
  let invalid = 0;
  let first: Failure | undefined;
  for (const [i, spec] of specs.entries()) {
    const outcome = await metricProposal(ctx, spec);
    if ('error' in outcome) {
      // Each failing metric is reported as it fails (getUnableComputeReplicaCountCondition).
      ctx.recorder.emit(ctx.hpa, { type: 'Warning', reason: outcome.reason, message: outcome.error });
      first ??= outcome;
      invalid++;
      continue;
    }
    statuses[i] = outcome.status;
    if (replicas === 0 || outcome.replicas > replicas) {
      replicas = outcome.replicas;
      metricName = outcome.name;
    }
  }
  const error = first ? `invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${first.wrapped}` : undefined;
  if (specs.length > 0 && (invalid >= specs.length || (invalid > 0 && replicas < ctx.specReplicas))) {
    setCondition(ctx.conditions, 'ScalingActive', 'False', first!.reason, `the HPA was unable to compute the replica count: ${first!.error}`, ctx.nowIso);
    return { replicas: -1, metricName: '', statuses, ...(error ? { error } : {}) };
  }
  setCondition(ctx.conditions, 'ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${metricName}`, ctx.nowIso);
  return { replicas, metricName, statuses, ...(error ? { error } : {}) };
}
