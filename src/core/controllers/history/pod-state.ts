// What the StatefulSet and DaemonSet controllers read from a pod, as kube's
// podutil helpers do (IsPodReady, IsPodAvailable, IsPodTerminal), and the pod
// a workload creates from its template (controller.GetPodFromTemplate).
// Kept beside the revision helpers until a shared workloads package offers
// the same (both controllers use them).

import type { KubeObject, OwnerReference } from '../../kinds/types';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

export const podPhase = (pod: KubeObject): string => (typeof rec(pod.status).phase === 'string' ? (rec(pod.status).phase as string) : '');

function readyCondition(pod: KubeObject): Obj | undefined {
  const conditions = rec(pod.status).conditions;
  return Array.isArray(conditions) ? conditions.map(rec).find((c) => c.type === 'Ready') : undefined;
}

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: KubeObject): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** When a ready pod counts as available (its Ready transition plus minReadySeconds), or undefined when it is not ready. */
export function availableFromMs(pod: KubeObject, minReadySeconds: number): number | undefined {
  const c = readyCondition(pod);
  if (c?.status !== 'True') return undefined;
  if (!minReadySeconds) return -Infinity;
  const since = typeof c.lastTransitionTime === 'string' ? Date.parse(c.lastTransitionTime) : NaN;
  return Number.isNaN(since) ? Infinity : since + minReadySeconds * 1000;
}

/** podutil.IsPodAvailable: ready for at least minReadySeconds (strictly after, as kube compares). */
export function isPodAvailable(pod: KubeObject, minReadySeconds: number, nowMs: number): boolean {
  const from = availableFromMs(pod, minReadySeconds);
  if (from === undefined) return false;
  return minReadySeconds ? from < nowMs : true;
}

/** podutil.IsPodTerminal: Failed or Succeeded. */
export function isPodTerminal(pod: KubeObject): boolean {
  const phase = podPhase(pod);
  return phase === 'Failed' || phase === 'Succeeded';
}

/** controller.GetPodFromTemplate: labels, annotations and finalizers of the template, `<owner>-` as generateName, the controller reference, the template's spec. */
export function podFromTemplate(template: unknown, ownerName: string, controllerRef: OwnerReference | undefined): KubeObject {
  const t = rec(template);
  const meta = rec(t.metadata);
  const metadata: KubeObject['metadata'] = { generateName: `${ownerName}-` };
  if (meta.labels) metadata.labels = { ...(meta.labels as Record<string, string>) };
  if (meta.annotations) metadata.annotations = { ...(meta.annotations as Record<string, string>) };
  if (Array.isArray(meta.finalizers) && meta.finalizers.length > 0) metadata.finalizers = [...(meta.finalizers as string[])];
  if (controllerRef) metadata.ownerReferences = [{ ...controllerRef }];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: structuredClone(rec(t.spec)) };
}
