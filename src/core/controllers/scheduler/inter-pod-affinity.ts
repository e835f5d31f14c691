// InterPodAffinity: the pod's required affinity and anti-affinity, and the
// existing pods' required anti-affinity towards it, as a filter; the
// preferred terms of both sides (and the existing pods' required affinity,
// at weight 1) as a score. Counts are kept per topology pair (label key and
// value), computed once per scheduling attempt from the per-node pod lists,
// as kube's PreFilter/PreScore do.

import type { NodeInfo } from './node-info';
import { termMatches, type AffinityTerm, type PodInfo, type WeightedAffinityTerm } from './pod-info';

export const ERR_AFFINITY_RULES = "node(s) didn't match pod affinity rules";
export const ERR_ANTI_AFFINITY_RULES = "node(s) didn't match pod anti-affinity rules";
export const ERR_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";

/** Looks up a namespace's labels (for namespaceSelector). */
export type NamespaceLabels = (namespace: string) => Record<string, string> | undefined;

const pairKey = (key: string, value: string) => `${key}\u0000${value}`;

function bump(counts: Map<string, number>, node: NodeInfo, key: string, by: number): void {
  const value = node.labels[key];
  if (value === undefined) return;
  const k = pairKey(key, value);
  const n = (counts.get(k) ?? 0) + by;
  if (n === 0) counts.delete(k);
  else counts.set(k, n);
}

export interface AffinityFilterState {
  readonly pod: PodInfo;
  readonly existingAntiAffinity: Map<string, number>;
  readonly affinity: Map<string, number>;
  readonly antiAffinity: Map<string, number>;
}

const matchesAll = (terms: readonly AffinityTerm[], p: PodInfo, ns: NamespaceLabels) => terms.length > 0 && terms.every((t) => termMatches(t, p, ns(p.namespace)));

/** PreFilter: the counts the filter needs, or undefined when the plugin has nothing to check (Skip). */
export function affinityPreFilter(pod: PodInfo, nodes: readonly NodeInfo[], ns: NamespaceLabels): AffinityFilterState | undefined {
  const state: AffinityFilterState = { pod, existingAntiAffinity: new Map(), affinity: new Map(), antiAffinity: new Map() };
  const podNsLabels = ns(pod.namespace);
  const hasOwnTerms = pod.requiredAffinity.length > 0 || pod.requiredAntiAffinity.length > 0;
  for (const node of nodes) {
    for (const existing of node.podsWithRequiredAntiAffinity) {
      for (const t of existing.requiredAntiAffinity) if (termMatches(t, pod, podNsLabels)) bump(state.existingAntiAffinity, node, t.topologyKey, 1);
    }
    if (!hasOwnTerms) continue;
    for (const existing of node.pods.values()) {
      if (matchesAll(pod.requiredAffinity, existing, ns)) for (const t of pod.requiredAffinity) bump(state.affinity, node, t.topologyKey, 1);
      for (const t of pod.requiredAntiAffinity) if (termMatches(t, existing, ns(existing.namespace))) bump(state.antiAffinity, node, t.topologyKey, 1);
    }
  }
  if (state.existingAntiAffinity.size === 0 && !hasOwnTerms) return undefined;
  return state;
}

/** Filter: the reason and whether preemption could resolve it, or undefined when the node passes. */
export function affinityFilter(state: AffinityFilterState, node: NodeInfo, ns: NamespaceLabels): { reason: string; resolvable: boolean } | undefined {
  // The pod's affinity: every term's topology must hold a matching pod — unless no pod anywhere
  // matches and the pod matches its own terms (the first of a group that wants to be together).
  let podsExist = true;
  for (const t of state.pod.requiredAffinity) {
    const value = node.labels[t.topologyKey];
    if (value === undefined) return { reason: ERR_AFFINITY_RULES, resolvable: false };
    if ((state.affinity.get(pairKey(t.topologyKey, value)) ?? 0) <= 0) podsExist = false;
  }
  if (!podsExist && !(state.affinity.size === 0 && matchesAll(state.pod.requiredAffinity, state.pod, ns))) {
    return { reason: ERR_AFFINITY_RULES, resolvable: false };
  }
  if (state.antiAffinity.size > 0) {
    for (const t of state.pod.requiredAntiAffinity) {
      const value = node.labels[t.topologyKey];
      if (value !== undefined && (state.antiAffinity.get(pairKey(t.topologyKey, value)) ?? 0) > 0) return { reason: ERR_ANTI_AFFINITY_RULES, resolvable: true };
    }
  }
  if (state.existingAntiAffinity.size > 0) {
    for (const [key, value] of Object.entries(node.labels)) {
      if ((state.existingAntiAffinity.get(pairKey(key, value)) ?? 0) > 0) return { reason: ERR_EXISTING_ANTI_AFFINITY, resolvable: true };
    }
  }
  return undefined;
}

/** The weight kube gives an existing pod's required affinity towards the incoming pod (hardPodAffinityWeight). */
export const HARD_POD_AFFINITY_WEIGHT = 1;

/** PreScore: topology key → value → score, or undefined when there is nothing to score (Skip). */
export function affinityPreScore(pod: PodInfo, nodes: readonly NodeInfo[], ns: NamespaceLabels): Map<string, Map<string, number>> | undefined {
  const hasPreferred = pod.preferredAffinity.length > 0 || pod.preferredAntiAffinity.length > 0;
  const anyWithAffinity = nodes.some((n) => n.podsWithAffinity.size > 0);
  if (!hasPreferred && !anyWithAffinity) return undefined;
  const scores = new Map<string, Map<string, number>>();
  const add = (node: NodeInfo, key: string, by: number) => {
    const value = node.labels[key];
    if (value === undefined || by === 0) return;
    let byValue = scores.get(key);
    if (!byValue) scores.set(key, (byValue = new Map()));
    byValue.set(value, (byValue.get(value) ?? 0) + by);
  };
  const podNsLabels = ns(pod.namespace);
  const weighted = (terms: readonly WeightedAffinityTerm[], target: PodInfo, nsLabels: Record<string, string> | undefined, node: NodeInfo, sign: number) => {
    for (const t of terms) if (termMatches(t, target, nsLabels)) add(node, t.topologyKey, sign * t.weight);
  };
  for (const node of nodes) {
    const candidates = hasPreferred ? node.pods.values() : node.podsWithAffinity.values();
    for (const existing of candidates) {
      const existingNs = ns(existing.namespace);
      weighted(pod.preferredAffinity, existing, existingNs, node, 1);
      weighted(pod.preferredAntiAffinity, existing, existingNs, node, -1);
      for (const t of existing.requiredAffinity) if (termMatches(t, pod, podNsLabels)) add(node, t.topologyKey, HARD_POD_AFFINITY_WEIGHT);
      weighted(existing.preferredAffinity, pod, podNsLabels, node, 1);
      weighted(existing.preferredAntiAffinity, pod, podNsLabels, node, -1);
    }
  }
  return scores;
}

/** Score: the sum of the node's topology pairs' scores. */
export function affinityScore(scores: Map<string, Map<string, number>>, node: NodeInfo): number {
  let total = 0;
  for (const [key, byValue] of scores) {
    const value = node.labels[key];
    if (value !== undefined) total += byValue.get(value) ?? 0;
  }
  return total;
}

/** NormalizeScore: scaled to 0..100 between the lowest and highest score (all 0 when they are equal). */
export function normalizeAffinityScores(raw: readonly number[]): number[] {
  if (raw.length === 0) return [];
  const min = Math.min(...raw);
  const max = Math.max(...raw);
  const diff = max - min;
  return raw.map((s) => (diff > 0 ? Math.trunc((100 * (s - min)) / diff) : 0));
}
