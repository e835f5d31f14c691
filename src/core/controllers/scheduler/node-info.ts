// Per-node aggregates (framework.NodeInfo): the node, its allocatable, and
// the pods on it — bound ones and those the scheduler has just assumed there
// while their binding is in flight — with running sums of their requests and
// host ports, so that a filter or score never walks every pod in the cluster.

import type { KubeObject } from '../../kinds/types';
import { arr, rec, str } from './objects';
import type { PodInfo } from './pod-info';
import { addResources, emptyResources, nodeAllocatable, type Resources } from './resources';
import { effectiveTaints, type Taint } from './taints';

export class NodeInfo {
  node: KubeObject | undefined;
  labels: Record<string, string> = {};
  allocatable: Resources = emptyResources();
  allowedPodNumber = 0;
  taints: Taint[] = [];
  unschedulable = false;
  /** Image names as the node reports them → size in bytes (node.status.images). */
  images = new Map<string, number>();
  readonly pods = new Map<string, PodInfo>();
  readonly requested: Resources = emptyResources();
  readonly nonZeroRequested: Resources = emptyResources();
  /** "protocol/ip/port" → number of pods using it. */
  readonly usedPorts = new Map<string, number>();
  readonly podsWithAffinity = new Set<PodInfo>();
  readonly podsWithRequiredAntiAffinity = new Set<PodInfo>();

  constructor(readonly name: string) {}

  setNode(node: KubeObject): void {
    this.node = node;
    this.labels = node.metadata?.labels ?? {};
    const { resources, pods } = nodeAllocatable(node);
    this.allocatable = resources;
    this.allowedPodNumber = pods;
    this.taints = effectiveTaints(node);
    this.unschedulable = rec(node.spec).unschedulable === true;
    this.images = new Map();
    for (const image of arr(rec(node.status).images).map(rec)) {
      const size = typeof image.sizeBytes === 'number' ? image.sizeBytes : 0;
      for (const name of arr(image.names)) this.images.set(str(name), size);
    }
  }

  addPod(p: PodInfo): void {
    this.pods.set(p.uid, p);
    this.account(p, 1);
  }

  removePod(uid: string): PodInfo | undefined {
    const p = this.pods.get(uid);
    if (!p) return undefined;
    this.pods.delete(uid);
    this.account(p, -1);
    return p;
  }

  private account(p: PodInfo, sign: 1 | -1): void {
    addResources(this.requested, p.requests, sign);
    this.nonZeroRequested.milliCPU += sign * p.nonZeroRequests.milliCPU;
    this.nonZeroRequested.memory += sign * p.nonZeroRequests.memory;
    for (const port of p.hostPorts) {
      const key = portKey(port.protocol, port.ip, port.port);
      const n = (this.usedPorts.get(key) ?? 0) + sign;
      if (n > 0) this.usedPorts.set(key, n);
      else this.usedPorts.delete(key);
    }
    const sets: [Set<PodInfo>, boolean][] = [
      [this.podsWithAffinity, p.hasAffinity],
      [this.podsWithRequiredAntiAffinity, p.requiredAntiAffinity.length > 0],
    ];
    for (const [set, has] of sets) {
      if (!has) continue;
      if (sign > 0) set.add(p);
      else for (const q of set) if (q.uid === p.uid) set.delete(q);
    }
  }
}

export const portKey = (protocol: string, ip: string, port: number) => `${protocol}/${ip}/${port}`;

/**
 * ImageLocality's normalizedImageName: ":latest" added to an untagged name,
 * and nothing else (so "nginx" does not match a node's "docker.io/library/nginx:latest",
 * as on a real cluster).
 */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}
