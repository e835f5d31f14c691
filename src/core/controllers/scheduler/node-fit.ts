// Whether a pod fits a node, as the default scheduler's filter plugins decide
// it, in their order (the first failing one gives the node's reason):
// NodeUnschedulable, TaintToleration, NodeAffinity (nodeSelector and required
// node affinity). Resources, ports, volumes and pod (anti-)affinity are not
// considered. KubeTab runs no node lifecycle controller, so a node whose
// Ready condition is not True is treated as carrying the taint that
// controller would give it (node.kubernetes.io/not-ready or /unreachable,
// NoSchedule).

import type { KubeObject } from '../../kinds/types';

type Obj = Record<string, unknown>;

const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
}

export const ERR_UNSCHEDULABLE = 'node(s) were unschedulable';
export const ERR_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
export const untoleratedTaint = (t: Taint) => `node(s) had untolerated taint {${t.key}: ${t.value ?? ''}}`;

/** v1 helper ToleratesTaint. */
function tolerates(toleration: Obj, taint: Taint): boolean {
  const effect = str(toleration.effect);
  if (effect && effect !== taint.effect) return false;
  const key = str(toleration.key);
  if (key && key !== taint.key) return false;
  const op = str(toleration.operator);
  if (op === 'Exists') return true;
  if (op === '' || op === 'Equal') return str(toleration.value) === (taint.value ?? '');
  return false;
}

const toleratedBy = (pod: KubeObject, taint: Taint) => arr(rec(pod.spec).tolerations).some((t) => tolerates(rec(t), taint));

/** The node's taints, plus the one a node lifecycle controller would add for its Ready condition. */
export function effectiveTaints(node: KubeObject): Taint[] {
  const taints = arr(rec(node.spec).taints).map((t) => rec(t) as unknown as Taint);
  const ready = arr(rec(node.status).conditions)
    .map(rec)
    .find((c) => c.type === 'Ready');
  if (ready?.status !== 'True') {
    const key = ready?.status === 'False' ? 'node.kubernetes.io/not-ready' : 'node.kubernetes.io/unreachable';
    if (!taints.some((t) => t.key === key && t.effect === 'NoSchedule')) taints.push({ key, effect: 'NoSchedule' });
  }
  return taints;
}

/** One node-selector requirement against a node's labels (NodeSelectorRequirement). */
function matchesExpression(labels: Record<string, string>, req: Obj): boolean {
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
function matchesTerm(node: KubeObject, term: Obj): boolean {
  const expressions = arr(term.matchExpressions).map(rec);
  const fields = arr(term.matchFields).map(rec);
  if (expressions.length === 0 && fields.length === 0) return false;
  const labels = (node.metadata?.labels ?? {}) as Record<string, string>;
  const nodeFields = { 'metadata.name': node.metadata?.name ?? '' };
  return expressions.every((e) => matchesExpression(labels, e)) && fields.every((f) => matchesExpression(nodeFields, f));
}

/** NodeAffinity's filter: spec.nodeSelector and the required node affinity. */
export function matchesNodeAffinity(pod: KubeObject, node: KubeObject): boolean {
  const spec = rec(pod.spec);
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(rec(spec.nodeSelector))) if (labels[k] !== v) return false;
  const required = rec(rec(rec(spec.affinity).nodeAffinity).requiredDuringSchedulingIgnoredDuringExecution);
  if (Object.keys(required).length === 0) return true;
  return arr(required.nodeSelectorTerms).some((t) => matchesTerm(node, rec(t)));
}

/** Why the pod does not fit the node (the filter reason), or undefined when it fits. */
export function misfit(pod: KubeObject, node: KubeObject): string | undefined {
  if (rec(node.spec).unschedulable === true && !toleratedBy(pod, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' })) {
    return ERR_UNSCHEDULABLE;
  }
  const untolerated = effectiveTaints(node).find((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !toleratedBy(pod, t));
  if (untolerated) return untoleratedTaint(untolerated);
  if (!matchesNodeAffinity(pod, node)) return ERR_AFFINITY;
  return undefined;
}
