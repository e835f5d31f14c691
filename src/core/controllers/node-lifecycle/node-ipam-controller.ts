// kube-controller-manager's node-ipam controller with the range allocator, as
// kind runs it (--allocate-node-cidrs=true --cluster-cidr=10.244.0.0/16,
// --node-cidr-mask-size 24): a Node without a podCIDR gets the first /24 of
// the cluster CIDR that no other Node holds, patched into spec.podCIDR and
// spec.podCIDRs (acting as the node-controller service account, as kube's
// does). Nodes are served in the order the informer lists them (creation
// order), so kind's control plane, registered first, gets 10.244.0.0/24. A
// full range records CIDRNotAvailable on the Node. The kubelet waits for its
// podCIDR before its pod network (and so its Ready condition) comes up.
//
// kube's allocator hands out the next CIDR after the last one it allocated
// (wrapping), and the first free one after a restart; KubeTab always takes
// the first free one, which is the same on a fresh cluster.

import type { KubeObject } from '../../kinds/types';
import { isConflict, isNotFound } from '../client/api-error';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { NODES } from './taints';

export const NODE_IPAM_CONTROLLER = 'node-ipam-controller';

export interface NodeIpamOptions {
  /** --cluster-cidr (IPv4; kind's 10.244.0.0/16). */
  readonly clusterCIDR?: string;
  /** --node-cidr-mask-size (24). */
  readonly nodeMaskSize?: number;
}

/**
 * kube-controller-manager's --cluster-cidr and --node-cidr-mask-size from the
 * server's flags (KubeTab's one process takes both programs' flags), e.g. a
 * /22 a node for nodes that run more than 253 pods. A bad value is a start-up
 * error, as it stops kube-controller-manager.
 */
export function nodeIpamOptionsFromFlags(flags: Readonly<Record<string, string>>): NodeIpamOptions {
  const clusterCIDR = flags['cluster-cidr'];
  const mask = flags['node-cidr-mask-size'];
  if (clusterCIDR === undefined && mask === undefined) return {};
  let bits = 16;
  if (clusterCIDR !== undefined) {
    try {
      bits = parseCIDR(clusterCIDR).bits;
    } catch {
      throw new Error(`invalid argument "${clusterCIDR}" for "--cluster-cidr" flag: invalid CIDR address: ${clusterCIDR}`);
    }
  }
  let nodeMaskSize: number | undefined;
  if (mask !== undefined) {
    if (!/^\d+$/.test(mask)) throw new Error(`invalid argument "${mask}" for "--node-cidr-mask-size" flag: strconv.ParseInt: parsing "${mask}": invalid syntax`);
    nodeMaskSize = Number(mask);
    // kube refuses a node mask no longer than the cluster's, and more than 16 bits between them.
    if (nodeMaskSize <= bits || nodeMaskSize > 32) throw new Error(`--node-cidr-mask-size ${nodeMaskSize} must be longer than the --cluster-cidr mask size ${bits} and at most 32`);
    if (nodeMaskSize - bits > 16) throw new Error(`--node-cidr-mask-size ${nodeMaskSize} is more than 16 bits longer than the --cluster-cidr mask size ${bits}`);
  }
  return { ...(clusterCIDR !== undefined ? { clusterCIDR } : {}), ...(nodeMaskSize !== undefined ? { nodeMaskSize } : {}) };
}

function parseCIDR(cidr: string): { base: number; bits: number } {
  const [ip, bits] = cidr.split('/');
  const parts = (ip ?? '').split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !(p >= 0 && p <= 255)) || !(Number(bits) >= 0 && Number(bits) <= 32)) throw new Error(`invalid CIDR ${JSON.stringify(cidr)}`);
  const base = ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
  return { base, bits: Number(bits) };
}

function formatIP(n: number): string {
  return [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
}

/** The node CIDRs of a cluster CIDR, in order: 10.244.0.0/24, 10.244.1.0/24, … */
export function nodeCIDRs(clusterCIDR: string, maskSize: number): string[] {
  const { base, bits } = parseCIDR(clusterCIDR);
  const count = 2 ** Math.max(0, maskSize - bits);
  const size = 2 ** (32 - maskSize);
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(`${formatIP((base + i * size) >>> 0)}/${maskSize}`);
  return out;
}

const podCIDRsOf = (node: KubeObject): string[] => {
  const spec = (node['spec'] as { podCIDR?: string; podCIDRs?: string[] } | undefined) ?? {};
  return [...(spec.podCIDRs ?? []), ...(spec.podCIDR ? [spec.podCIDR] : [])];
};

export function nodeIpamController(ctx: ControllerContext, options: NodeIpamOptions = {}): Controller {
  const nodes = ctx.informers.for(NODES);
  const candidates = nodeCIDRs(options.clusterCIDR ?? '10.244.0.0/16', options.nodeMaskSize ?? 24);
  const recorder = ctx.recorder('cidrAllocator');
  /** CIDRs given out whose Node update the informer has not shown yet. */
  const pending = new Map<string, string>();
  const unsubscribe: (() => void)[] = [];

  const queue = new WorkQueue(
    NODE_IPAM_CONTROLLER,
    ctx.activity,
    async (name) => {
      const node = nodes.get('', name);
      if (!node) {
        pending.delete(name);
        return;
      }
      if (podCIDRsOf(node).length > 0) {
        pending.delete(name);
        return;
      }
      const used = new Set<string>([...nodes.list().flatMap(podCIDRsOf), ...[...pending].filter(([n]) => n !== name).map(([, c]) => c)]);
      const cidr = pending.get(name) ?? candidates.find((c) => !used.has(c));
      if (!cidr) {
        recorder.emit({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid: node.metadata?.uid } }, { type: 'Normal', reason: 'CIDRNotAvailable', message: `Node ${name} status is now: CIDRNotAvailable` });
        return;
      }
      pending.set(name, cidr);
      try {
        await ctx.client.patch(NODES, '', name, { spec: { podCIDR: cidr, podCIDRs: [cidr] } }, 'application/strategic-merge-patch+json');
      } catch (err) {
        pending.delete(name);
        if (isNotFound(err) || isConflict(err)) return;
        throw err;
      }
    },
    ctx.log,
  );

  return {
    name: NODE_IPAM_CONTROLLER,
    start() {
      void nodes.synced.then(() => {
        unsubscribe.push(
          nodes.addHandler({
            onAdd: (n) => queue.add(n.metadata?.name ?? ''),
            onUpdate: (_o, n) => queue.add(n.metadata?.name ?? ''),
            onDelete: (n) => pending.delete(n.metadata?.name ?? ''),
          }),
        );
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
