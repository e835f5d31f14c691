// NodeAffinity: spec.nodeSelector and the required node affinity as a filter
// (with its PreFilter narrowing to the nodes a `metadata.name` matchFields
// term names, as DaemonSet pods use), and the preferred terms as a score
// (the sum of the weights of the terms the node matches).

import type { KubeObject } from '../../kinds/types';
import { arr, rec, str, type Obj } from './objects';

export const ERR_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
export const ERR_AFFINITY_CONFLICT = 'pod affinity terms conflict';

/** One NodeSelectorRequirement against a label (or field) set. */
export function matchesRequirement(labels: Record<string, string>, req: Obj): boolean {
  const key = str(req.key);
  const has = Object.prototype.hasOwnProperty.call(labels, key);
  const values = arr(req.values).map(String);
  switch (req.operator) {
    case 'In':
      return has && values.includes(labels[key]!);
    case 'NotIn':
      return !has || !values.includes(labels[key]!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || values.length !== 1) return false;
      const label = Number.parseInt(labels[key]!, 10);
      const bound = Number.parseInt(values[0]!, 10);
      if (Number.isNaN(label) || Number.isNaN(bound)) return false;
      return req.operator === 'Gt' ? label > bound : label < bound;
    }
    default:
      return false;
  }
}

/** A NodeSelectorTerm: every expression and field requirement holds (an empty term matches nothing). */
export function matchesTerm(nodeName: string, labels: Record<string, string>, term: Obj): boolean {
  const expressions = arr(term.matchExpressions).map(rec);
  const fields = arr(term.matchFields).map(rec);
  if (expressions.length === 0 && fields.length === 0) return false;
  const nodeFields = { 'metadata.name': nodeName };
  return expressions.every((e) => matchesRequirement(labels, e)) && fields.every((f) => matchesRequirement(nodeFields, f));
}

const requiredTerms = (pod: KubeObject): Obj | undefined => {
  const required = rec(rec(rec(rec(pod.spec).affinity).nodeAffinity).requiredDuringSchedulingIgnoredDuringExecution);
  return Object.keys(required).length === 0 ? undefined : required;
};

/** Whether the node satisfies the pod's nodeSelector and required node affinity (GetRequiredNodeAffinity().Match). */
export function matchesNodeAffinity(pod: KubeObject, nodeName: string, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(rec(rec(pod.spec).nodeSelector))) if (labels[k] !== v) return false;
  const required = requiredTerms(pod);
  if (!required) return true;
  return arr(required.nodeSelectorTerms).some((t) => matchesTerm(nodeName, labels, rec(t)));
}

/**
 * NodeAffinity's PreFilter: when every required term pins metadata.name with
 * In, only those nodes are candidates (undefined: all nodes). An empty set
 * means the terms conflict.
 */
export function nodeAffinityNodeNames(pod: KubeObject): Set<string> | undefined {
  const required = requiredTerms(pod);
  if (!required) return undefined;
  let names: Set<string> | undefined;
  for (const term of arr(required.nodeSelectorTerms).map(rec)) {
    let termNames: Set<string> | undefined;
    for (const f of arr(term.matchFields).map(rec)) {
      if (f.key !== 'metadata.name' || f.operator !== 'In') continue;
      const values = new Set(arr(f.values).map(String));
      termNames = termNames ? new Set([...termNames].filter((n) => values.has(n))) : values;
    }
    if (!termNames) return undefined;
    names = new Set([...(names ?? []), ...termNames]);
  }
  return names;
}

/** NodeAffinity's raw score: the weights of the preferred terms the node matches. */
export function preferredNodeAffinityScore(pod: KubeObject, nodeName: string, labels: Record<string, string>): number {
  let score = 0;
  const preferred = arr(rec(rec(rec(pod.spec).affinity).nodeAffinity).preferredDuringSchedulingIgnoredDuringExecution).map(rec);
  for (const p of preferred) {
    const weight = typeof p.weight === 'number' ? p.weight : 0;
    if (weight !== 0 && matchesTerm(nodeName, labels, rec(p.preference))) score += weight;
  }
  return score;
}
