// What metrics-server knows at one moment: the usage each reachable kubelet
// reports (KubeletConnection.stats, src/core/kubelet/connection.ts), by node
// and by pod. A kubelet that is stopped or fails to answer contributes
// nothing, as a node metrics-server cannot scrape has no metrics.

import { KUBELET_CONNECTIONS, type ContainerUsage, type KubeletConnections, type NodeStats } from '../../kubelet/connection';
import type { ServerContext } from '../context';

export interface UsageSample {
  readonly timestampMs: number;
  readonly windowMs: number;
}

export interface NodeUsage extends UsageSample {
  readonly cpuNanoCores: number;
  readonly memoryBytes: number;
}

export interface PodUsageSample extends UsageSample {
  readonly containers: readonly ContainerUsage[];
}

export interface UsageSnapshot {
  node(name: string): NodeUsage | undefined;
  pod(namespace: string, name: string): PodUsageSample | undefined;
}

function connections(ctx: ServerContext): KubeletConnections | undefined {
  return ctx.services[KUBELET_CONNECTIONS] as KubeletConnections | undefined;
}

async function statsOf(ctx: ServerContext, nodeNames: readonly string[] | undefined): Promise<Map<string, NodeStats>> {
  const registry = connections(ctx);
  const targets = registry ? (nodeNames ? nodeNames.map((n) => registry.get(n)).filter((c) => c !== undefined) : registry.all()) : [];
  const results = await Promise.allSettled(targets.map(async (c) => [c.nodeName, await c.stats()] as const));
  const out = new Map<string, NodeStats>();
  for (const r of results) if (r.status === 'fulfilled') out.set(r.value[0], r.value[1]);
  return out;
}

/** Reads the stats of the named nodes' kubelets (all registered kubelets when `nodeNames` is undefined). */
export async function takeSnapshot(ctx: ServerContext, nodeNames?: readonly string[]): Promise<UsageSnapshot> {
  const byNode = await statsOf(ctx, nodeNames);
  const pods = new Map<string, PodUsageSample>();
  for (const stats of byNode.values()) {
    for (const p of stats.pods) {
      // A pod with no container reporting has no metrics (metrics-server skips it).
      if (p.containers.length === 0) continue;
      pods.set(`${p.namespace}/${p.name}`, { timestampMs: stats.timestampMs, windowMs: stats.windowMs, containers: p.containers });
    }
  }
  return {
    node(name) {
      const s = byNode.get(name);
      return s ? { timestampMs: s.timestampMs, windowMs: s.windowMs, cpuNanoCores: s.node.cpuNanoCores, memoryBytes: s.node.memoryBytes } : undefined;
    },
    pod(namespace, name) {
      return pods.get(`${namespace}/${name}`);
    },
  };
}
