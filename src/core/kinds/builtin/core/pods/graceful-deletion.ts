// The pod strategy's CheckGracefulDelete: the grace a delete gives a pod.
// The request's gracePeriodSeconds wins, else the pod's
// terminationGracePeriodSeconds (30 by default), else 0; a pod that is not
// bound to a node, or has already finished, has nothing to stop and gets 0.

import type { KubeObject } from '../../../types';
import { rec } from '../../common/table';

export function podGracePeriod(pod: KubeObject, requestedGraceSeconds: number | undefined): number {
  const spec = rec(pod.spec);
  let period = requestedGraceSeconds ?? (typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 0);
  if (!spec.nodeName) period = 0;
  const phase = rec(pod.status).phase;
  if (phase === 'Succeeded' || phase === 'Failed') period = 0;
  return period < 0 ? 1 : period;
}
