// The claims a pod's volumes use: persistentVolumeClaim volumes by their
// claimName, generic ephemeral volumes by the name the ephemeral-volume
// controller gives their claim (<pod>-<volume>). Shared by the PV
// controller (which pods wait for a claim) and PVC protection (which pods
// keep a claim in use).

import type { KubeObject } from '../../kinds/types';
import { arr, rec, str } from '../scheduler/objects';

export interface PodClaim {
  readonly claimName: string;
  readonly ephemeral: boolean;
}

export function podClaims(pod: KubeObject): PodClaim[] {
  const podName = pod.metadata?.name ?? '';
  const out: PodClaim[] = [];
  for (const volume of arr(rec(pod.spec).volumes).map(rec)) {
    if (volume.persistentVolumeClaim) out.push({ claimName: str(rec(volume.persistentVolumeClaim).claimName), ephemeral: false });
    else if (volume.ephemeral) out.push({ claimName: `${podName}-${str(volume.name)}`, ephemeral: true });
  }
  return out;
}

export function podClaimNames(pod: KubeObject): string[] {
  return podClaims(pod).map((c) => c.claimName);
}
