// NodeResourcesFit (requests against allocatable minus what the node's pods —
// bound and assumed — already request, and the pod count), NodePorts (host
// ports already taken), and the resource scores: LeastAllocated (the
// NodeResourcesFit score, cpu and memory weighted 1), BalancedAllocation
// and ImageLocality.

import type { KubeObject } from '../../kinds/types';
import { normalizedImageName, type NodeInfo } from './node-info';
import { arr, rec, str } from './objects';
import type { PodInfo } from './pod-info';

export const ERR_PORTS = "node(s) didn't have free ports for the requested pod ports";
export const MAX_NODE_SCORE = 100;

/** NodeResourcesFit's reasons for the node (empty when the pod fits). */
export function insufficientResources(pod: PodInfo, node: NodeInfo): string[] {
  const reasons: string[] = [];
  if (node.pods.size + 1 > node.allowedPodNumber) reasons.push('Too many pods');
  const r = pod.requests;
  if (r.milliCPU === 0 && r.memory === 0 && r.ephemeralStorage === 0 && [...r.scalar.values()].every((v) => v === 0)) return reasons;
  if (r.milliCPU > 0 && r.milliCPU > node.allocatable.milliCPU - node.requested.milliCPU) reasons.push('Insufficient cpu');
  if (r.memory > 0 && r.memory > node.allocatable.memory - node.requested.memory) reasons.push('Insufficient memory');
  if (r.ephemeralStorage > 0 && r.ephemeralStorage > node.allocatable.ephemeralStorage - node.requested.ephemeralStorage) reasons.push('Insufficient ephemeral-storage');
  for (const [name, amount] of r.scalar) {
    if (amount === 0) continue;
    if (amount > (node.allocatable.scalar.get(name) ?? 0) - (node.requested.scalar.get(name) ?? 0)) reasons.push(`Insufficient ${name}`);
  }
  return reasons;
}

/** NodePorts: whether a wanted host port is taken (0.0.0.0 conflicts with every address). */
export function portsConflict(pod: PodInfo, node: NodeInfo): boolean {
  for (const want of pod.hostPorts) {
    for (const key of node.usedPorts.keys()) {
      const [protocol, ip, port] = key.split('/');
      if (protocol !== want.protocol || Number(port) !== want.port) continue;
      if (want.ip === '0.0.0.0' || ip === '0.0.0.0' || ip === want.ip) return true;
    }
  }
  return false;
}

const leastRequested = (requested: number, capacity: number) => (capacity === 0 || requested > capacity ? 0 : Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity));

/** NodeResourcesFit's LeastAllocated score over cpu and memory (non-zero requests). */
export function leastAllocatedScore(pod: PodInfo, node: NodeInfo): number {
  let score = 0;
  let weights = 0;
  const pairs: [number, number][] = [
    [node.nonZeroRequested.milliCPU + pod.nonZeroRequests.milliCPU, node.allocatable.milliCPU],
    [node.nonZeroRequested.memory + pod.nonZeroRequests.memory, node.allocatable.memory],
  ];
  for (const [requested, capacity] of pairs) {
    if (capacity === 0) continue;
    score += leastRequested(requested, capacity);
    weights += 1;
  }
  return weights === 0 ? 0 : Math.trunc(score / weights);
}

/** NodeResourcesBalancedAllocation: 100 × (1 − the spread of the cpu and memory fractions). */
export function balancedAllocationScore(pod: PodInfo, node: NodeInfo): number {
  const fractions: number[] = [];
  const pairs: [number, number][] = [
    [node.requested.milliCPU + pod.requests.milliCPU, node.allocatable.milliCPU],
    [node.requested.memory + pod.requests.memory, node.allocatable.memory],
  ];
  for (const [requested, capacity] of pairs) {
    if (capacity === 0) continue;
    fractions.push(Math.min(requested / capacity, 1));
  }
  let std = 0;
  if (fractions.length === 2) std = Math.abs((fractions[0]! - fractions[1]!) / 2);
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

const MB = 1024 * 1024;
const MIN_THRESHOLD = 23 * MB;
const MAX_CONTAINER_THRESHOLD = 1000 * MB;

const podImages = (pod: KubeObject) => [...arr(rec(pod.spec).initContainers), ...arr(rec(pod.spec).containers)].map((c) => str(rec(c).image));

/** ImageLocality: the sizes of the pod's images already on the node, scaled by how widely they are spread. */
export function imageLocalityScore(pod: PodInfo, node: NodeInfo, nodesWithImage: (image: string) => number, totalNodes: number): number {
  const images = podImages(pod.pod);
  let sum = 0;
  for (const image of images) {
    const name = normalizedImageName(image);
    const size = node.images.get(name);
    if (size === undefined) continue;
    sum += Math.trunc(size * (nodesWithImage(name) / totalNodes));
  }
  const max = MAX_CONTAINER_THRESHOLD * images.length;
  const clamped = Math.min(Math.max(sum, MIN_THRESHOLD), max);
  return max === MIN_THRESHOLD ? 0 : Math.trunc((MAX_NODE_SCORE * (clamped - MIN_THRESHOLD)) / (max - MIN_THRESHOLD));
}
