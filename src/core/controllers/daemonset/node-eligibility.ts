// Which nodes a DaemonSet's pod belongs on, as kube's daemon controller
// decides (NodeShouldRunDaemonPod): the template's nodeName, its node
// selector and required node affinity, and the node's NoSchedule/NoExecute
// taints against the pod's tolerations — including those the controller
// gives every daemon pod (not-ready and unreachable NoExecute; disk, memory
// and pid pressure, unschedulable NoSchedule; network-unavailable for
// hostNetwork pods). A pod already there keeps running unless a NoExecute
// taint it does not tolerate says otherwise. The controller does not place
// pods itself: it pins each to its node with required node affinity on the
// field metadata.name and lets the scheduler bind it.

import type { KubeObject } from '../../kinds/types';
import { matchesNodeAffinity } from '../scheduler/node-fit';

type Obj = Record<string, unknown>;
export const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

interface Taint {
  key: string;
  value?: string;
  effect: string;
}

/** AddOrUpdateDaemonPodTolerations, in kube's order. */
export function daemonTolerations(hostNetwork: boolean): Toleration[] {
  const list: Toleration[] = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (hostNetwork) list.push({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
  return list;
}

/** MatchToleration: same key, operator, value and effect. */
const sameToleration = (a: Toleration, b: Toleration) => str(a.key) === str(b.key) && str(a.operator) === str(b.operator) && str(a.value) === str(b.value) && str(a.effect) === str(b.effect);

/** The pod spec with the daemon tolerations added (AddOrUpdateTolerationInPodSpec: an equal one is replaced, else appended). */
export function withDaemonTolerations(spec: Obj): Obj {
  const tolerations = arr(spec.tolerations).map((t) => rec(t) as Toleration);
  for (const t of daemonTolerations(spec.hostNetwork === true)) {
    const i = tolerations.findIndex((existing) => sameToleration(existing, t));
    if (i >= 0) tolerations[i] = t;
    else tolerations.push(t);
  }
  return { ...spec, tolerations };
}

/** Toleration.ToleratesTaint. */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return str(t.value) === str(taint.value);
    case 'Exists':
      return true;
    default:
      return false;
  }
}

function hasUntolerated(taints: readonly Taint[], tolerations: readonly Toleration[], effects: readonly string[]): boolean {
  return taints.some((taint) => effects.includes(taint.effect) && !tolerations.some((t) => toleratesTaint(t, taint)));
}

export interface NodeVerdict {
  /** A daemon pod should be created here if none runs. */
  readonly shouldRun: boolean;
  /** A daemon pod already here may stay. */
  readonly shouldContinueRunning: boolean;
}

/** NodeShouldRunDaemonPod: the daemon pod (NewPod, with its tolerations) against the node. */
export function nodeShouldRunDaemonPod(node: KubeObject, ds: KubeObject): NodeVerdict {
  const template = rec(rec(ds.spec).template);
  const podSpec = withDaemonTolerations(rec(template.spec));
  const nodeName = node.metadata?.name ?? '';
  const templateNode = str(rec(template.spec).nodeName);
  if (templateNode !== '' && templateNode !== nodeName) return { shouldRun: false, shouldContinueRunning: false };
  const pod: KubeObject = { metadata: { ...rec(template.metadata), namespace: ds.metadata?.namespace }, spec: { ...podSpec, nodeName } };
  if (!matchesNodeAffinity(pod, node)) return { shouldRun: false, shouldContinueRunning: false };
  const taints = arr(rec(node.spec).taints).map((t) => rec(t) as unknown as Taint);
  const tolerations = podSpec.tolerations as Toleration[];
  if (hasUntolerated(taints, tolerations, ['NoSchedule', 'NoExecute'])) {
    return { shouldRun: false, shouldContinueRunning: !hasUntolerated(taints, tolerations, ['NoExecute']) };
  }
  return { shouldRun: true, shouldContinueRunning: true };
}

/** util.GetTargetNodeName: the pod's node, or the one its metadata.name node affinity pins it to. */
export function targetNodeName(pod: KubeObject): string | undefined {
  const spec = rec(pod.spec);
  if (str(spec.nodeName)) return str(spec.nodeName);
  const terms = arr(rec(rec(rec(spec.affinity).nodeAffinity).requiredDuringSchedulingIgnoredDuringExecution).nodeSelectorTerms).map(rec);
  for (const term of terms) {
    for (const field of arr(term.matchFields).map(rec)) {
      const values = arr(field.values);
      if (field.key === 'metadata.name' && field.operator === 'In' && values.length === 1) return str(values[0]);
    }
  }
  return undefined;
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: required node affinity reduced to the one node (other required terms dropped; the node already matched them). */
export function pinnedToNode(affinity: unknown, nodeName: string): Obj {
  const requirement = { key: 'metadata.name', operator: 'In', values: [nodeName] };
  const selector = { nodeSelectorTerms: [{ matchFields: [requirement] }] };
  const a = structuredClone(rec(affinity));
  const nodeAffinity = rec(a.nodeAffinity);
  const required = nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
  if (required === undefined || required === null) nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = selector;
  else nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = { ...rec(required), nodeSelectorTerms: selector.nodeSelectorTerms };
  a.nodeAffinity = nodeAffinity;
  return a;
}
