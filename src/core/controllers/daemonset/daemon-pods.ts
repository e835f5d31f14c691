// The pods a DaemonSet creates and how it tells new from old: the template
// with the daemon tolerations, the label controller-revision-hash (the
// current revision's hash) and, while the server keeps the deprecated
// template generation annotation, pod-template-generation. A pod is updated
// when either label matches (util.IsPodUpdated). maxUnavailable and maxSurge
// are counted against the nodes that should run a pod, percentages rounded
// up (util.UnavailableCount, util.SurgeCount).

import type { KubeObject } from '../../kinds/types';
import { rec, withDaemonTolerations } from './node-eligibility';

export const DAEMON_SET_REVISION_LABEL = 'controller-revision-hash';
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

/** util.GetTemplateGeneration: the annotation's number, or undefined (absent or unparsable). */
export function templateGeneration(ds: KubeObject): number | undefined {
  const raw = ds.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  if (raw === undefined || !/^-?\d+$/.test(raw)) return undefined;
  return Number(raw);
}

/** util.CreatePodTemplate. */
export function daemonPodTemplate(template: unknown, generation: number | undefined, hash: string): Record<string, unknown> {
  const t = structuredClone(rec(template));
  t.spec = withDaemonTolerations(rec(t.spec));
  const metadata = rec(t.metadata);
  const labels = { ...(rec(metadata.labels) as Record<string, string>) };
  if (generation !== undefined) labels[TEMPLATE_GENERATION_LABEL] = String(generation);
  if (hash) labels[DAEMON_SET_REVISION_LABEL] = hash;
  t.metadata = { ...metadata, labels };
  return t;
}

/** util.IsPodUpdated. */
export function isPodUpdated(pod: KubeObject, hash: string, generation: number | undefined): boolean {
  const labels = pod.metadata?.labels ?? {};
  const templateMatches = generation !== undefined && labels[TEMPLATE_GENERATION_LABEL] === String(generation);
  const hashMatches = hash.length > 0 && labels[DAEMON_SET_REVISION_LABEL] === hash;
  return hashMatches || templateMatches;
}

/** intstr.GetScaledValueFromIntOrPercent with rounding up. */
function scaledUp(value: unknown, total: number): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^[0-9]+%$/.test(value)) return Math.ceil((Number(value.slice(0, -1)) * total) / 100);
  if (typeof value === 'string' && /^[0-9]+$/.test(value)) return Number(value);
  return 0;
}

const rollingUpdate = (ds: KubeObject) => {
  const strategy = rec(rec(ds.spec).updateStrategy);
  return strategy.type === 'RollingUpdate' && strategy.rollingUpdate ? rec(strategy.rollingUpdate) : undefined;
};

/** util.AllowsSurge: a rolling update with a non-zero maxSurge. */
export function allowsSurge(ds: KubeObject): boolean {
  const ru = rollingUpdate(ds);
  return ru !== undefined && ru.maxSurge !== undefined && ru.maxSurge !== null && scaledUp(ru.maxSurge, 1) !== 0;
}

export function surgeCount(ds: KubeObject, desired: number): number {
  if (!allowsSurge(ds)) return 0;
  return scaledUp(rollingUpdate(ds)!.maxSurge, desired);
}

export function unavailableCount(ds: KubeObject, desired: number): number {
  const ru = rollingUpdate(ds);
  if (!ru) return 0;
  return scaledUp(ru.maxUnavailable, desired);
}

/** podByCreationTimestampAndPhase: scheduled pods first, then the oldest, then by name. */
export function byCreationAndPhase(a: KubeObject, b: KubeObject): number {
  const an = !!rec(a.spec).nodeName;
  const bn = !!rec(b.spec).nodeName;
  if (an !== bn) return an ? -1 : 1;
  const at = Date.parse(a.metadata?.creationTimestamp ?? '') || 0;
  const bt = Date.parse(b.metadata?.creationTimestamp ?? '') || 0;
  if (at !== bt) return at - bt;
  const aName = a.metadata?.name ?? '';
  const bName = b.metadata?.name ?? '';
  return aName < bName ? -1 : aName > bName ? 1 : 0;
}
