// What kube-controller-manager's pod garbage collector deletes, as pure
// decisions over the pods and nodes it sees: terminated pods beyond the
// --terminated-pod-gc-threshold (evicted ones first, then the oldest),
// terminating pods on nodes that are out of service, and terminating pods
// that were never scheduled.

import type { KubeObject } from '../../kinds/types';
import { arr, rec, str, timeMs } from '../job/json';

/** kube-controller-manager's --terminated-pod-gc-threshold default. */
export const DEFAULT_TERMINATED_POD_GC_THRESHOLD = 12500;
export const OUT_OF_SERVICE_TAINT = 'node.kubernetes.io/out-of-service';

const phase = (pod: KubeObject) => str(rec(pod.status).phase);

/** isPodTerminated: any phase but Pending, Running and Unknown. */
export const isPodTerminated = (pod: KubeObject): boolean => !['Pending', 'Running', 'Unknown'].includes(phase(pod));
const isEvicted = (pod: KubeObject) => phase(pod) === 'Failed' && rec(pod.status).reason === 'Evicted';

/** byEvictionAndCreationTimestamp: evicted first, then oldest, then by name. */
export function byEvictionAndCreation(a: KubeObject, b: KubeObject): number {
  const ea = isEvicted(a);
  const eb = isEvicted(b);
  if (ea !== eb) return ea ? -1 : 1;
  const ca = timeMs(a.metadata?.creationTimestamp) ?? 0;
  const cb = timeMs(b.metadata?.creationTimestamp) ?? 0;
  if (ca !== cb) return ca - cb;
  return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : (a.metadata?.name ?? '') > (b.metadata?.name ?? '') ? 1 : 0;
}

/** gcTerminated: the terminated pods to delete so that `threshold` remain (none when threshold is 0 or less). */
export function terminatedPodsToDelete(pods: readonly KubeObject[], threshold: number): KubeObject[] {
  if (threshold <= 0) return [];
  const terminated = pods.filter(isPodTerminated);
  const count = terminated.length - threshold;
  if (count <= 0) return [];
  return [...terminated].sort(byEvictionAndCreation).slice(0, count);
}

const nodeReady = (node: KubeObject) => arr(rec(node.status).conditions).map(rec).some((c) => c.type === 'Ready' && c.status === 'True');

/** gcTerminating: terminating pods on NotReady nodes tainted node.kubernetes.io/out-of-service. */
export function outOfServiceTerminatingPods(pods: readonly KubeObject[], nodes: ReadonlyMap<string, KubeObject>): KubeObject[] {
  return pods
    .filter((pod) => {
      if (!pod.metadata?.deletionTimestamp) return false;
      const node = nodes.get(str(rec(pod.spec).nodeName));
      if (!node || nodeReady(node)) return false;
      return arr(rec(node.spec).taints).some((t) => rec(t).key === OUT_OF_SERVICE_TAINT);
    })
    .sort(byEvictionAndCreation);
}

/** gcUnscheduledTerminating: being deleted, never bound to a node. */
export const unscheduledTerminatingPods = (pods: readonly KubeObject[]): KubeObject[] =>
  pods.filter((pod) => !!pod.metadata?.deletionTimestamp && !str(rec(pod.spec).nodeName));
