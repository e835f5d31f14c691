// VolumeBinding, in part: the pod's claims must exist and not be going away,
// an unbound claim of Immediate binding mode keeps the pod waiting (the PV
// controller binds it first), a bound claim's volume must be reachable from
// the node (its nodeAffinity), and an unbound WaitForFirstConsumer claim is
// left to the PV controller — the scheduler only tells it, through the
// volume.kubernetes.io/selected-node annotation, where the pod went.
// Matching static volumes and provisioning capacity are not checked.

import type { KubeObject } from '../../kinds/types';
import { matchesTerm } from './node-affinity';
import type { NodeInfo } from './node-info';
import { arr, rec, str } from './objects';

export const ANNOTATION_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const ERR_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';
/** The 1.32 wording (1.33 renamed it "didn't match PersistentVolume's node affinity"). */
export const ERR_VOLUME_NODE_AFFINITY = 'node(s) had volume node affinity conflict';
export const ERR_VOLUME_MISSING_PV = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';

export interface VolumeObjects {
  claim(namespace: string, name: string): KubeObject | undefined;
  volume(name: string): KubeObject | undefined;
  storageClass(name: string): KubeObject | undefined;
}

export interface VolumeState {
  /** The PreFilter's rejection (every node), when there is one. */
  readonly rejection?: string;
  /** Bound claims' volume names. */
  readonly boundVolumes: readonly string[];
  /** Unbound WaitForFirstConsumer claims, to annotate with the chosen node. */
  readonly delayedClaims: readonly KubeObject[];
}

const NONE: VolumeState = { boundVolumes: [], delayedClaims: [] };

function isDelayBinding(claim: KubeObject, objects: VolumeObjects): boolean {
  const spec = rec(claim.spec);
  const className = str(spec.storageClassName) || str(claim.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class']);
  if (!className) return false;
  return rec(objects.storageClass(className)).volumeBindingMode === 'WaitForFirstConsumer';
}

/** PreFilter: the pod's claims (none: the plugin skips). */
export function volumePreFilter(pod: KubeObject, objects: VolumeObjects): VolumeState {
  const namespace = pod.metadata?.namespace ?? '';
  const podName = pod.metadata?.name ?? '';
  const bound: string[] = [];
  const delayed: KubeObject[] = [];
  let immediate = false;
  let any = false;
  for (const volume of arr(rec(pod.spec).volumes).map(rec)) {
    let claimName: string;
    const ephemeral = volume.ephemeral !== undefined && volume.ephemeral !== null;
    if (volume.persistentVolumeClaim) claimName = str(rec(volume.persistentVolumeClaim).claimName);
    else if (ephemeral) claimName = `${podName}-${str(volume.name)}`;
    else continue;
    any = true;
    const claim = objects.claim(namespace, claimName);
    if (!claim) {
      return { ...NONE, rejection: ephemeral ? `waiting for ephemeral volume controller to create the persistentvolumeclaim "${claimName}"` : `persistentvolumeclaim "${claimName}" not found` };
    }
    if (claim.metadata?.deletionTimestamp) return { ...NONE, rejection: `persistentvolumeclaim "${claimName}" is being deleted` };
    if (ephemeral && !(claim.metadata?.ownerReferences ?? []).some((o) => o.controller && o.uid === pod.metadata?.uid)) {
      return { ...NONE, rejection: `PVC ${namespace}/${claimName} was not created for pod ${namespace}/${podName} (pod is not owner)` };
    }
    const volumeName = str(rec(claim.spec).volumeName);
    if (volumeName) bound.push(volumeName);
    else if (isDelayBinding(claim, objects)) delayed.push(claim);
    else immediate = true;
  }
  if (!any) return NONE;
  if (immediate) return { ...NONE, rejection: ERR_UNBOUND_IMMEDIATE };
  return { boundVolumes: bound, delayedClaims: delayed };
}

/** Filter: a bound volume must exist and its nodeAffinity must admit the node. */
export function volumeFilter(state: VolumeState, node: NodeInfo, objects: VolumeObjects): string | undefined {
  for (const name of state.boundVolumes) {
    const pv = objects.volume(name);
    if (!pv) return ERR_VOLUME_MISSING_PV;
    const required = rec(rec(rec(pv.spec).nodeAffinity).required);
    const terms = arr(required.nodeSelectorTerms).map(rec);
    if (Object.keys(required).length > 0 && !terms.some((t) => matchesTerm(node.name, node.labels, t))) return ERR_VOLUME_NODE_AFFINITY;
  }
  return undefined;
}
