// The scheduler's node checks that other controllers share: the DaemonSet
// controller decides where a daemon pod should run with the same NodeAffinity
// and taint rules the scheduler filters with (its nodeShouldRunDaemonPod).

import type { KubeObject } from '../../kinds/types';
import { matchesNodeAffinity as matchesAffinity } from './node-affinity';

export { tolerates, effectiveTaints, type Taint } from './taints';

/** Whether the node satisfies the pod's nodeSelector and required node affinity. */
export function matchesNodeAffinity(pod: KubeObject, node: KubeObject): boolean {
  return matchesAffinity(pod, node.metadata?.name ?? '', node.metadata?.labels ?? {});
}
