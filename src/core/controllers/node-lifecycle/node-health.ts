// How the node-lifecycle controller judges a node's health
// (tryUpdateNodeHealth): it remembers, per node, when it last saw a sign of
// life — the Ready condition's heartbeat moving or the node's Lease being
// renewed — by its own clock at the moment it noticed, not by the times the
// kubelet wrote (so clock skew does not matter, and a controller that has
// just started gives every node a full grace period from then). A node silent
// for longer than the grace period (node-monitor-grace-period, 50 s in 1.32;
// node-startup-grace-period, 60 s, for a node that never posted Ready) gets
// every kubelet condition set to Unknown.

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { nodeCondition, type NodeCondition } from './taints';

export interface HealthTimings {
  /** --node-monitor-grace-period: 50 s in 1.32. */
  readonly monitorGraceMs: number;
  /** --node-startup-grace-period: 60 s. */
  readonly startupGraceMs: number;
}

export const DEFAULT_TIMINGS: HealthTimings = { monitorGraceMs: 50_000, startupGraceMs: 60_000 };

export interface NodeHealth {
  /** When (controller clock) the last sign of life was seen. */
  readonly probeMs: number;
  readonly readyTransitionMs: number;
  /** The Ready condition as last seen. */
  readonly savedReady: NodeCondition | undefined;
  /** The Lease's renewTime as last seen. */
  readonly leaseRenewTime: string | undefined;
}

export interface Assessment {
  /** The health to remember now (or, when `statusUpdate` is set, once that write succeeded: `afterUpdate`). */
  readonly health: NodeHealth;
  readonly afterUpdate?: NodeHealth;
  readonly observedReady: NodeCondition;
  readonly currentReady: NodeCondition | undefined;
  /** The node with its conditions set to Unknown, to write with UpdateStatus. */
  readonly statusUpdate?: KubeObject;
}

const KUBELET_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

const msOf = (t: string | undefined): number => (t ? Date.parse(t) : NaN);

function sameCondition(a: NodeCondition | undefined, b: NodeCondition | undefined): boolean {
  if (!a || !b) return a === b;
  return a.type === b.type && a.status === b.status && a.reason === b.reason && a.message === b.message && a.lastHeartbeatTime === b.lastHeartbeatTime && a.lastTransitionTime === b.lastTransitionTime;
}

export function assessNode(node: KubeObject, previous: NodeHealth | undefined, leaseRenewTime: string | undefined, nowMs: number, timings: HealthTimings = DEFAULT_TIMINGS): Assessment {
  const createdAt = node.metadata?.creationTimestamp ?? undefined;
  const created = msOf(createdAt);
  const currentReady = nodeCondition(node, 'Ready');
  let health: NodeHealth | undefined = previous;
  let observedReady: NodeCondition;
  let graceMs: number;
  if (!currentReady) {
    // Never posted: judged from its creation, with the longer start-up grace.
    observedReady = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: createdAt, lastTransitionTime: createdAt };
    graceMs = timings.startupGraceMs;
    health = health ? { ...health, savedReady: undefined } : { probeMs: created, readyTransitionMs: created, savedReady: undefined, leaseRenewTime: undefined };
  } else {
    observedReady = { ...currentReady };
    graceMs = timings.monitorGraceMs;
  }
  const saved = previous?.savedReady;
  if (!health) {
    health = { probeMs: nowMs, readyTransitionMs: nowMs, savedReady: currentReady, leaseRenewTime: undefined };
  } else if (!saved && currentReady) {
    health = { probeMs: nowMs, readyTransitionMs: nowMs, savedReady: currentReady, leaseRenewTime: health.leaseRenewTime };
  } else if (saved && currentReady && saved.lastHeartbeatTime !== currentReady.lastHeartbeatTime) {
    const transition = saved.lastTransitionTime !== currentReady.lastTransitionTime ? nowMs : health.readyTransitionMs;
    health = { probeMs: nowMs, readyTransitionMs: transition, savedReady: currentReady, leaseRenewTime: health.leaseRenewTime };
  } else if (currentReady) {
    health = { ...health, savedReady: currentReady };
  }
  // A renewed Lease is a sign of life too (the kubelet posts its status only every 5 minutes).
  if (leaseRenewTime && (!health.leaseRenewTime || msOf(health.leaseRenewTime) < msOf(leaseRenewTime))) {
    health = { ...health, leaseRenewTime, probeMs: nowMs };
  }
  if (!(nowMs > health.probeMs + graceMs)) return { health, observedReady, currentReady };

  const now = rfc3339(nowMs);
  const status = { ...((node['status'] as Record<string, unknown> | undefined) ?? {}) };
  const conditions = (Array.isArray(status['conditions']) ? (status['conditions'] as NodeCondition[]) : []).map((c) => ({ ...c }));
  for (const type of KUBELET_CONDITIONS) {
    const c = conditions.find((x) => x.type === type);
    if (!c) {
      conditions.push({ type, status: 'Unknown', lastHeartbeatTime: createdAt, lastTransitionTime: now, reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.' });
    } else if (c.status !== 'Unknown') {
      c.status = 'Unknown';
      c.reason = 'NodeStatusUnknown';
      c.message = 'Kubelet stopped posting node status.';
      c.lastTransitionTime = now;
    }
  }
  const updatedReady = conditions.find((c) => c.type === 'Ready');
  if (sameCondition(updatedReady, observedReady)) return { health, observedReady, currentReady: updatedReady };
  const statusUpdate: KubeObject = { ...node, status: { ...status, conditions } };
  return {
    health,
    afterUpdate: { probeMs: health.probeMs, readyTransitionMs: nowMs, savedReady: updatedReady, leaseRenewTime: health.leaseRenewTime },
    observedReady,
    currentReady: updatedReady,
    statusUpdate,
  };
}
