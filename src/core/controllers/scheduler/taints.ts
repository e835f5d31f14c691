// Taints and tolerations: the TaintToleration plugin's filter (a NoSchedule or
// NoExecute taint the pod does not tolerate rejects the node) and score (the
// fewer untolerated PreferNoSchedule taints, the better), and the
// NodeUnschedulable check. KubeTab's nodes may have no node lifecycle
// controller to taint them, so a node whose Ready condition is not True is
// treated as carrying the NoSchedule taint that controller would give it
// (node.kubernetes.io/not-ready or /unreachable) — see docs/decisions/0142.

import type { KubeObject } from '../../kinds/types';
import { arr, rec, str, type Obj } from './objects';

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
}

export const ERR_UNSCHEDULABLE = 'node(s) were unschedulable';
/** TaintToleration's reason in 1.32 (later releases dropped the key and value). */
export const untoleratedTaint = (t: Taint) => `node(s) had untolerated taint {${t.key}: ${t.value ?? ''}}`;

/** v1 Toleration.ToleratesTaint. */
export function tolerates(toleration: Obj, taint: Taint): boolean {
  const effect = str(toleration.effect);
  if (effect && effect !== taint.effect) return false;
  const key = str(toleration.key);
  if (key && key !== taint.key) return false;
  const op = str(toleration.operator);
  if (op === 'Exists') return true;
  if (op === '' || op === 'Equal') return str(toleration.value) === (taint.value ?? '');
  return false;
}

export const podTolerations = (pod: KubeObject): Obj[] => arr(rec(pod.spec).tolerations).map(rec);

export const tolerated = (tolerations: readonly Obj[], taint: Taint) => tolerations.some((t) => tolerates(t, taint));

/** The node's taints, plus the one a node lifecycle controller would add for its Ready condition. */
export function effectiveTaints(node: KubeObject): Taint[] {
  const taints = arr(rec(node.spec).taints).map((t) => {
    const r = rec(t);
    return { key: str(r.key), value: str(r.value), effect: str(r.effect) };
  });
  const ready = arr(rec(node.status).conditions)
    .map(rec)
    .find((c) => c.type === 'Ready');
  if (ready?.status !== 'True') {
    const key = ready?.status === 'False' ? 'node.kubernetes.io/not-ready' : 'node.kubernetes.io/unreachable';
    if (!taints.some((t) => t.key === key && t.effect === 'NoSchedule')) taints.push({ key, value: '', effect: 'NoSchedule' });
  }
  return taints;
}

/** NodeUnschedulable: a cordoned node takes only pods that tolerate node.kubernetes.io/unschedulable:NoSchedule. */
export function unschedulableReason(tolerations: readonly Obj[], unschedulable: boolean): string | undefined {
  if (!unschedulable) return undefined;
  return tolerated(tolerations, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }) ? undefined : ERR_UNSCHEDULABLE;
}

/** TaintToleration's filter: the first NoSchedule/NoExecute taint not tolerated. */
export function taintReason(tolerations: readonly Obj[], taints: readonly Taint[]): string | undefined {
  const t = taints.find((x) => (x.effect === 'NoSchedule' || x.effect === 'NoExecute') && !tolerated(tolerations, x));
  return t ? untoleratedTaint(t) : undefined;
}

/** TaintToleration's raw score: PreferNoSchedule taints not tolerated by the pod's PreferNoSchedule (or effect-less) tolerations. */
export function intolerablePreferNoSchedule(tolerations: readonly Obj[], taints: readonly Taint[]): number {
  const relevant = tolerations.filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
  return taints.filter((t) => t.effect === 'PreferNoSchedule' && !tolerated(relevant, t)).length;
}
