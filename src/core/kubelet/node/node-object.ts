// The Node object a kubelet registers and the status it posts, as the 1.32
// kubelet's initialNode and node status setters build them: the kubelet's
// own labels (hostname, os, arch, the zone when configured), the
// controller-managed-attach-detach annotation, the provider ID kind gives its
// nodes, the taints it registers with, then capacity and allocatable,
// addresses, the daemon endpoint, nodeInfo, images and the four conditions
// with the kubelet's reasons and messages.
//
// The control-plane role label and kubeadm's annotations are not the
// kubelet's to set (NodeRestriction refuses node-role.kubernetes.io/*):
// kubeadm's mark-control-plane phase adds them (kubeadm-node.ts).

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { CLUSTER_NAME, CONTAINER_RUNTIME_VERSION, KERNEL_VERSION, KUBELET_PORT, KUBELET_VERSION, OS_IMAGE, type NodeFacts } from './node-facts';

export const CONTROL_PLANE_TAINT = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' } as const;

/** kubelet's nodeStatusMaxImages. */
const MAX_IMAGES = 50;

export interface NodeImage {
  readonly names: readonly string[];
  readonly sizeBytes: number;
}

type Condition = {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastHeartbeatTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
};

/** The kubelet's word for each condition when all is well (and the event it records when it becomes so). */
const PRESSURE_CONDITIONS = [
  { type: 'MemoryPressure', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available', event: 'NodeHasSufficientMemory' },
  { type: 'DiskPressure', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure', event: 'NodeHasNoDiskPressure' },
  { type: 'PIDPressure', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available', event: 'NodeHasSufficientPID' },
] as const;

/** What the Ready condition says before the pod network is up (kind: until kindnet has the node's podCIDR). */
export const NETWORK_NOT_READY_MESSAGE =
  'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';

/** The Node as the kubelet creates it at registration. */
export function registrationNode(facts: NodeFacts): KubeObject {
  const { config } = facts;
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': config.name,
    'kubernetes.io/os': 'linux',
  };
  if (config.zone) labels['topology.kubernetes.io/zone'] = config.zone;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: config.name,
      labels,
      annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: {
      providerID: `kind://docker/${CLUSTER_NAME}/${config.name}`,
      // kubeadm's nodeRegistration.taints, passed to the kubelet as --register-with-taints.
      ...(config.role === 'control-plane' ? { taints: [{ ...CONTROL_PLANE_TAINT }] } : {}),
    },
  };
}

/** Capacity as the kubelet reads it from the machine; allocatable is the same on kind (no reservations, no hard memory eviction threshold). */
export function capacity(facts: NodeFacts): Record<string, string> {
  const { config } = facts;
  return {
    cpu: config.cpu,
    'ephemeral-storage': config.ephemeralStorage,
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: config.memory,
    pods: String(config.maxPods),
  };
}

export interface StatusInput {
  readonly facts: NodeFacts;
  /** The status the Node has now (from the API), whose conditions keep their transition times. */
  readonly current: Record<string, unknown> | undefined;
  /** Whether the pod network is up (the node has its podCIDR). */
  readonly networkReady: boolean;
  readonly images: readonly NodeImage[];
  readonly nowMs: number;
}

export interface StatusResult {
  readonly status: Record<string, unknown>;
  /** The events the setters record (reason), in the kubelet's order. */
  readonly events: readonly string[];
}

function previousCondition(current: Record<string, unknown> | undefined, type: string): Condition | undefined {
  const list = Array.isArray(current?.['conditions']) ? (current!['conditions'] as Condition[]) : [];
  return list.find((c) => c && c.type === type);
}

/** The node's status as the kubelet's setters compute it at `nowMs`, with the events they record. */
export function nodeStatus(input: StatusInput): StatusResult {
  const { facts, current, nowMs } = input;
  const now = rfc3339(nowMs);
  const events: string[] = [];
  const conditions: Condition[] = [];
  for (const p of PRESSURE_CONDITIONS) {
    const old = previousCondition(current, p.type);
    const changed = !old || old.status !== 'False';
    conditions.push({ type: p.type, status: 'False', lastHeartbeatTime: now, lastTransitionTime: changed ? now : old.lastTransitionTime, reason: p.reason, message: p.message });
    if (changed) events.push(p.event);
  }
  const oldReady = previousCondition(current, 'Ready');
  const ready = input.networkReady;
  const readyStatus = ready ? 'True' : 'False';
  const readyChanged = !oldReady || oldReady.status !== readyStatus;
  conditions.push({
    type: 'Ready',
    status: readyStatus,
    lastHeartbeatTime: now,
    lastTransitionTime: readyChanged ? now : oldReady.lastTransitionTime,
    reason: ready ? 'KubeletReady' : 'KubeletNotReady',
    message: ready ? 'kubelet is posting ready status' : NETWORK_NOT_READY_MESSAGE,
  });
  // The kubelet records NodeReady / NodeNotReady when the Ready status changes from what the Node said.
  if (readyChanged && (ready || oldReady)) events.push(ready ? 'NodeReady' : 'NodeNotReady');
  const images = [...input.images]
    .sort((a, b) => b.sizeBytes - a.sizeBytes)
    .slice(0, MAX_IMAGES)
    .map((i) => ({ names: [...i.names], sizeBytes: i.sizeBytes }));
  const cap = capacity(facts);
  return {
    status: {
      capacity: cap,
      allocatable: { ...cap },
      conditions,
      addresses: [
        { address: facts.internalIP, type: 'InternalIP' },
        { address: facts.config.name, type: 'Hostname' },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: KUBELET_PORT } },
      nodeInfo: {
        machineID: facts.machineID,
        systemUUID: facts.systemUUID,
        bootID: facts.bootID,
        kernelVersion: KERNEL_VERSION,
        osImage: OS_IMAGE,
        containerRuntimeVersion: CONTAINER_RUNTIME_VERSION,
        kubeletVersion: KUBELET_VERSION,
        // DisableNodeKubeProxyVersion is off by default in 1.32: the kubelet still fills it.
        kubeProxyVersion: KUBELET_VERSION,
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      images,
    },
    events,
  };
}

/** The status without the heartbeat times: a change here is posted at once, otherwise only every report period. */
export function statusWithoutHeartbeats(status: Record<string, unknown> | undefined): string {
  if (!status) return '';
  const conditions = (Array.isArray(status['conditions']) ? (status['conditions'] as Condition[]) : []).map((c) => ({ ...c, lastHeartbeatTime: undefined }));
  const keys = ['capacity', 'allocatable', 'addresses', 'daemonEndpoints', 'nodeInfo', 'images'];
  return JSON.stringify([conditions, ...keys.map((k) => status[k] ?? null)]);
}
