// Where kube-apiserver sends a pod's log, exec, attach and port-forward
// request: the pod and its container (kube's LogLocation / streamLocation
// checks, with their messages), then the node's kubelet. kube-apiserver reads
// the Node object for the kubelet's address (the first of
// --kubelet-preferred-address-types the node reports, kubeadm's order
// InternalIP, ExternalIP, Hostname) and its port (daemonEndpoints, 10250 by
// default) and dials it; here the kubelet is the KubeletConnection its node
// registered, and a node with none answers as an unreachable kubelet would.

import { StatusError, errors } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import { KUBELET_CONNECTIONS, type KubeletConnection, type KubeletConnections, type PodRef } from '../../kubelet/connection';
import type { ServerContext } from '../context';
import { getObject } from '../resource-store';

/** kubeadm's --kubelet-preferred-address-types. */
const KUBEADM_ADDRESS_TYPES = ['InternalIP', 'ExternalIP', 'Hostname'];
const DEFAULT_KUBELET_PORT = 10250;

interface NamedContainer {
  name?: string;
}

interface PodSpecView {
  containers?: NamedContainer[];
  initContainers?: NamedContainer[];
  ephemeralContainers?: NamedContainer[];
  nodeName?: string;
}

export function podSpec(pod: KubeObject): PodSpecView {
  return (pod['spec'] ?? {}) as PodSpecView;
}

export function podRef(pod: KubeObject): PodRef {
  return { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' };
}

/** Every container's name in kube's visiting order: init containers, containers, ephemeral containers. */
function allContainerNames(spec: PodSpecView): string[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])].map((c) => c.name ?? '');
}

/**
 * The container a request is for: the one named (it must exist), or the
 * pod's only regular container. kube-apiserver knows nothing of the
 * kubectl.kubernetes.io/default-container annotation: kubectl reads it and
 * names the container itself.
 */
export function chooseContainer(pod: KubeObject, requested: string): string {
  const spec = podSpec(pod);
  const name = pod.metadata?.name ?? '';
  if (!requested) {
    const regular = spec.containers ?? [];
    if (regular.length === 1) return regular[0]!.name ?? '';
    if (regular.length === 0) throw errors.badRequest(`a container name must be specified for pod ${name}`);
    // Go's %s of a []string: the names in brackets, separated by spaces.
    throw errors.badRequest(`a container name must be specified for pod ${name}, choose one of: [${allContainerNames(spec).join(' ')}]`);
  }
  if (!allContainerNames(spec).includes(requested)) throw errors.badRequest(`container ${requested} is not valid for pod ${name}`);
  return requested;
}

/** The pod through the pods resource of the request (404 as a get would answer). */
export async function readPod(ctx: ServerContext, scope: { served: Parameters<typeof getObject>[1]; route: { namespace: string; name: string } }): Promise<KubeObject> {
  return (await getObject(ctx, scope.served, scope.route.namespace, scope.route.name)).object;
}

/** Where kube-apiserver would dial the node's kubelet, for the messages of a failed dial. */
export interface KubeletAddress {
  readonly nodeName: string;
  readonly host: string;
  readonly port: number;
  /** host:port as Go's net.JoinHostPort writes it. */
  readonly hostPort: string;
}

/** A reachable kubelet, or the address a dial would have failed on. */
export interface KubeletTarget {
  readonly address: KubeletAddress;
  readonly connection: KubeletConnection | undefined;
}

interface NodeAddress {
  type?: string;
  address?: string;
}

function preferredAddressTypes(ctx: ServerContext): string[] {
  const flag = ctx.flags['kubelet-preferred-address-types'];
  return flag ? flag.split(',').map((t) => t.trim()).filter(Boolean) : KUBEADM_ADDRESS_TYPES;
}

/** Go's %v of a []NodeAddress: [{InternalIP 172.18.0.2} {Hostname kind-worker}]. */
function formatAddresses(addresses: readonly NodeAddress[]): string {
  return `[${addresses.map((a) => `{${a.type ?? ''} ${a.address ?? ''}}`).join(' ')}]`;
}

/**
 * The node's kubelet (kube's GetConnectionInfo): the Node object must exist
 * and report an address of a preferred type. Errors other than the node's
 * 404 are plain errors in kube, which a client sees as a 500 without reason.
 */
export async function kubeletTarget(ctx: ServerContext, nodeName: string): Promise<KubeletTarget> {
  const nodes = ctx.registry.lookup('', 'v1', 'nodes');
  if (!nodes) throw errors.notFound({ group: '', resource: 'nodes' }, nodeName);
  const { object: node } = await getObject(ctx, nodes, '', nodeName);
  const status = (node['status'] ?? {}) as { addresses?: NodeAddress[]; daemonEndpoints?: { kubeletEndpoint?: { Port?: number } } };
  const addresses = status.addresses ?? [];
  let host: string | undefined;
  for (const type of preferredAddressTypes(ctx)) {
    host = addresses.find((a) => a.type === type && a.address)?.address;
    if (host) break;
  }
  if (!host) throw new StatusError(500, '', `no preferred addresses found; known addresses: ${formatAddresses(addresses)}`);
  const port = status.daemonEndpoints?.kubeletEndpoint?.Port || DEFAULT_KUBELET_PORT;
  const hostPort = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  const connections = ctx.services[KUBELET_CONNECTIONS] as KubeletConnections | undefined;
  return { address: { nodeName, host, port, hostPort }, connection: connections?.get(nodeName) };
}

/** The dial error of a kubelet that does not answer (its node is there, its kubelet is stopped). */
export function dialRefused(address: KubeletAddress): string {
  return `dial tcp ${address.hostPort}: connect: connection refused`;
}
