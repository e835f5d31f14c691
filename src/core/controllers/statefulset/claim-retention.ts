// persistentVolumeClaimRetentionPolicy (StatefulSetAutoDeletePVC, beta and on
// in 1.32) as owner references on a pod's claims, which the garbage collector
// then acts on: Retain/Retain — none; whenDeleted Delete — the set as
// controller; whenScaled Delete — the pod as controller once the pod is
// scaled away (its ordinal left the set's range); both — the set while the
// pod is in range, the pod after. References that look stale (right name, old
// uid) or another controller leave the claim alone, as kube does.

import type { KubeObject, OwnerReference } from '../../kinds/types';
import { APPS_V1, podInOrdinalRange, rec, STATEFUL_SET_KIND } from './identity';
import { newControllerRef } from '../workloads';

export interface RetentionPolicy {
  readonly whenDeleted: string;
  readonly whenScaled: string;
}

export function retentionPolicy(set: KubeObject): RetentionPolicy {
  const p = rec(rec(set.spec).persistentVolumeClaimRetentionPolicy);
  return { whenDeleted: typeof p.whenDeleted === 'string' ? p.whenDeleted : 'Retain', whenScaled: typeof p.whenScaled === 'string' ? p.whenScaled : 'Retain' };
}

const refs = (obj: KubeObject): OwnerReference[] => obj.metadata?.ownerReferences ?? [];

function matchesRef(ref: OwnerReference, obj: KubeObject, apiVersion: string, kind: string): boolean {
  return ref.apiVersion === apiVersion && ref.kind === kind && ref.name === obj.metadata?.name;
}
const isSetRef = (ref: OwnerReference, set: KubeObject) => matchesRef(ref, set, APPS_V1, STATEFUL_SET_KIND);
const isPodRef = (ref: OwnerReference, pod: KubeObject) => matchesRef(ref, pod, 'v1', 'Pod');

const hasOwnerRef = (target: KubeObject, owner: KubeObject): boolean => refs(target).some((r) => r.uid === owner.metadata?.uid);

/** hasStaleOwnerRef: a reference naming the object but with another uid. */
export function hasStaleOwnerRef(claim: KubeObject, owner: KubeObject, apiVersion: string, kind: string): boolean {
  const ref = refs(claim).find((r) => matchesRef(r, owner, apiVersion, kind));
  return ref !== undefined && ref.uid !== owner.metadata?.uid;
}

/** hasUnexpectedController: under a deleting policy, another controller (or a stale reference to ours) holds the claim. */
export function hasUnexpectedController(claim: KubeObject, set: KubeObject, pod: KubeObject): boolean {
  const policy = retentionPolicy(set);
  if (policy.whenScaled === 'Retain' && policy.whenDeleted === 'Retain') return false;
  for (const ref of refs(claim)) {
    if (isSetRef(ref, set)) {
      if (ref.uid !== set.metadata?.uid) return true;
      continue;
    }
    if (isPodRef(ref, pod)) {
      if (ref.uid !== pod.metadata?.uid) return true;
      continue;
    }
    if (ref.controller === true) return true;
  }
  return false;
}

function hasNonControllerOwner(claim: KubeObject, set: KubeObject, pod: KubeObject): boolean {
  return refs(claim).some((r) => (r.uid === set.metadata?.uid || r.uid === pod.metadata?.uid) && r.controller !== true);
}

/** isClaimOwnerUpToDate. */
export function isClaimOwnerUpToDate(claim: KubeObject, set: KubeObject, pod: KubeObject): boolean {
  if (hasStaleOwnerRef(claim, set, APPS_V1, STATEFUL_SET_KIND) || hasStaleOwnerRef(claim, pod, 'v1', 'Pod')) return true;
  if (hasUnexpectedController(claim, set, pod)) return !(hasOwnerRef(claim, set) || hasOwnerRef(claim, pod));
  if (hasNonControllerOwner(claim, set, pod)) return false;
  const policy = retentionPolicy(set);
  const scaledDown = !podInOrdinalRange(pod, set);
  const deleteScaled = policy.whenScaled === 'Delete';
  const deleteDeleted = policy.whenDeleted === 'Delete';
  if (!deleteScaled && !deleteDeleted) return !hasOwnerRef(claim, set) && !hasOwnerRef(claim, pod);
  if (!deleteScaled && deleteDeleted) return hasOwnerRef(claim, set) && !hasOwnerRef(claim, pod);
  if (deleteScaled && !deleteDeleted) return !hasOwnerRef(claim, set) && scaledDown === hasOwnerRef(claim, pod);
  return scaledDown !== hasOwnerRef(claim, set) && scaledDown === hasOwnerRef(claim, pod);
}

/** updateClaimOwnerRefForSetAndPod: the claim's references rewritten for the policy. */
export function claimWithPolicyRefs(claim: KubeObject, set: KubeObject, pod: KubeObject): KubeObject {
  const unexpected = hasUnexpectedController(claim, set, pod);
  let next = refs(claim).filter((r) => !isSetRef(r, set) && !isPodRef(r, pod));
  if (!unexpected) {
    const policy = retentionPolicy(set);
    const scaledDown = !podInOrdinalRange(pod, set);
    const add = (owner: KubeObject, apiVersion: string, kind: string) => {
      if (!next.some((r) => r.uid === owner.metadata?.uid)) next = [...next, newControllerRef(owner, apiVersion, kind)];
    };
    if (policy.whenDeleted === 'Delete' && (policy.whenScaled !== 'Delete' || !scaledDown)) add(set, APPS_V1, STATEFUL_SET_KIND);
    if (policy.whenScaled === 'Delete' && scaledDown) add(pod, 'v1', 'Pod');
  }
  const metadata = { ...claim.metadata };
  if (next.length > 0) metadata.ownerReferences = next;
  else delete metadata.ownerReferences;
  return { ...claim, metadata };
}
