// The node lists hosts accept (`npm run serve -- --nodes …`, --nodes-config,
// the browser's configuration document), checked and turned into
// NodeConfigs named as kind names its nodes: <cluster>-control-plane,
// -control-plane2, …, <cluster>-worker, -worker2, ….
//
//   --nodes 3                            kind's default: a control plane and two workers (N ≥ 1: 1 + N-1 workers)
//   --nodes 0                            no nodes (a bare API server)
//   --nodes control-plane,worker,worker  roles in order
//   --nodes-config FILE                  a JSON (or YAML) list of NodeConfig:
//        [{"name": "cp", "role": "control-plane", "cpu": "8", "memory": "16Gi", "zone": "eu-west-1a"}, …]
//        (role required; name, cpu, memory, ephemeralStorage, maxPods default as kind's shape)

import { isValidQuantity } from '../../kinds/builtin/common/quantity';
import { DEFAULT_NODE_SIZE, type NodeConfig } from '../topology';
import { CLUSTER_NAME } from './node-facts';

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** kind's node names for roles in order. */
export function topologyFromRoles(roles: readonly ('control-plane' | 'worker')[]): NodeConfig[] {
  const count = { 'control-plane': 0, worker: 0 };
  return roles.map((role) => {
    count[role]++;
    const suffix = count[role] === 1 ? '' : String(count[role]);
    return { name: `${CLUSTER_NAME}-${role}${suffix}`, role, ...DEFAULT_NODE_SIZE };
  });
}

/** --nodes: a count or a comma-separated list of roles. */
export function parseNodesFlag(text: string): NodeConfig[] {
  const value = text.trim();
  if (/^\d+$/.test(value)) {
    const n = Number(value);
    if (n === 0) return [];
    if (n > 100) throw new Error(`invalid argument "${text}" for "--nodes" flag: at most 100 nodes`);
    return topologyFromRoles(['control-plane', ...Array.from({ length: n - 1 }, () => 'worker' as const)]);
  }
  const roles = value.split(',').map((r) => r.trim());
  for (const r of roles) if (r !== 'control-plane' && r !== 'worker') throw new Error(`invalid argument "${text}" for "--nodes" flag: a number of nodes, or roles (control-plane, worker) separated by commas`);
  return topologyFromRoles(roles as ('control-plane' | 'worker')[]);
}

/** A list of node configurations (from a file or a document), checked; the first problem is thrown. */
export function validateTopology(value: unknown): NodeConfig[] {
  if (!Array.isArray(value)) throw new Error('the node list must be a list of nodes');
  const roles: ('control-plane' | 'worker')[] = value.map((v, i) => {
    const role = (v as { role?: unknown } | null)?.role;
    if (role !== 'control-plane' && role !== 'worker') throw new Error(`nodes[${i}].role: must be "control-plane" or "worker"`);
    return role;
  });
  const named = topologyFromRoles(roles);
  const seen = new Set<string>();
  return value.map((raw, i) => {
    const v = raw as Partial<Record<keyof NodeConfig, unknown>>;
    const node: NodeConfig = {
      name: typeof v.name === 'string' ? v.name : named[i]!.name,
      role: roles[i]!,
      cpu: v.cpu === undefined ? DEFAULT_NODE_SIZE.cpu : String(v.cpu),
      memory: v.memory === undefined ? DEFAULT_NODE_SIZE.memory : String(v.memory),
      ephemeralStorage: v.ephemeralStorage === undefined ? DEFAULT_NODE_SIZE.ephemeralStorage : String(v.ephemeralStorage),
      maxPods: v.maxPods === undefined ? DEFAULT_NODE_SIZE.maxPods : Number(v.maxPods),
      ...(typeof v.zone === 'string' && v.zone ? { zone: v.zone } : {}),
    };
    if (!DNS_SUBDOMAIN.test(node.name) || node.name.length > 253) throw new Error(`nodes[${i}].name: ${JSON.stringify(node.name)} is not a valid node name (a DNS subdomain)`);
    if (seen.has(node.name)) throw new Error(`nodes[${i}].name: ${JSON.stringify(node.name)} is used twice`);
    seen.add(node.name);
    for (const key of ['cpu', 'memory', 'ephemeralStorage'] as const) if (!isValidQuantity(node[key])) throw new Error(`nodes[${i}].${key}: ${JSON.stringify(node[key])} is not a quantity`);
    if (!Number.isInteger(node.maxPods) || node.maxPods < 1) throw new Error(`nodes[${i}].maxPods: must be a positive integer`);
    return node;
  });
}
