// controller.ActivePods: the order in which a controller gives up active
// pods — unscheduled before scheduled, Pending before Unknown before
// Running, not ready before ready, ready more recently before ready longer,
// more container restarts before fewer, newer before older.
// Not workloads' deleteBefore: kube's Job uses plain ActivePods (no deletion cost, node rank or log2 time buckets).

import type { KubeObject } from '../../kinds/types';
import { isPodReady, podCondition, podPhase } from './job-model';
import { arr, num, rec, timeMs } from './json';

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

const maxRestarts = (pod: KubeObject): number =>
  Math.max(0, ...arr(rec(pod.status).containerStatuses).map((s) => num(rec(s).restartCount) ?? 0));

export function compareActivePods(a: KubeObject, b: KubeObject): number {
  const aNode = !!rec(a.spec).nodeName;
  const bNode = !!rec(b.spec).nodeName;
  if (aNode !== bNode) return aNode ? 1 : -1;
  const pa = PHASE_ORDINAL[podPhase(a)] ?? 3;
  const pb = PHASE_ORDINAL[podPhase(b)] ?? 3;
  if (pa !== pb) return pa - pb;
  const ra = isPodReady(a);
  const rb = isPodReady(b);
  if (ra !== rb) return ra ? 1 : -1;
  if (ra && rb) {
    const ta = timeMs(podCondition(a, 'Ready')?.lastTransitionTime) ?? 0;
    const tb = timeMs(podCondition(b, 'Ready')?.lastTransitionTime) ?? 0;
    if (ta !== tb) return tb - ta;
  }
  const ca = maxRestarts(a);
  const cb = maxRestarts(b);
  if (ca !== cb) return cb - ca;
  const ka = timeMs(a.metadata?.creationTimestamp) ?? Infinity;
  const kb = timeMs(b.metadata?.creationTimestamp) ?? Infinity;
  if (ka !== kb) return kb - ka;
  return 0;
}
