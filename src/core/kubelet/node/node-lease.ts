// The kubelet's node lease (pkg/kubelet/nodelease): the Lease named after the
// node in kube-node-lease, holderIdentity the node, leaseDurationSeconds 40,
// owned by the Node, its renewTime moved every 10 s (a quarter of the
// duration) on the cluster's Clock. The node-lifecycle controller reads it
// as the node's heartbeat. A failed renewal is retried at the next tick.

import { rfc3339Micro } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../../controllers/client/api-client';
import { errorMessage, isAlreadyExists, isConflict, isNotFound } from '../../controllers/client/api-error';
import type { GroupVersionResource } from '../../controllers/client/resource-path';
import type { ClockTimers, TimerHandle } from '../../util/clock-timers';

export const LEASES: GroupVersionResource = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** The kubelet's nodeLeaseDurationSeconds. */
export const LEASE_DURATION_SECONDS = 40;
/** NodeLeaseRenewIntervalFraction 0.25 of the duration. */
export const LEASE_RENEW_INTERVAL_MS = (LEASE_DURATION_SECONDS * 1000) / 4;

export interface NodeLeaseOptions {
  readonly client: ApiClient;
  readonly timers: ClockTimers;
  readonly nodeName: string;
  /** The Node's uid for the owner reference, once the node is registered. */
  readonly nodeUid: () => string | undefined;
  readonly log: (message: string) => void;
  /** Holds the renewal as work in hand (for idle()). */
  readonly begin?: () => () => void;
}

export interface NodeLease {
  /** Renews now and then every interval. */
  start(): void;
  stop(): void;
}

export function desiredLease(nodeName: string, nodeUid: string | undefined, nowMs: number, base?: KubeObject): KubeObject {
  const owner = nodeUid ? [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: nodeUid }] : undefined;
  const meta = { ...(base?.metadata ?? {}), name: nodeName, namespace: NODE_LEASE_NAMESPACE };
  if (owner && !(meta.ownerReferences ?? []).some((o) => o.kind === 'Node' && o.uid === nodeUid)) meta.ownerReferences = owner;
  return {
    ...(base ?? {}),
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: meta,
    spec: { ...((base?.['spec'] as object | undefined) ?? {}), holderIdentity: nodeName, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime: rfc3339Micro(nowMs) },
  };
}

export function startNodeLease(options: NodeLeaseOptions): NodeLease {
  const { client, timers, nodeName } = options;
  let latest: KubeObject | undefined;
  let timer: TimerHandle | undefined;
  let stopped = false;
  let running = false;

  async function renew(): Promise<void> {
    const now = timers.clock.now();
    const uid = options.nodeUid();
    if (latest) {
      try {
        latest = await client.update(LEASES, NODE_LEASE_NAMESPACE, desiredLease(nodeName, uid, now, latest));
        return;
      } catch (err) {
        if (!isConflict(err) && !isNotFound(err)) throw err;
        latest = undefined;
      }
    }
    // No lease known (first renewal, or someone else wrote it): read it, create it when missing.
    try {
      const existing = await client.get(LEASES, NODE_LEASE_NAMESPACE, nodeName);
      latest = await client.update(LEASES, NODE_LEASE_NAMESPACE, desiredLease(nodeName, uid, now, existing));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      try {
        latest = await client.create(LEASES, NODE_LEASE_NAMESPACE, desiredLease(nodeName, uid, now));
      } catch (createErr) {
        if (!isAlreadyExists(createErr)) throw createErr;
      }
    }
  }

  function tick(): void {
    if (stopped || running) return;
    running = true;
    const end = options.begin?.();
    void renew()
      .catch((err) => options.log(`failed to update lease: ${errorMessage(err)}`))
      .finally(() => {
        running = false;
        end?.();
        // The next renewal an interval after this one, on the cluster's Clock.
        if (!stopped) timer = timers.after(LEASE_RENEW_INTERVAL_MS, tick);
      });
  }

  return {
    start() {
      stopped = false;
      tick();
    },
    stop() {
      stopped = true;
      timers.cancel(timer);
    },
  };
}
