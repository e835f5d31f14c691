// Node conditions, taints and tolerations as the node controllers read them
// (component-helpers' taint/toleration matching, the controller util's
// GetNodeCondition), over the JSON objects the informers hold.

import type { KubeObject } from '../../kinds/types';
import type { GroupVersionResource } from '../client/resource-path';

export const NODES: GroupVersionResource = { group: '', version: 'v1', resource: 'nodes' };
export const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
export const LEASES: GroupVersionResource = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface NodeCondition {
  type: string;
  status: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function taintsOf(node: KubeObject | undefined): Taint[] {
  return arr(rec(node?.['spec']).taints).map((t) => t as Taint);
}

export function conditionsOf(node: KubeObject | undefined): NodeCondition[] {
  return arr(rec(node?.['status']).conditions).map((c) => c as NodeCondition);
}

export function nodeCondition(node: KubeObject | undefined, type: string): NodeCondition | undefined {
  return conditionsOf(node).find((c) => c.type === type);
}

/** Taint.MatchTaint: same key and effect. */
export const sameTaint = (a: Taint, b: Taint): boolean => a.key === b.key && a.effect === b.effect;

export function hasTaint(node: KubeObject | undefined, t: Taint): boolean {
  return taintsOf(node).some((x) => sameTaint(x, t));
}

export function noExecuteTaints(node: KubeObject | undefined): Taint[] {
  return taintsOf(node).filter((t) => t.effect === 'NoExecute');
}

/** Toleration.ToleratesTaint. */
export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  const operator = toleration.operator || 'Equal';
  // An empty key with Exists tolerates every taint (of the effect, when one is given).
  if (operator === 'Exists') return true;
  if (operator === 'Equal') return (toleration.value ?? '') === (taint.value ?? '');
  return false;
}

export function tolerationsOf(pod: KubeObject): Toleration[] {
  return arr(rec(pod['spec']).tolerations).map((t) => t as Toleration);
}

/** v1helper.GetMatchingTolerations: whether every taint is tolerated, and the first toleration used for each. */
export function matchingTolerations(taints: readonly Taint[], tolerations: readonly Toleration[]): { all: boolean; used: Toleration[] } {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const match = tolerations.find((t) => tolerates(t, taint));
    if (!match) return { all: false, used: [] };
    used.push(match);
  }
  return { all: true, used };
}

/** getMinTolerationTime: the shortest tolerationSeconds in ms; 0 without tolerations; -1 for for ever. */
export function minTolerationMs(used: readonly Toleration[]): number {
  if (used.length === 0) return 0;
  let min = Infinity;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}

export const nodeNameOf = (pod: KubeObject): string => String(rec(pod['spec']).nodeName ?? '');

/** The zone key nodetopology.GetZoneKey gives (region and zone, from the stable or beta labels). */
export function zoneKey(node: KubeObject): string {
  const labels = node.metadata?.labels ?? {};
  const region = labels['topology.kubernetes.io/region'] ?? labels['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone = labels['topology.kubernetes.io/zone'] ?? labels['failure-domain.beta.kubernetes.io/zone'] ?? '';
  if (!region && !zone) return '';
  return `${region}:\u0000:${zone}`;
}
