// What the scheduler reads from a pod, parsed once per version of the pod
// (framework.PodInfo): its requests (plain and non-zero), host ports, pod
// (anti-)affinity terms with their selectors, priority and labels. Node
// aggregates and every plugin work from these rather than from raw JSON.

import type { KubeObject } from '../../kinds/types';
import { LabelSelector } from '../../selectors';
import { labelSelectorAsSelector } from '../../selectors/label-selector-object';
import type { LabelSelectorObject } from '../../selectors';
import { arr, rec, str, type Obj } from './objects';
import { podRequests, type Resources } from './resources';

export interface AffinityTerm {
  readonly selector: LabelSelector;
  /** Namespaces named by the term (the pod's own when it names none and has no namespaceSelector). */
  readonly namespaces: ReadonlySet<string>;
  /** The namespaceSelector (nothing when absent). */
  readonly namespaceSelector: LabelSelector;
  readonly topologyKey: string;
}

export interface WeightedAffinityTerm extends AffinityTerm {
  readonly weight: number;
}

export interface HostPort {
  readonly protocol: string;
  readonly ip: string;
  readonly port: number;
}

export interface PodInfo {
  readonly pod: KubeObject;
  readonly uid: string;
  /** namespace/name */
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly nodeName: string;
  readonly priority: number;
  readonly deleting: boolean;
  readonly requests: Resources;
  readonly nonZeroRequests: Resources;
  readonly hostPorts: readonly HostPort[];
  readonly requiredAffinity: readonly AffinityTerm[];
  readonly requiredAntiAffinity: readonly AffinityTerm[];
  readonly preferredAffinity: readonly WeightedAffinityTerm[];
  readonly preferredAntiAffinity: readonly WeightedAffinityTerm[];
  /** Whether the pod has any pod (anti-)affinity term (NodeInfo.PodsWithAffinity). */
  readonly hasAffinity: boolean;
}

function selectorOf(v: unknown): LabelSelector {
  if (v === undefined || v === null) return LabelSelector.nothing();
  try {
    return labelSelectorAsSelector(v as LabelSelectorObject);
  } catch {
    // A selector the API should have refused: it selects nothing.
    return LabelSelector.nothing();
  }
}

function affinityTerm(pod: KubeObject, raw: Obj): AffinityTerm {
  const listed = arr(raw.namespaces).map(String);
  const hasNsSelector = raw.namespaceSelector !== undefined && raw.namespaceSelector !== null;
  const namespaces = listed.length === 0 && !hasNsSelector ? [pod.metadata?.namespace ?? ''] : listed;
  return {
    selector: selectorOf(raw.labelSelector),
    namespaces: new Set(namespaces),
    namespaceSelector: hasNsSelector ? selectorOf(raw.namespaceSelector) : LabelSelector.nothing(),
    topologyKey: str(raw.topologyKey),
  };
}

const required = (pod: KubeObject, group: Obj) => arr(group.requiredDuringSchedulingIgnoredDuringExecution).map((t) => affinityTerm(pod, rec(t)));
const preferred = (pod: KubeObject, group: Obj): WeightedAffinityTerm[] =>
  arr(group.preferredDuringSchedulingIgnoredDuringExecution)
    .map(rec)
    .map((w) => ({ ...affinityTerm(pod, rec(w.podAffinityTerm)), weight: typeof w.weight === 'number' ? w.weight : 0 }));

/** Container host ports (NodePorts' getContainerPorts: a hostPort of 0 asks for none). */
function hostPorts(pod: KubeObject): HostPort[] {
  const ports: HostPort[] = [];
  for (const c of arr(rec(pod.spec).containers).map(rec)) {
    for (const p of arr(c.ports).map(rec)) {
      const port = typeof p.hostPort === 'number' ? p.hostPort : 0;
      if (port <= 0) continue;
      ports.push({ protocol: str(p.protocol) || 'TCP', ip: str(p.hostIP) || '0.0.0.0', port });
    }
  }
  return ports;
}

/** Whether the term selects the pod, given the labels of the pod's namespace (AffinityTerm.Matches). */
export function termMatches(term: AffinityTerm, pod: PodInfo, namespaceLabels: Record<string, string> | undefined): boolean {
  if (!term.namespaces.has(pod.namespace) && !term.namespaceSelector.matches(namespaceLabels ?? {})) return false;
  return term.selector.matches(pod.labels);
}

export function podInfo(pod: KubeObject): PodInfo {
  const spec = rec(pod.spec);
  const affinity = rec(spec.affinity);
  const podAffinity = rec(affinity.podAffinity);
  const podAntiAffinity = rec(affinity.podAntiAffinity);
  const namespace = pod.metadata?.namespace ?? '';
  const name = pod.metadata?.name ?? '';
  const info = {
    pod,
    uid: pod.metadata?.uid ?? `${namespace}/${name}`,
    key: `${namespace}/${name}`,
    namespace,
    name,
    labels: pod.metadata?.labels ?? {},
    nodeName: str(spec.nodeName),
    priority: typeof spec.priority === 'number' ? spec.priority : 0,
    deleting: !!pod.metadata?.deletionTimestamp,
    requests: podRequests(pod),
    nonZeroRequests: podRequests(pod, true),
    hostPorts: hostPorts(pod),
    requiredAffinity: required(pod, podAffinity),
    requiredAntiAffinity: required(pod, podAntiAffinity),
    preferredAffinity: preferred(pod, podAffinity),
    preferredAntiAffinity: preferred(pod, podAntiAffinity),
    hasAffinity: false,
  };
  info.hasAffinity = Object.keys(podAffinity).length > 0 || Object.keys(podAntiAffinity).length > 0;
  return info;
}
