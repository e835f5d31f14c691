// The facts of a simulated node that a real one gets from its machine: the
// address Docker gives a kind node container (172.18.0.x on the `kind`
// network, in the order the nodes were created), the machine and boot ids
// (stable per node name, as a container keeps its /etc/machine-id), the OS
// image of kind's node image, the kernel of the host and the versions of the
// components kind v1.32 node images ship.

import type { NodeConfig } from '../topology';

export const KUBELET_VERSION = 'v1.32.0';
export const CONTAINER_RUNTIME_VERSION = 'containerd://1.7.24';
export const OS_IMAGE = 'Debian GNU/Linux 12 (bookworm)';
export const KERNEL_VERSION = '6.8.0-50-generic';
export const CRI_SOCKET = 'unix:///run/containerd/containerd.sock';
/** The kubelet's port, which kube-apiserver dials for logs, exec and stats. */
export const KUBELET_PORT = 10250;
/** kind's cluster name: node provider IDs are kind://docker/<cluster>/<node>. */
export const CLUSTER_NAME = 'kubetab';

/** The User-Agent of a node's kubelet; the server serves it as system:node:<name> in system:nodes. */
export function kubeletUserAgent(nodeName: string): string {
  return `kubelet/${KUBELET_VERSION} (linux/amd64) kubernetes/kubetab/system:node:${nodeName}`;
}

/** The node's InternalIP: 172.18.0.2 for the first node (the address kube-apiserver advertises on the control plane), then on. */
export function internalIP(index: number): string {
  const host = index + 2;
  return `172.18.${Math.floor(host / 256)}.${host % 256}`;
}

/** A 32-bit FNV-1a hash, to derive stable ids from a node's name. */
function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** 32 hex digits derived from a name and a purpose (stable across restarts). */
export function stableHex(name: string, purpose: string): string {
  let out = '';
  for (let i = 0; out.length < 32; i++) out += fnv1a(`${purpose}/${name}/${i}`).toString(16).padStart(8, '0');
  return out.slice(0, 32);
}

/** The hex digits as a UUID (8-4-4-4-12), version 4 and variant bits set as a random one would have them. */
export function stableUuid(name: string, purpose: string): string {
  const h = stableHex(name, purpose).split('');
  h[12] = '4';
  h[16] = '89ab'[parseInt(h[16]!, 16) % 4]!;
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

export interface NodeFacts {
  readonly config: NodeConfig;
  readonly internalIP: string;
  readonly machineID: string;
  readonly systemUUID: string;
  readonly bootID: string;
}

export function nodeFacts(config: NodeConfig, index: number): NodeFacts {
  return {
    config,
    internalIP: internalIP(index),
    machineID: stableHex(config.name, 'machine-id'),
    systemUUID: stableUuid(config.name, 'system-uuid'),
    bootID: stableUuid(config.name, 'boot-id'),
  };
}
