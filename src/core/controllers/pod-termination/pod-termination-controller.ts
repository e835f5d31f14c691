// The kubelet's last step of a pod's graceful deletion, which KubeTab has no
// kubelet for: a pod marked for deletion with a grace period (it is bound to
// a node; see kinds/graceful-deletion.ts) is deleted for good, with
// gracePeriodSeconds 0, once its deletionTimestamp has passed on the server
// clock — the latest moment a kubelet would do it. Until then `kubectl get
// pods` shows it Terminating. Moving the server clock forward ends the wait
// (the deadline is re-checked every second). See docs/decisions/0140.
//
// Where a KubeTab kubelet runs the node (src/core/kubelet), the kubelet ends
// its pods itself and this stand-in stays out of its way: it leaves alone the
// pods of a node whose Lease in kube-node-lease is current (renewed within its
// leaseDurationSeconds), the same sign of a live kubelet the node lifecycle
// controller reads. A node without a Lease, or whose kubelet has stopped
// renewing it, has nobody to end its pods, and the stand-in does.

import type { KubeObject } from '../../kinds/types';
import { isConflict, isNotFound } from '../client/api-error';
import { objectKey } from '../client/informer';
import type { GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';

export const POD_TERMINATION_CONTROLLER = 'pod-termination';
export const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
export const LEASES: GroupVersionResource = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** How often a waiting pod's deadline is looked at again (the clock may be moved forward meanwhile). */
export const RECHECK_MS = 1000;

/** Milliseconds until a terminating pod's grace period ends, or undefined when the server removes it (no grace) or it is not terminating. */
export function graceLeftMs(pod: KubeObject, nowMs: number): number | undefined {
  const meta = pod.metadata;
  if (!meta?.deletionTimestamp || !((meta.deletionGracePeriodSeconds ?? 0) > 0)) return undefined;
  return Date.parse(meta.deletionTimestamp) - nowMs;
}

/** Whether the node's Lease says a kubelet is alive: renewed no longer than leaseDurationSeconds ago. */
export function kubeletAlive(lease: KubeObject | undefined, nowMs: number): boolean {
  const spec = (lease?.spec ?? {}) as { renewTime?: string; leaseDurationSeconds?: number };
  if (!spec.renewTime) return false;
  const renewed = Date.parse(spec.renewTime);
  return Number.isFinite(renewed) && renewed + (spec.leaseDurationSeconds ?? 40) * 1000 > nowMs;
}

export function podTerminationController(ctx: ControllerContext): Controller {
  const pods = ctx.informers.for(PODS);
  const leases = ctx.informers.for(LEASES);
  const unsubscribe: (() => void)[] = [];

  const queue = new WorkQueue(
    POD_TERMINATION_CONTROLLER,
    ctx.activity,
    async (key) => {
      const slash = key.indexOf('/');
      const namespace = key.slice(0, slash);
      const name = key.slice(slash + 1);
      const pod = pods.get(namespace, name);
      if (!pod) return;
      const left = graceLeftMs(pod, ctx.clock.now());
      if (left === undefined) return;
      if (left > 0) return { requeueAfterMs: Math.min(left, RECHECK_MS) };
      // A live kubelet ends the pod itself; look again later in case it stops.
      const nodeName = (pod.spec as { nodeName?: string } | undefined)?.nodeName;
      if (nodeName && kubeletAlive(leases.get(NODE_LEASE_NAMESPACE, nodeName), ctx.clock.now())) return { requeueAfterMs: RECHECK_MS * 10 };
      try {
        // The uid precondition keeps a new pod of the same name safe.
        await ctx.client.delete(PODS, namespace, name, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata?.uid } });
      } catch (err) {
        if (isNotFound(err) || isConflict(err)) return;
        throw err;
      }
    },
    ctx.log,
  );

  const enqueue = (pod: KubeObject) => {
    if (pod.metadata?.deletionTimestamp) queue.add(objectKey(pod));
  };

  return {
    name: POD_TERMINATION_CONTROLLER,
    start() {
      unsubscribe.push(pods.addHandler({ onAdd: enqueue, onUpdate: (_old, pod) => enqueue(pod) }));
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
