// HorizontalPodAutoscaler between autoscaling/v2 (the storage version) and
// autoscaling/v1: v1 knows only a CPU utilization target; everything else
// travels in the annotations kube uses for round trips
// (autoscaling.alpha.kubernetes.io/metrics, …/current-metrics, …/conditions, …/behavior).

import type { KubeObject } from '../../types';
import { clone } from '../common/strategy';
import { arr, rec } from '../common/table';

type Obj = Record<string, unknown>;

const METRICS = 'autoscaling.alpha.kubernetes.io/metrics';
const CURRENT_METRICS = 'autoscaling.alpha.kubernetes.io/current-metrics';
const CONDITIONS = 'autoscaling.alpha.kubernetes.io/conditions';
const BEHAVIOR = 'autoscaling.alpha.kubernetes.io/behavior';

function isCpuUtilization(m: Obj): boolean {
  const r = rec(m.resource);
  return m.type === 'Resource' && r.name === 'cpu' && rec(r.target).type === 'Utilization' && rec(r.target).averageUtilization !== undefined;
}

export function hpaV2ToV1(obj: KubeObject): KubeObject {
  const out = clone(obj);
  out.apiVersion = 'autoscaling/v1';
  const spec = rec(out.spec);
  const status = rec(out.status);
  const annotations: Record<string, string> = { ...(out.metadata?.annotations ?? {}) };
  const metrics = arr(spec.metrics).map(rec);
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter((m) => m !== cpu);
  const v1Spec: Obj = { scaleTargetRef: spec.scaleTargetRef, maxReplicas: spec.maxReplicas };
  if (spec.minReplicas !== undefined) v1Spec.minReplicas = spec.minReplicas;
  if (cpu) v1Spec.targetCPUUtilizationPercentage = rec(rec(cpu.resource).target).averageUtilization;
  if (others.length) annotations[METRICS] = JSON.stringify(others);
  if (spec.behavior !== undefined && spec.behavior !== null) annotations[BEHAVIOR] = JSON.stringify(spec.behavior);
  out.spec = v1Spec;
  if (out.status !== undefined) {
    const current = arr(status.currentMetrics).map(rec);
    const currentCpu = current.find((m) => m.type === 'Resource' && rec(m.resource).name === 'cpu');
    const v1Status: Obj = { currentReplicas: status.currentReplicas ?? 0, desiredReplicas: status.desiredReplicas ?? 0 };
    if (status.observedGeneration !== undefined) v1Status.observedGeneration = status.observedGeneration;
    if (status.lastScaleTime !== undefined) v1Status.lastScaleTime = status.lastScaleTime;
    const utilization = rec(rec(currentCpu?.resource).current).averageUtilization;
    if (utilization !== undefined) v1Status.currentCPUUtilizationPercentage = utilization;
    const otherCurrent = current.filter((m) => m !== currentCpu);
    if (otherCurrent.length) annotations[CURRENT_METRICS] = JSON.stringify(otherCurrent);
    if (arr(status.conditions).length) annotations[CONDITIONS] = JSON.stringify(status.conditions);
    out.status = v1Status;
  }
  if (Object.keys(annotations).length) out.metadata = { ...(out.metadata ?? {}), annotations };
  return out;
}

function takeJSON(annotations: Record<string, string>, key: string): unknown {
  const text = annotations[key];
  delete annotations[key];
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function hpaV1ToV2(obj: KubeObject): KubeObject {
  const out = clone(obj);
  out.apiVersion = 'autoscaling/v2';
  const spec = rec(out.spec);
  const status = out.status === undefined ? undefined : rec(out.status);
  const annotations: Record<string, string> = { ...(out.metadata?.annotations ?? {}) };
  const metrics: Obj[] = [];
  if (spec.targetCPUUtilizationPercentage !== undefined && spec.targetCPUUtilizationPercentage !== null) {
    metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } });
  }
  metrics.push(...arr(takeJSON(annotations, METRICS)).map(rec));
  const v2Spec: Obj = { scaleTargetRef: spec.scaleTargetRef, maxReplicas: spec.maxReplicas };
  if (spec.minReplicas !== undefined) v2Spec.minReplicas = spec.minReplicas;
  if (metrics.length) v2Spec.metrics = metrics;
  const behavior = takeJSON(annotations, BEHAVIOR);
  if (behavior !== undefined) v2Spec.behavior = behavior;
  out.spec = v2Spec;
  const currentExtra = arr(takeJSON(annotations, CURRENT_METRICS)).map(rec);
  const conditions = takeJSON(annotations, CONDITIONS);
  if (status) {
    const v2Status: Obj = { currentReplicas: status.currentReplicas ?? 0, desiredReplicas: status.desiredReplicas ?? 0 };
    if (status.observedGeneration !== undefined) v2Status.observedGeneration = status.observedGeneration;
    if (status.lastScaleTime !== undefined) v2Status.lastScaleTime = status.lastScaleTime;
    const current: Obj[] = [];
    if (status.currentCPUUtilizationPercentage !== undefined && status.currentCPUUtilizationPercentage !== null) {
      current.push({ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } });
    }
    current.push(...currentExtra);
    if (current.length) v2Status.currentMetrics = current;
    if (arr(conditions).length) v2Status.conditions = conditions;
    out.status = v2Status;
  }
  if (out.metadata) {
    if (Object.keys(annotations).length) out.metadata.annotations = annotations;
    else delete out.metadata.annotations;
  }
  return out;
}
