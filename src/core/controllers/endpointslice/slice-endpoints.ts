// The pieces of an EndpointSlice as kube's endpointslice reconciler builds
// them (k8s.io/endpointslice utils): a pod's endpoint (its addresses of the
// slice's family, conditions ready/serving/terminating, node, zone from the
// node's topology.kubernetes.io/zone label, a reference to the pod, the
// hostname for a Service that is its subdomain), the ports a pod offers for
// the Service, the identity of an endpoint across slices, the slice's
// labels (the Service's, plus the reserved service-name, managed-by and
// headless ones), and a new slice owned by the Service.

import type { KubeObject } from '../../kinds/types';
import { arr, isPodReady, rec } from '../workloads';
import { findPort, ipsOfPod, isServiceIPSet, portProtocol, shouldSetHostname } from '../endpoints/service-membership';
import { HEADLESS_LABEL } from '../endpoints/endpoints-controller';

export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
export const ENDPOINTSLICE_CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

export interface SliceEndpoint {
  addresses: string[];
  conditions: { ready?: boolean; serving?: boolean; terminating?: boolean };
  hostname?: string;
  targetRef?: { kind?: string; namespace?: string; name?: string; uid?: string; resourceVersion?: string; apiVersion?: string; fieldPath?: string };
  nodeName?: string;
  zone?: string;
}

export interface SlicePort {
  name: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export type AddressType = 'IPv4' | 'IPv6';

function isIPv6(ip: string): boolean {
  return ip.includes(':');
}

/** podToEndpoint. */
export function podToEndpoint(pod: KubeObject, node: KubeObject | undefined, svc: KubeObject, addressType: AddressType): SliceEndpoint {
  const serving = isPodReady(pod);
  const terminating = !!pod.metadata?.deletionTimestamp;
  // Never ready while terminating, unless the Service publishes not-ready addresses.
  const ready = rec(svc.spec).publishNotReadyAddresses === true || (serving && !terminating);
  const ep: SliceEndpoint = {
    addresses: ipsOfPod(pod).filter((ip) => isIPv6(ip) === (addressType === 'IPv6')),
    conditions: { ready, serving, terminating },
    targetRef: { kind: 'Pod', namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' },
  };
  const nodeName = rec(pod.spec).nodeName;
  if (typeof nodeName === 'string' && nodeName) ep.nodeName = nodeName;
  const zone = node?.metadata?.labels?.[ZONE_LABEL];
  if (zone) ep.zone = zone;
  if (shouldSetHostname(pod, svc)) ep.hostname = String(rec(pod.spec).hostname);
  return ep;
}

/** getEndpointPorts: the Service's ports this pod offers, with their numbers resolved. */
export function endpointPorts(svc: KubeObject, pod: KubeObject): SlicePort[] {
  const spec = rec(svc.spec);
  const ports = arr(spec.ports).map(rec);
  if (ports.length === 0 && spec.clusterIP === 'None') return [];
  const out: SlicePort[] = [];
  for (const sp of ports) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    const p: SlicePort = { name: typeof sp.name === 'string' ? sp.name : '', port, protocol: portProtocol(sp) };
    if (typeof sp.appProtocol === 'string') p.appProtocol = sp.appProtocol;
    out.push(p);
  }
  return out;
}

/** NewPortMapKey: the same set of ports gives the same key, whatever their order. */
export function portMapKey(ports: unknown): string {
  return arr(ports)
    .map((p) => {
      const x = rec(p);
      return JSON.stringify([x.name ?? '', x.port ?? null, x.protocol ?? 'TCP', x.appProtocol ?? null]);
    })
    .sort()
    .join('|');
}

/** hashEndpoint: an endpoint's identity (addresses, hostname, the pod it is). */
export function endpointKey(ep: unknown): string {
  const x = rec(ep);
  const ref = rec(x.targetRef);
  const addresses = arr(x.addresses).map(String).sort();
  return JSON.stringify([addresses, x.hostname ?? '', ref.namespace ?? '', ref.name ?? '']);
}

/** EndpointsEqualBeyondHash: node, zone, conditions and target (without resourceVersion) equal. */
export function endpointsEqualBeyondHash(a: unknown, b: unknown): boolean {
  const x = rec(a);
  const y = rec(b);
  if ((x.nodeName ?? null) !== (y.nodeName ?? null)) return false;
  if ((x.zone ?? null) !== (y.zone ?? null)) return false;
  const cx = rec(x.conditions);
  const cy = rec(y.conditions);
  for (const c of ['ready', 'serving', 'terminating']) if ((cx[c] ?? null) !== (cy[c] ?? null)) return false;
  const rx = x.targetRef ? rec(x.targetRef) : undefined;
  const ry = y.targetRef ? rec(y.targetRef) : undefined;
  if (!rx || !ry) return !rx && !ry;
  for (const f of ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'fieldPath']) if ((rx[f] ?? '') !== (ry[f] ?? '')) return false;
  return true;
}

function isReservedLabel(key: string): boolean {
  return key === LABEL_SERVICE_NAME || key === LABEL_MANAGED_BY || key === HEADLESS_LABEL;
}

/** setEndpointSliceLabels: the labels the slice should have, and whether the Service's own labels differ from the slice's. */
export function sliceLabels(slice: KubeObject, svc: KubeObject, controllerName: string): { labels: Record<string, string>; changed: boolean } {
  const sliceOwn: Record<string, string> = {};
  for (const [k, v] of Object.entries(slice.metadata?.labels ?? {})) if (!isReservedLabel(k)) sliceOwn[k] = v;
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(svc.metadata?.labels ?? {})) if (!isReservedLabel(k)) labels[k] = v;
  const ka = Object.keys(sliceOwn);
  const changed = !(ka.length === Object.keys(labels).length && ka.every((k) => sliceOwn[k] === labels[k]));
  if (!isServiceIPSet(svc)) labels[HEADLESS_LABEL] = '';
  labels[LABEL_SERVICE_NAME] = svc.metadata?.name ?? '';
  labels[LABEL_MANAGED_BY] = controllerName;
  return { labels, changed };
}

/** getEndpointSlicePrefix: "<service>-", or the bare name when the dash would make it too long. */
export function slicePrefix(name: string): string {
  return name.length + 1 > 253 - 5 ? name : `${name}-`;
}

/** newEndpointSlice: an empty slice for these ports, owned by the Service, named by generateName. */
export function newEndpointSlice(svc: KubeObject, ports: SlicePort[], addressType: AddressType, controllerName: string): KubeObject {
  const slice: KubeObject = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: slicePrefix(svc.metadata?.name ?? ''),
      namespace: svc.metadata?.namespace ?? '',
      labels: {},
      ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: svc.metadata?.name ?? '', uid: svc.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    addressType,
    endpoints: [],
    ports,
  };
  slice.metadata!.labels = sliceLabels(slice, svc, controllerName).labels;
  return slice;
}

/** ownedBy: the slice names the Service (by uid) as an owner. */
export function ownedBy(slice: KubeObject, svc: KubeObject): boolean {
  return (slice.metadata?.ownerReferences ?? []).some((o) => o.uid === svc.metadata?.uid && o.kind === 'Service' && o.apiVersion === 'v1');
}

/** getAddressTypesForService: the Service's IP families as address types. */
export function addressTypesOf(svc: KubeObject): Set<AddressType> {
  const spec = rec(svc.spec);
  const types = new Set<AddressType>();
  for (const f of arr(spec.ipFamilies)) {
    if (f === 'IPv4') types.add('IPv4');
    if (f === 'IPv6') types.add('IPv6');
  }
  if (types.size > 0) return types;
  if (typeof spec.clusterIP === 'string' && spec.clusterIP && spec.clusterIP !== 'None') {
    types.add(isIPv6(spec.clusterIP) ? 'IPv6' : 'IPv4');
    return types;
  }
  types.add('IPv4');
  types.add('IPv6');
  return types;
}
