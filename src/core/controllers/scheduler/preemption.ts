// DefaultPreemption (the PostFilter): when no node fits, could evicting
// lower-priority pods make room? Nodes rejected for reasons eviction cannot
// change are "not helpful"; on the others every lower-priority pod is taken
// away in a dry run and the filters run again; if the pod then fits, as few
// victims as possible are kept (the most important pods are reprieved first)
// and the best candidate node is chosen as kube's pickOneNodeForPreemption
// does (lowest highest-victim priority, lowest priority sum, fewest victims,
// latest start). PodDisruptionBudgets are not considered.

import type { ClusterView, Diagnosis, NodeStatus } from './framework';
import { runFilters } from './framework';
import { fitErrorMessage } from './fit-error';
import { NodeInfo } from './node-info';
import { rec, str } from './objects';
import type { PodInfo } from './pod-info';

export interface Candidate {
  readonly node: string;
  readonly victims: readonly PodInfo[];
}

export type PreemptionOutcome = { readonly message: string; readonly candidate?: undefined } | { readonly message?: undefined; readonly candidate: Candidate };

const NOT_HELPFUL = 'Preemption is not helpful for scheduling';
const NO_VICTIMS = 'No preemption victims found for incoming pod';

const startTime = (p: PodInfo) => str(rec(p.pod.status).startTime) || str(p.pod.metadata?.creationTimestamp);

/** MoreImportantPod: higher priority first, then the one that started earlier. */
const moreImportantFirst = (a: PodInfo, b: PodInfo) => b.priority - a.priority || (startTime(a) < startTime(b) ? -1 : startTime(a) > startTime(b) ? 1 : 0);

function nodeWithout(node: NodeInfo, removed: ReadonlySet<string>): NodeInfo {
  const copy = new NodeInfo(node.name);
  if (node.node) copy.setNode(node.node);
  for (const p of node.pods.values()) if (!removed.has(p.uid)) copy.addPod(p);
  return copy;
}

function fitsWith(pod: PodInfo, nodes: readonly NodeInfo[], replaced: NodeInfo, view: ClusterView): NodeStatus | undefined {
  const view2 = nodes.map((n) => (n.name === replaced.name ? replaced : n));
  const result = runFilters(pod, view2, view);
  if (result.feasible.some((n) => n.name === replaced.name)) return undefined;
  return result.diagnosis.statuses.get(replaced.name) ?? result.diagnosis.absent ?? { code: 'UnschedulableAndUnresolvable', reasons: [NOT_HELPFUL], plugin: '' };
}

function pickOne(candidates: readonly Candidate[]): Candidate {
  const highest = (c: Candidate) => Math.max(...c.victims.map((v) => v.priority));
  const sum = (c: Candidate) => c.victims.reduce((s, v) => s + v.priority + 2 ** 31, 0);
  const earliestOfHighest = (c: Candidate) => {
    const h = highest(c);
    return c.victims.filter((v) => v.priority === h).map(startTime).sort()[0] ?? '';
  };
  const sorted = [...candidates].sort(
    (a, b) =>
      highest(a) - highest(b) ||
      sum(a) - sum(b) ||
      a.victims.length - b.victims.length ||
      (earliestOfHighest(a) > earliestOfHighest(b) ? -1 : earliestOfHighest(a) < earliestOfHighest(b) ? 1 : 0),
  );
  return sorted[0]!;
}

/** What preemption finds for the pod after the filters rejected every node. */
export function preempt(pod: PodInfo, diagnosis: Diagnosis, nodes: readonly NodeInfo[], view: ClusterView): PreemptionOutcome {
  if (str(rec(pod.pod.spec).preemptionPolicy) === 'Never') return { message: 'preemption: not eligible due to preemptionPolicy=Never.' };
  const statuses = new Map<string, NodeStatus>();
  const candidates: Candidate[] = [];
  for (const node of nodes) {
    const status = diagnosis.statuses.get(node.name) ?? diagnosis.absent;
    if (!status || status.code === 'UnschedulableAndUnresolvable') {
      statuses.set(node.name, { code: 'UnschedulableAndUnresolvable', reasons: [NOT_HELPFUL], plugin: '' });
      continue;
    }
    const lower = [...node.pods.values()].filter((p) => p.priority < pod.priority);
    if (lower.length === 0) {
      statuses.set(node.name, { code: 'UnschedulableAndUnresolvable', reasons: [NO_VICTIMS], plugin: '' });
      continue;
    }
    const removed = new Set(lower.map((p) => p.uid));
    const failure = fitsWith(pod, nodes, nodeWithout(node, removed), view);
    if (failure) {
      statuses.set(node.name, failure);
      continue;
    }
    const victims: PodInfo[] = [];
    for (const p of [...lower].sort(moreImportantFirst)) {
      removed.delete(p.uid);
      if (fitsWith(pod, nodes, nodeWithout(node, removed), view)) {
        removed.add(p.uid);
        victims.push(p);
      }
    }
    candidates.push({ node: node.name, victims });
  }
  if (candidates.length > 0) return { candidate: pickOne(candidates) };
  const fit = fitErrorMessage({ numAllNodes: nodes.length, statuses, plugins: new Set() });
  return { message: `preemption: ${fit}` };
}
