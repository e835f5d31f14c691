// PodTopologySpread: the pod's DoNotSchedule constraints as a filter (the
// skew a placement would cause against the least-loaded domain), its
// ScheduleAnyway constraints as a score, and, for a pod with no constraints
// at all, kube's default constraints (hostname maxSkew 3, zone maxSkew 5,
// ScheduleAnyway) over the pods selected by the same Services,
// ReplicaSets, StatefulSets and ReplicationControllers — which is what
// spreads a Deployment's replicas over the nodes.

import type { KubeObject } from '../../kinds/types';
import { LabelSelector, newRequirement } from '../../selectors';
import { labelSelectorAsSelector } from '../../selectors/label-selector-object';
import type { LabelSelectorObject } from '../../selectors';
import { matchesNodeAffinity } from './node-affinity';
import type { NodeInfo } from './node-info';
import { arr, rec, str } from './objects';
import type { PodInfo } from './pod-info';
import { podTolerations, taintReason } from './taints';

export const ERR_SPREAD = "node(s) didn't match pod topology spread constraints";
export const ERR_SPREAD_MISSING_LABEL = `${ERR_SPREAD} (missing required label)`;

export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_ZONE = 'topology.kubernetes.io/zone';

export interface SpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly selector: LabelSelector;
  readonly minDomains: number;
  readonly honorNodeAffinity: boolean;
  readonly honorNodeTaints: boolean;
}

/** The pod's constraints of one whenUnsatisfiable kind, with matchLabelKeys folded into the selector. */
export function podConstraints(pod: PodInfo, when: 'DoNotSchedule' | 'ScheduleAnyway'): SpreadConstraint[] {
  const out: SpreadConstraint[] = [];
  for (const c of arr(rec(pod.pod.spec).topologySpreadConstraints).map(rec)) {
    if (str(c.whenUnsatisfiable) !== when) continue;
    let selector: LabelSelector;
    try {
      selector = c.labelSelector ? labelSelectorAsSelector(c.labelSelector as LabelSelectorObject) : LabelSelector.nothing();
    } catch {
      selector = LabelSelector.nothing();
    }
    for (const key of arr(c.matchLabelKeys).map(String)) {
      const value = pod.labels[key];
      if (value !== undefined) selector = selector.add(newRequirement(key, 'in', [value]));
    }
    out.push({
      maxSkew: typeof c.maxSkew === 'number' ? c.maxSkew : 1,
      topologyKey: str(c.topologyKey),
      selector,
      minDomains: typeof c.minDomains === 'number' ? c.minDomains : 1,
      honorNodeAffinity: str(c.nodeAffinityPolicy) !== 'Ignore',
      honorNodeTaints: str(c.nodeTaintsPolicy) === 'Honor',
    });
  }
  return out;
}

/** kube-scheduler's system default constraints, over the given selector (none when it is empty). */
export function defaultConstraints(selector: LabelSelector): SpreadConstraint[] {
  if (selector.empty() || selector.isNothing) return [];
  const base = { selector, minDomains: 1, honorNodeAffinity: true, honorNodeTaints: false };
  return [
    { ...base, maxSkew: 3, topologyKey: LABEL_HOSTNAME },
    { ...base, maxSkew: 5, topologyKey: LABEL_ZONE },
  ];
}

/** The objects DefaultSelector reads. */
export interface SpreadOwners {
  services(namespace: string): readonly KubeObject[];
  replicaSet(namespace: string, name: string): KubeObject | undefined;
  statefulSet(namespace: string, name: string): KubeObject | undefined;
  replicationController(namespace: string, name: string): KubeObject | undefined;
}

/** helper.DefaultSelector: the selectors of the Services selecting the pod and of its controller. */
export function defaultSelector(pod: PodInfo, owners: SpreadOwners): LabelSelector {
  const merged: Record<string, string> = {};
  for (const svc of owners.services(pod.namespace)) {
    const sel = rec(rec(svc.spec).selector) as Record<string, string>;
    const entries = Object.entries(sel);
    if (entries.length === 0) continue;
    if (entries.every(([k, v]) => pod.labels[k] === v)) Object.assign(merged, sel);
  }
  let selector = LabelSelector.fromRequirements(Object.entries(merged).map(([k, v]) => newRequirement(k, '=', [v])));
  const owner = (pod.pod.metadata?.ownerReferences ?? []).find((o) => o.controller);
  if (!owner) return selector;
  const ownerSelector = (obj: KubeObject | undefined) => rec(rec(obj?.spec).selector);
  if (owner.apiVersion === 'v1' && owner.kind === 'ReplicationController') {
    const rc = owners.replicationController(pod.namespace, owner.name);
    if (rc) {
      Object.assign(merged, ownerSelector(rc));
      selector = LabelSelector.fromRequirements(Object.entries(merged).map(([k, v]) => newRequirement(k, '=', [String(v)])));
    }
  } else if (owner.apiVersion === 'apps/v1' && (owner.kind === 'ReplicaSet' || owner.kind === 'StatefulSet')) {
    const obj = owner.kind === 'ReplicaSet' ? owners.replicaSet(pod.namespace, owner.name) : owners.statefulSet(pod.namespace, owner.name);
    if (obj) {
      try {
        selector = selector.add(...labelSelectorAsSelector(ownerSelector(obj) as LabelSelectorObject).requirements());
      } catch {
        // An invalid selector adds nothing.
      }
    }
  }
  return selector;
}

/** countPodsMatchSelector: pods of the namespace, not being deleted, selected. */
export function countMatching(node: NodeInfo, selector: LabelSelector, namespace: string): number {
  let n = 0;
  for (const p of node.pods.values()) if (!p.deleting && p.namespace === namespace && selector.matches(p.labels)) n++;
  return n;
}

function includesNode(c: SpreadConstraint, pod: PodInfo, node: NodeInfo): boolean {
  if (c.honorNodeAffinity && !matchesNodeAffinity(pod.pod, node.name, node.labels)) return false;
  if (c.honorNodeTaints && taintReason(podTolerations(pod.pod), node.taints)) return false;
  return true;
}

const hasAllKeys = (node: NodeInfo, constraints: readonly SpreadConstraint[]) => constraints.every((c) => c.topologyKey in node.labels);

export interface SpreadFilterState {
  readonly constraints: readonly SpreadConstraint[];
  /** Per constraint: topology value → matching pods. */
  readonly matchNum: Map<string, number>[];
}

/** PreFilter for DoNotSchedule constraints (undefined: nothing to check). */
export function spreadPreFilter(pod: PodInfo, nodes: readonly NodeInfo[]): SpreadFilterState | undefined {
  const constraints = podConstraints(pod, 'DoNotSchedule');
  if (constraints.length === 0) return undefined;
  const matchNum = constraints.map(() => new Map<string, number>());
  for (const node of nodes) {
    if (!hasAllKeys(node, constraints)) continue;
    constraints.forEach((c, i) => {
      if (!includesNode(c, pod, node)) return;
      const value = node.labels[c.topologyKey]!;
      matchNum[i]!.set(value, (matchNum[i]!.get(value) ?? 0) + countMatching(node, c.selector, pod.namespace));
    });
  }
  return { constraints, matchNum };
}

/** Filter: the reason and whether preemption could resolve it, or undefined when the skew stays within maxSkew. */
export function spreadFilter(state: SpreadFilterState, pod: PodInfo, node: NodeInfo): { reason: string; resolvable: boolean } | undefined {
  for (let i = 0; i < state.constraints.length; i++) {
    const c = state.constraints[i]!;
    const value = node.labels[c.topologyKey];
    if (value === undefined) return { reason: ERR_SPREAD_MISSING_LABEL, resolvable: false };
    const counts = state.matchNum[i]!;
    let min = counts.size === 0 ? Number.MAX_SAFE_INTEGER : Math.min(...counts.values());
    if (counts.size < c.minDomains) min = 0;
    const self = c.selector.matches(pod.labels) ? 1 : 0;
    const skew = (counts.get(value) ?? 0) + self - min;
    if (skew > c.maxSkew) return { reason: ERR_SPREAD, resolvable: true };
  }
  return undefined;
}

export interface SpreadScoreState {
  readonly constraints: readonly SpreadConstraint[];
  readonly ignored: ReadonlySet<string>;
  readonly pairCounts: Map<string, number>;
  readonly weights: number[];
}

const pairKey = (key: string, value: string) => `${key}\u0000${value}`;

/** PreScore over the feasible nodes (undefined: Skip). */
export function spreadPreScore(pod: PodInfo, feasible: readonly NodeInfo[], all: readonly NodeInfo[], owners: SpreadOwners): SpreadScoreState | undefined {
  const own = arr(rec(pod.pod.spec).topologySpreadConstraints).length > 0;
  const constraints = own ? podConstraints(pod, 'ScheduleAnyway') : defaultConstraints(defaultSelector(pod, owners));
  if (constraints.length === 0 || feasible.length === 0) return undefined;
  // The system defaults do not require every node to carry every topology key.
  const requireAll = own;
  const ignored = new Set<string>();
  const pairCounts = new Map<string, number>();
  const sizes = constraints.map(() => 0);
  for (const node of feasible) {
    if (requireAll && !hasAllKeys(node, constraints)) {
      ignored.add(node.name);
      continue;
    }
    constraints.forEach((c, i) => {
      if (c.topologyKey === LABEL_HOSTNAME) return;
      const k = pairKey(c.topologyKey, node.labels[c.topologyKey] ?? '');
      if (!pairCounts.has(k)) {
        pairCounts.set(k, 0);
        sizes[i]!++;
      }
    });
  }
  const weights = constraints.map((c, i) => Math.log((c.topologyKey === LABEL_HOSTNAME ? feasible.length - ignored.size : sizes[i]!) + 2));
  for (const node of all) {
    if (requireAll && !hasAllKeys(node, constraints)) continue;
    for (const c of constraints) {
      if (c.topologyKey === LABEL_HOSTNAME || !includesNode(c, pod, node)) continue;
      const k = pairKey(c.topologyKey, node.labels[c.topologyKey] ?? '');
      const current = pairCounts.get(k);
      if (current === undefined) continue;
      pairCounts.set(k, current + countMatching(node, c.selector, pod.namespace));
    }
  }
  return { constraints, ignored, pairCounts, weights };
}

/** Score: the weighted matching-pod counts of the node's domains (lower is better; NormalizeScore inverts). */
export function spreadScore(state: SpreadScoreState, pod: PodInfo, node: NodeInfo): number {
  if (state.ignored.has(node.name)) return 0;
  let score = 0;
  state.constraints.forEach((c, i) => {
    const value = node.labels[c.topologyKey];
    if (value === undefined) return;
    const count = c.topologyKey === LABEL_HOSTNAME ? countMatching(node, c.selector, pod.namespace) : (state.pairCounts.get(pairKey(c.topologyKey, value)) ?? 0);
    score += count * state.weights[i]! + (c.maxSkew - 1);
  });
  return Math.round(score);
}

/** NormalizeScore: the least crowded node gets 100; ignored nodes 0. */
export function normalizeSpreadScores(state: SpreadScoreState, nodes: readonly NodeInfo[], raw: readonly number[]): number[] {
  let min = Number.MAX_SAFE_INTEGER;
  let max = 0;
  nodes.forEach((n, i) => {
    if (state.ignored.has(n.name)) return;
    min = Math.min(min, raw[i]!);
    max = Math.max(max, raw[i]!);
  });
  return nodes.map((n, i) => {
    if (state.ignored.has(n.name)) return 0;
    if (max === 0) return 100;
    return Math.trunc((100 * (max + min - raw[i]!)) / max);
  });
}
