// kube-controller-manager's horizontal pod autoscaler controller
// (pkg/controller/podautoscaler) for autoscaling/v2 HorizontalPodAutoscalers:
// every 15 s of cluster time (--horizontal-pod-autoscaler-sync-period) each
// HPA reads its target's scale subresource, its pods' usage from
// metrics.k8s.io (./metric-proposals.ts, ./replica-calculator.ts), turns the
// proposal into a replica count within min/max, the stabilization windows
// and the behavior's rate policies (./normalization.ts), updates the scale
// when it changed (event SuccessfulRescale "New size: N; reason: …") and
// writes status: currentReplicas, desiredReplicas, currentMetrics,
// lastScaleTime and the AbleToScale / ScalingActive / ScalingLimited
// conditions. Recommendations and scale events live in memory, as in kube.

import type { KubeObject } from '../../kinds/types';
import { parseLabelSelector } from '../../selectors';
import { errorMessage, isNotFound } from '../client/api-error';
import { discoverResources, type DiscoveredResource } from '../client/discovery';
import { objectKey } from '../client/informer';
import { parseApiVersion, type GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { ClockRequeue } from '../workloads';
import { setCondition, type HpaCondition } from './conditions';
import { computeReplicasForMetrics } from './metric-proposals';
import { DOWNSCALE_STABILIZATION_MS, newHistory, normalizeWithBehavior, normalizeWithoutBehavior, recordScaleEvent, type Behavior, type ScalingHistory, type ScalingRules } from './normalization';

export const HPA_CONTROLLER = 'horizontal-pod-autoscaler-controller';
export const HPAS: GroupVersionResource = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' };
const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
/** --horizontal-pod-autoscaler-sync-period */
export const HPA_SYNC_PERIOD_MS = 15_000;

function rec(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
}

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The API's defaults for a given behavior, for fields left out (GenerateHPAScaleUpRules / ScaleDownRules). */
function behaviorOf(spec: Record<string, unknown>): Behavior | undefined {
  const behavior = spec['behavior'];
  if (behavior === undefined || behavior === null) return undefined;
  const rules = (raw: unknown, up: boolean): ScalingRules => {
    const r = rec(raw);
    const policies = Array.isArray(r['policies']) ? (r['policies'] as Record<string, unknown>[]) : undefined;
    return {
      stabilizationWindowSeconds: num(r['stabilizationWindowSeconds'], up ? 0 : DOWNSCALE_STABILIZATION_MS / 1000),
      selectPolicy: typeof r['selectPolicy'] === 'string' ? r['selectPolicy'] : 'Max',
      policies: policies
        ? policies.map((p) => ({ type: String(p['type'] ?? ''), value: num(p['value'], 0), periodSeconds: num(p['periodSeconds'], 0) }))
        : up
          ? [
              { type: 'Pods', value: 4, periodSeconds: 15 },
              { type: 'Percent', value: 100, periodSeconds: 15 },
            ]
          : [{ type: 'Percent', value: 100, periodSeconds: 15 }],
    };
  };
  return { scaleUp: rules(rec(behavior)['scaleUp'], true), scaleDown: rules(rec(behavior)['scaleDown'], false) };
}

export function horizontalPodAutoscalerController(ctx: ControllerContext): Controller {
  const hpas = ctx.informers.for(HPAS);
  const pods = ctx.informers.for(PODS);
  const recorder = ctx.recorder('horizontal-pod-autoscaler');
  const histories = new Map<string, ScalingHistory>();
  const unsubscribe: (() => void)[] = [];
  let discovered: readonly DiscoveredResource[] | undefined;

  /** The scalable resource of a scaleTargetRef (the REST mapping), reading discovery again once when the kind is unknown. */
  async function targetResource(apiVersion: string, kind: string): Promise<DiscoveredResource> {
    const { group, version } = parseApiVersion(apiVersion);
    const find = (all: readonly DiscoveredResource[]) => {
      const candidates = all.filter((r) => r.group === group && r.kind === kind && !r.resource.includes('/'));
      return candidates.find((r) => r.version === version) ?? candidates.find((r) => r.preferred) ?? candidates[0];
    };
    let found = discovered ? find(discovered) : undefined;
    if (!found) {
      discovered = (await discoverResources(ctx.client)).resources;
      found = find(discovered);
    }
    if (!found) throw new Error(`no matches for kind "${kind}" in group "${group}"`);
    return found;
  }

  async function reconcile(hpa: KubeObject): Promise<void> {
    const key = objectKey(hpa);
    const namespace = hpa.metadata?.namespace ?? '';
    const spec = rec(hpa['spec']);
    const ref = rec(spec['scaleTargetRef']);
    const originalStatus = JSON.stringify(hpa['status'] ?? {});
    const status = structuredClone(rec(hpa['status']));
    const conditions: HpaCondition[] = Array.isArray(status['conditions']) ? (status['conditions'] as HpaCondition[]) : [];
    status['conditions'] = conditions;
    const nowMs = ctx.clock.now();
    const nowIso = rfc3339(nowMs);
    const minReplicas = num(spec['minReplicas'], 1);
    const maxReplicas = num(spec['maxReplicas'], 0);

    const writeStatus = async (): Promise<void> => {
      if (JSON.stringify(status) === originalStatus) return;
      try {
        await ctx.client.update(HPAS, namespace, { ...hpa, status }, 'status');
      } catch (err) {
        if (isNotFound(err)) return;
        recorder.emit(hpa, { type: 'Warning', reason: 'FailedUpdateStatus', message: errorMessage(err) });
        throw err;
      }
    };

    // The target's scale.
    let target: DiscoveredResource;
    let scale: KubeObject;
    try {
      target = await targetResource(String(ref['apiVersion'] ?? ''), String(ref['kind'] ?? ''));
      scale = await ctx.client.get(target, namespace, String(ref['name'] ?? ''), 'scale');
    } catch (err) {
      const message = errorMessage(err);
      recorder.emit(hpa, { type: 'Warning', reason: 'FailedGetScale', message });
      setCondition(conditions, 'AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${message}`, nowIso);
      await writeStatus();
      return;
    }
    setCondition(conditions, 'AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale", nowIso);
    const currentReplicas = num(rec(scale['spec'])['replicas'], 0);
    let history = histories.get(key);
    if (!history) {
      history = newHistory();
      history.recommendations.push({ replicas: currentReplicas, atMs: nowMs });
      histories.set(key, history);
    }

    let desiredReplicas = 0;
    let rescaleReason = '';
    let metricStatuses: Record<string, unknown>[] | undefined;
    let rescale = true;
    const behavior = behaviorOf(spec);
    if (currentReplicas === 0 && minReplicas !== 0) {
      // Scaled to zero by hand: the HPA stands aside.
      desiredReplicas = 0;
      rescale = false;
      setCondition(conditions, 'ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero', nowIso);
    } else if (currentReplicas > maxReplicas) {
      rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
      desiredReplicas = maxReplicas;
    } else if (currentReplicas < minReplicas) {
      rescaleReason = 'Current number of replicas below Spec.MinReplicas';
      desiredReplicas = minReplicas;
    } else {
      const selectorText = String(rec(scale['status'])['selector'] ?? '');
      const selected = selectPods(hpa, selectorText, conditions, nowIso);
      if (!selected) {
        await writeStatus();
        return;
      }
      const specs = Array.isArray(spec['metrics']) ? (spec['metrics'] as Record<string, unknown>[]) : [];
      const proposals = await computeReplicasForMetrics(
        { client: ctx.client, recorder, hpa, conditions, nowMs, nowIso, pods: selected, selector: selectorText, specReplicas: currentReplicas },
        specs,
      );
      metricStatuses = proposals.statuses;
      if (proposals.replicas === -1) {
        Object.assign(status, { currentReplicas, currentMetrics: metricStatuses });
        await writeStatus();
        recorder.emit(hpa, { type: 'Warning', reason: 'FailedComputeMetricsReplicas', message: proposals.error ?? '' });
        return;
      }
      let rescaleMetric = '';
      if (proposals.replicas > desiredReplicas) {
        desiredReplicas = proposals.replicas;
        rescaleMetric = proposals.metricName;
      }
      if (desiredReplicas > currentReplicas) rescaleReason = `${rescaleMetric} above target`;
      if (desiredReplicas < currentReplicas) rescaleReason = 'All metrics below target';
      const normalized = behavior
        ? normalizeWithBehavior(history, nowMs, currentReplicas, desiredReplicas, minReplicas, maxReplicas, behavior)
        : normalizeWithoutBehavior(history, nowMs, currentReplicas, desiredReplicas, minReplicas, maxReplicas);
      setCondition(conditions, 'AbleToScale', normalized.ableToScale.status, normalized.ableToScale.reason, normalized.ableToScale.message, nowIso);
      setCondition(conditions, 'ScalingLimited', normalized.scalingLimited.status, normalized.scalingLimited.reason, normalized.scalingLimited.message, nowIso);
      desiredReplicas = normalized.replicas;
      rescale = desiredReplicas !== currentReplicas;
    }

    if (rescale) {
      try {
        await ctx.client.update(target, namespace, { ...scale, spec: { ...rec(scale['spec']), replicas: desiredReplicas } }, 'scale');
      } catch (err) {
        const message = errorMessage(err);
        recorder.emit(hpa, { type: 'Warning', reason: 'FailedRescale', message: `New size: ${desiredReplicas}; reason: ${rescaleReason}; error: ${message}` });
        setCondition(conditions, 'AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${message}`, nowIso);
        Object.assign(status, { currentReplicas });
        setMetrics(status, metricStatuses);
        await writeStatus();
        throw err;
      }
      setCondition(conditions, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desiredReplicas}`, nowIso);
      recorder.emit(hpa, { type: 'Normal', reason: 'SuccessfulRescale', message: `New size: ${desiredReplicas}; reason: ${rescaleReason}` });
      recordScaleEvent(history, behavior, currentReplicas, desiredReplicas, nowMs);
      status['lastScaleTime'] = nowIso;
    } else {
      desiredReplicas = currentReplicas;
    }
    status['currentReplicas'] = currentReplicas;
    status['desiredReplicas'] = desiredReplicas;
    setMetrics(status, metricStatuses);
    await writeStatus();
  }

  /** currentMetrics as setStatus writes it: absent when no metric was computed. */
  function setMetrics(status: Record<string, unknown>, statuses: Record<string, unknown>[] | undefined): void {
    if (statuses && statuses.length) status['currentMetrics'] = statuses;
    else delete status['currentMetrics'];
  }

  /** validateAndParseSelector: the target's pods, or undefined after recording why there are none to look at. */
  function selectPods(hpa: KubeObject, selectorText: string, conditions: HpaCondition[], nowIso: string): KubeObject[] | undefined {
    if (!selectorText) {
      recorder.emit(hpa, { type: 'Warning', reason: 'SelectorRequired', message: 'selector is required' });
      setCondition(conditions, 'ScalingActive', 'False', 'InvalidSelector', "the HPA target's scale is missing a selector", nowIso);
      return undefined;
    }
    let selector;
    try {
      selector = parseLabelSelector(selectorText);
    } catch (err) {
      const message = `couldn't convert selector into a corresponding internal selector object: ${errorMessage(err)}`;
      recorder.emit(hpa, { type: 'Warning', reason: 'InvalidSelector', message });
      setCondition(conditions, 'ScalingActive', 'False', 'InvalidSelector', message, nowIso);
      return undefined;
    }
    return pods.list(hpa.metadata?.namespace ?? '').filter((p) => selector.matches(p.metadata?.labels ?? {}));
  }

  const queue = new WorkQueue(
    HPA_CONTROLLER,
    ctx.activity,
    async (key) => {
      const slash = key.indexOf('/');
      const hpa = hpas.get(key.slice(0, slash), key.slice(slash + 1));
      if (!hpa || hpa.metadata?.deletionTimestamp) {
        histories.delete(key);
        requeue.forget(key);
        return;
      }
      // The next look, whatever this one finds (kube's fixed-interval resync of every HPA): a
      // failure is retried then, not at once, so that a failed status write never rescales twice.
      requeue.after(key, HPA_SYNC_PERIOD_MS);
      try {
        await reconcile(hpa);
      } catch (err) {
        ctx.log(`failed to reconcile HorizontalPodAutoscaler ${key}: ${errorMessage(err)}`);
      }
    },
    ctx.log,
  );
  const requeue = new ClockRequeue(ctx.timers, (key) => queue.add(key));
  // kube adds every HPA with the sync period's delay, and drops a request for one already waiting:
  // a new HPA is first looked at 15 s after it appears, a spec change at its next resync.
  const enqueue = (hpa: KubeObject) => requeue.after(objectKey(hpa), HPA_SYNC_PERIOD_MS);

  return {
    name: HPA_CONTROLLER,
    start() {
      void Promise.all([hpas.synced, pods.synced]).then(() => {
        unsubscribe.push(
          hpas.addHandler({
            onAdd: enqueue,
            onUpdate: (_old, cur) => enqueue(cur),
            // Forgotten at once: its recommendations and pending resync go with it.
            onDelete: (hpa) => queue.add(objectKey(hpa)),
          }),
        );
        for (const hpa of hpas.list()) enqueue(hpa);
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      requeue.stop();
      await queue.stop();
    },
  };
}
