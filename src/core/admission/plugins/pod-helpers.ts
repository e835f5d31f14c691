// Small typed views of the objects the pod plugins read and change.

import type { KubeObject } from '../../kinds/types';
import type { AdmissionAttributes } from '../types';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function objs(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isObj) : [];
}

/** Whether podOf answers a pod (without its side effect of giving the pod an empty spec). */
export function isPodRequest(attrs: AdmissionAttributes): boolean {
  return attrs.resource.group === '' && attrs.resource.resource === 'pods' && attrs.subresource === '' && !!attrs.object;
}

/** The pod being written, when the request is a write of the pods resource itself (no subresource). */
export function podOf(attrs: AdmissionAttributes): (KubeObject & { spec: Obj }) | undefined {
  if (attrs.resource.group !== '' || attrs.resource.resource !== 'pods' || attrs.subresource !== '') return undefined;
  const pod = attrs.object;
  if (!pod) return undefined;
  if (!isObj(pod['spec'])) pod['spec'] = {};
  return pod as KubeObject & { spec: Obj };
}

export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

export function isMirrorPod(pod: KubeObject): boolean {
  return pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;
}
