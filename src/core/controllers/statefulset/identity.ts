// A StatefulSet pod's identity, as kube's stateful_set_utils gives it: the
// name `<set>-<ordinal>`, the hostname and subdomain (the governing
// Service), the labels statefulset.kubernetes.io/pod-name and
// apps.kubernetes.io/pod-index, the revision label controller-revision-hash,
// and one PersistentVolumeClaim per volumeClaimTemplate, named
// `<claim>-<set>-<ordinal>`, mounted as the template's volume.

import type { KubeObject } from '../../kinds/types';
import { podFromTemplate } from '../history/pod-state';
import { isPodReady, isPodAvailable, newControllerRef, podPhase } from '../workloads';

export type Obj = Record<string, unknown>;
export const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export const STATEFUL_SET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
export const STATEFUL_SET_REVISION_LABEL = 'controller-revision-hash';
export const APPS_V1 = 'apps/v1';
export const STATEFUL_SET_KIND = 'StatefulSet';

const ORDINAL_NAME = /^(.*)-([0-9]+)$/;

/** getParentNameAndOrdinal: the set's name and the ordinal a pod's name carries (ordinal -1 when it carries none). */
export function parentAndOrdinal(podName: string): { parent: string; ordinal: number } {
  const m = ORDINAL_NAME.exec(podName);
  if (!m) return { parent: '', ordinal: -1 };
  const ordinal = Number.parseInt(m[2]!, 10);
  // strconv.ParseInt(…, 10, 32): beyond int32 the name has no ordinal.
  return { parent: m[1]!, ordinal: ordinal <= 2147483647 ? ordinal : -1 };
}

export const ordinalOf = (pod: KubeObject): number => parentAndOrdinal(pod.metadata?.name ?? '').ordinal;
export const replicasOf = (set: KubeObject): number => (typeof rec(set.spec).replicas === 'number' ? (rec(set.spec).replicas as number) : 1);
export const startOrdinal = (set: KubeObject): number => {
  const start = rec(rec(set.spec).ordinals).start;
  return typeof start === 'number' ? start : 0;
};
export const endOrdinal = (set: KubeObject): number => startOrdinal(set) + replicasOf(set) - 1;
export const minReadySeconds = (set: KubeObject): number => (typeof rec(set.spec).minReadySeconds === 'number' ? (rec(set.spec).minReadySeconds as number) : 0);

export function podInOrdinalRange(pod: KubeObject, set: KubeObject): boolean {
  const ord = ordinalOf(pod);
  return ord >= startOrdinal(set) && ord <= endOrdinal(set);
}

export const podName = (set: KubeObject, ordinal: number): string => `${set.metadata?.name ?? ''}-${ordinal}`;

export const claimName = (set: KubeObject, claimTemplate: KubeObject, ordinal: number): string => `${claimTemplate.metadata?.name ?? ''}-${set.metadata?.name ?? ''}-${ordinal}`;

export const claimTemplates = (set: KubeObject): KubeObject[] => arr(rec(set.spec).volumeClaimTemplates).map((c) => rec(c) as KubeObject);

/** isMemberOf: the pod's name says it belongs to the set. */
export const isMemberOf = (set: KubeObject, pod: KubeObject): boolean => parentAndOrdinal(pod.metadata?.name ?? '').parent === set.metadata?.name;

/** identityMatches: name, namespace and pod-name label are the set's for the pod's ordinal. */
export function identityMatches(set: KubeObject, pod: KubeObject): boolean {
  const { parent, ordinal } = parentAndOrdinal(pod.metadata?.name ?? '');
  return (
    ordinal >= 0 &&
    parent === set.metadata?.name &&
    pod.metadata?.name === podName(set, ordinal) &&
    pod.metadata?.namespace === set.metadata?.namespace &&
    pod.metadata?.labels?.[STATEFUL_SET_POD_NAME_LABEL] === pod.metadata?.name
  );
}

/** storageMatches: every claim template is mounted from the pod's own claim. */
export function storageMatches(set: KubeObject, pod: KubeObject): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  const volumes = new Map(arr(rec(pod.spec).volumes).map((v) => [rec(v).name as string, rec(v)]));
  return claimTemplates(set).every((t) => {
    const v = volumes.get(t.metadata?.name ?? '');
    return v !== undefined && rec(v.persistentVolumeClaim).claimName === claimName(set, t, ordinal);
  });
}

/** getPersistentVolumeClaims: the pod's claims by template name, labelled with the template's labels and the set's matchLabels. */
export function podClaims(set: KubeObject, pod: KubeObject): Map<string, KubeObject> {
  const ordinal = ordinalOf(pod);
  const matchLabels = rec(rec(rec(set.spec).selector).matchLabels) as Record<string, string>;
  const claims = new Map<string, KubeObject>();
  for (const template of claimTemplates(set)) {
    const claim = structuredClone(template);
    const metadata = { ...(claim.metadata ?? {}) };
    metadata.name = claimName(set, template, ordinal);
    metadata.namespace = set.metadata?.namespace;
    metadata.labels = { ...(metadata.labels ?? {}), ...matchLabels };
    claim.metadata = metadata;
    claim.apiVersion = 'v1';
    claim.kind = 'PersistentVolumeClaim';
    delete claim.status;
    claims.set(template.metadata?.name ?? '', claim);
  }
  return claims;
}

/** updateStorage: the claims' volumes first (in template order), then the pod's other volumes. */
export function withStorage(set: KubeObject, pod: KubeObject): KubeObject {
  const claims = podClaims(set, pod);
  const spec = { ...rec(pod.spec) };
  const volumes: unknown[] = [...claims].map(([name, claim]) => ({ name, persistentVolumeClaim: { claimName: claim.metadata?.name } }));
  for (const v of arr(spec.volumes)) if (!claims.has(rec(v).name as string)) volumes.push(v);
  if (volumes.length > 0) spec.volumes = volumes;
  return { ...pod, spec };
}

/** updateIdentity: name, namespace, and the pod-name and pod-index labels. */
export function withIdentity(set: KubeObject, pod: KubeObject): KubeObject {
  const ordinal = ordinalOf(pod);
  const name = podName(set, ordinal);
  const labels = { ...(pod.metadata?.labels ?? {}), [STATEFUL_SET_POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ordinal) };
  return { ...pod, metadata: { ...pod.metadata, name, namespace: set.metadata?.namespace, labels } };
}

/** newStatefulSetPod: the template's pod with the ordinal's identity, hostname, subdomain and claims. */
export function newStatefulSetPod(set: KubeObject, ordinal: number): KubeObject {
  const template = rec(set.spec).template;
  let pod = podFromTemplate(template, set.metadata?.name ?? '', newControllerRef(set, APPS_V1, STATEFUL_SET_KIND));
  pod.metadata = { ...pod.metadata, name: podName(set, ordinal) };
  pod = withIdentity(set, pod);
  const spec: Obj = { ...rec(pod.spec), hostname: pod.metadata?.name };
  const serviceName = rec(set.spec).serviceName;
  if (typeof serviceName === 'string' && serviceName) spec.subdomain = serviceName;
  pod.spec = spec;
  return withStorage(set, pod);
}

export const podRevision = (pod: KubeObject): string => pod.metadata?.labels?.[STATEFUL_SET_REVISION_LABEL] ?? '';

export function withRevision(pod: KubeObject, revision: string): KubeObject {
  return { ...pod, metadata: { ...pod.metadata, labels: { ...(pod.metadata?.labels ?? {}), [STATEFUL_SET_REVISION_LABEL]: revision } } };
}

// The pod states the controller's decisions read (a pod not yet created has no phase).
export const isCreated = (pod: KubeObject): boolean => podPhase(pod) !== '';
export const isPending = (pod: KubeObject): boolean => podPhase(pod) === 'Pending';
export const isFailed = (pod: KubeObject): boolean => podPhase(pod) === 'Failed';
export const isSucceeded = (pod: KubeObject): boolean => podPhase(pod) === 'Succeeded';
export const isTerminating = (pod: KubeObject): boolean => !!pod.metadata?.deletionTimestamp;
export const isRunningAndReady = (pod: KubeObject): boolean => podPhase(pod) === 'Running' && isPodReady(pod);
export const isRunningAndAvailable = (pod: KubeObject, minReady: number, nowMs: number): boolean => isPodAvailable(pod, minReady, nowMs);
export const isHealthy = (pod: KubeObject): boolean => isRunningAndReady(pod) && !isTerminating(pod);
