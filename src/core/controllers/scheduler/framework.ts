// One scheduling attempt, in the default profile's plugin order: PreFilter
// (NodeAffinity, NodePorts, NodeResourcesFit, VolumeBinding,
// PodTopologySpread, InterPodAffinity), Filter per node (NodeUnschedulable,
// TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, VolumeBinding,
// PodTopologySpread, InterPodAffinity — the first to reject gives the node's
// status), then the weighted scores (TaintToleration 3, NodeAffinity 2,
// NodeResourcesFit 1, PodTopologySpread 2, InterPodAffinity 2,
// BalancedAllocation 1, ImageLocality 1). kube picks at random among the
// best-scoring nodes; KubeTab takes the first by name, so that a run can be
// replayed (docs/decisions/0142).

import { affinityFilter, affinityPreFilter, affinityPreScore, affinityScore, normalizeAffinityScores, type NamespaceLabels } from './inter-pod-affinity';
import { ERR_AFFINITY_CONFLICT, ERR_NODE_AFFINITY, matchesNodeAffinity, nodeAffinityNodeNames, preferredNodeAffinityScore } from './node-affinity';
import type { NodeInfo } from './node-info';
import { balancedAllocationScore, ERR_PORTS, imageLocalityScore, insufficientResources, leastAllocatedScore, MAX_NODE_SCORE, portsConflict } from './node-resources';
import type { PodInfo } from './pod-info';
import { intolerablePreferNoSchedule, podTolerations, taintReason, unschedulableReason } from './taints';
import { normalizeSpreadScores, spreadFilter, spreadPreFilter, spreadPreScore, spreadScore, type SpreadOwners } from './topology-spread';
import { volumeFilter, volumePreFilter, type VolumeObjects, type VolumeState } from './volume-binding';

export type Code = 'Unschedulable' | 'UnschedulableAndUnresolvable';

export interface NodeStatus {
  readonly code: Code;
  readonly reasons: readonly string[];
  readonly plugin: string;
}

/** What the plugins read besides nodes and pods. */
export interface ClusterView extends VolumeObjects, SpreadOwners {
  readonly namespaceLabels: NamespaceLabels;
}

export interface Diagnosis {
  readonly numAllNodes: number;
  /** Statuses of the nodes the filters looked at. */
  readonly statuses: Map<string, NodeStatus>;
  /** The status of every node not in `statuses` (a PreFilter's rejection or narrowing). */
  absent?: NodeStatus;
  /** A PreFilter's rejection message. */
  preFilterMsg?: string;
  /** The plugins that rejected the pod somewhere (what a retry waits on). */
  readonly plugins: Set<string>;
}

export type Decision =
  | { readonly kind: 'bind'; readonly node: string; readonly volumes: VolumeState }
  | { readonly kind: 'noNodes' }
  | { readonly kind: 'unschedulable'; readonly diagnosis: Diagnosis };

const unresolvable = (plugin: string, ...reasons: string[]): NodeStatus => ({ code: 'UnschedulableAndUnresolvable', reasons, plugin });
const unschedulable = (plugin: string, ...reasons: string[]): NodeStatus => ({ code: 'Unschedulable', reasons, plugin });

export interface FilterResult {
  readonly feasible: NodeInfo[];
  readonly diagnosis: Diagnosis;
  readonly volumes: VolumeState;
}

/** PreFilter and Filter over `nodes` (all nodes with a Node object, by name). */
export function runFilters(pod: PodInfo, nodes: readonly NodeInfo[], view: ClusterView): FilterResult {
  const diagnosis: Diagnosis = { numAllNodes: nodes.length, statuses: new Map(), plugins: new Set() };
  const reject = (status: NodeStatus, volumes: VolumeState = { boundVolumes: [], delayedClaims: [] }): FilterResult => {
    diagnosis.absent = status;
    diagnosis.preFilterMsg = status.reasons.join(', ');
    diagnosis.plugins.add(status.plugin);
    return { feasible: [], diagnosis, volumes };
  };

  // PreFilter.
  const names = nodeAffinityNodeNames(pod.pod);
  if (names && names.size === 0) return reject(unresolvable('NodeAffinity', ERR_AFFINITY_CONFLICT));
  const volumes = volumePreFilter(pod.pod, view);
  if (volumes.rejection) return reject(unresolvable('VolumeBinding', volumes.rejection), volumes);
  const spread = spreadPreFilter(pod, nodes);
  const affinity = affinityPreFilter(pod, nodes, view.namespaceLabels);

  let candidates = nodes;
  if (names) {
    candidates = nodes.filter((n) => names.has(n.name));
    diagnosis.absent = unresolvable('NodeAffinity', "node(s) didn't satisfy plugin(s) [NodeAffinity]");
    diagnosis.plugins.add('NodeAffinity');
  }

  const tolerations = podTolerations(pod.pod);
  const feasible: NodeInfo[] = [];
  for (const node of candidates) {
    const status = filterNode(pod, node, tolerations, volumes, spread, affinity, view);
    if (status) {
      diagnosis.statuses.set(node.name, status);
      diagnosis.plugins.add(status.plugin);
    } else feasible.push(node);
  }
  return { feasible, diagnosis, volumes };
}

function filterNode(
  pod: PodInfo,
  node: NodeInfo,
  tolerations: ReturnType<typeof podTolerations>,
  volumes: VolumeState,
  spread: ReturnType<typeof spreadPreFilter>,
  affinity: ReturnType<typeof affinityPreFilter>,
  view: ClusterView,
): NodeStatus | undefined {
  const cordoned = unschedulableReason(tolerations, node.unschedulable);
  if (cordoned) return unresolvable('NodeUnschedulable', cordoned);
  const taint = taintReason(tolerations, node.taints);
  if (taint) return unresolvable('TaintToleration', taint);
  if (!matchesNodeAffinity(pod.pod, node.name, node.labels)) return unresolvable('NodeAffinity', ERR_NODE_AFFINITY);
  if (pod.hostPorts.length > 0 && portsConflict(pod, node)) return unschedulable('NodePorts', ERR_PORTS);
  const insufficient = insufficientResources(pod, node);
  if (insufficient.length > 0) return unschedulable('NodeResourcesFit', ...insufficient);
  const volume = volumeFilter(volumes, node, view);
  if (volume) return unresolvable('VolumeBinding', volume);
  if (spread) {
    const s = spreadFilter(spread, pod, node);
    if (s) return s.resolvable ? unschedulable('PodTopologySpread', s.reason) : unresolvable('PodTopologySpread', s.reason);
  }
  if (affinity) {
    const a = affinityFilter(affinity, node, view.namespaceLabels);
    if (a) return a.resolvable ? unschedulable('InterPodAffinity', a.reason) : unresolvable('InterPodAffinity', a.reason);
  }
  return undefined;
}

/** DefaultNormalizeScore: scaled so that the highest is 100 (reversed: the highest becomes 0). */
export function defaultNormalize(raw: readonly number[], reverse: boolean): number[] {
  const max = Math.max(0, ...raw);
  if (max === 0) return raw.map(() => (reverse ? MAX_NODE_SCORE : 0));
  return raw.map((s) => {
    const scaled = Math.trunc((MAX_NODE_SCORE * s) / max);
    return reverse ? MAX_NODE_SCORE - scaled : scaled;
  });
}

export interface ScoredNode {
  readonly name: string;
  readonly total: number;
  readonly byPlugin: Readonly<Record<string, number>>;
}

/** Every score plugin over the feasible nodes, weighted and summed. */
export function scoreNodes(pod: PodInfo, feasible: readonly NodeInfo[], all: readonly NodeInfo[], view: ClusterView): ScoredNode[] {
  const plugins: [string, number, number[]][] = [];
  const tolerations = podTolerations(pod.pod);
  plugins.push(['TaintToleration', 3, defaultNormalize(feasible.map((n) => intolerablePreferNoSchedule(tolerations, n.taints)), true)]);
  const nodeAffinityRaw = feasible.map((n) => preferredNodeAffinityScore(pod.pod, n.name, n.labels));
  plugins.push(['NodeAffinity', 2, defaultNormalize(nodeAffinityRaw, false)]);
  plugins.push(['NodeResourcesFit', 1, feasible.map((n) => leastAllocatedScore(pod, n))]);
  const spread = spreadPreScore(pod, feasible, all, view);
  plugins.push(['PodTopologySpread', 2, spread ? normalizeSpreadScores(spread, feasible, feasible.map((n) => spreadScore(spread, pod, n))) : feasible.map(() => 0)]);
  const affinity = affinityPreScore(pod, all, view.namespaceLabels);
  plugins.push(['InterPodAffinity', 2, affinity && affinity.size > 0 ? normalizeAffinityScores(feasible.map((n) => affinityScore(affinity, n))) : feasible.map(() => 0)]);
  plugins.push(['NodeResourcesBalancedAllocation', 1, feasible.map((n) => balancedAllocationScore(pod, n))]);
  const imageNodes = new Map<string, number>();
  const nodesWithImage = (image: string) => {
    let n = imageNodes.get(image);
    if (n === undefined) imageNodes.set(image, (n = all.filter((x) => x.images.has(image)).length));
    return n;
  };
  plugins.push(['ImageLocality', 1, feasible.map((n) => imageLocalityScore(pod, n, nodesWithImage, all.length))]);
  return feasible.map((n, i) => {
    const byPlugin: Record<string, number> = {};
    let total = 0;
    for (const [name, weight, scores] of plugins) {
      byPlugin[name] = scores[i]!;
      total += weight * scores[i]!;
    }
    return { name: n.name, total, byPlugin };
  });
}

/** The best-scoring node; among equals the first by name (nodes come sorted by name). */
export function selectHost(scored: readonly ScoredNode[]): string {
  let best = scored[0]!;
  for (const s of scored) if (s.total > best.total) best = s;
  return best.name;
}

/** One attempt: where the pod goes, or why it cannot go anywhere. */
export function schedule(pod: PodInfo, nodes: readonly NodeInfo[], view: ClusterView): Decision {
  if (nodes.length === 0) return { kind: 'noNodes' };
  const { feasible, diagnosis, volumes } = runFilters(pod, nodes, view);
  if (feasible.length === 0) return { kind: 'unschedulable', diagnosis };
  if (feasible.length === 1) return { kind: 'bind', node: feasible[0]!.name, volumes };
  return { kind: 'bind', node: selectHost(scoreNodes(pod, feasible, nodes, view)), volumes };
}
