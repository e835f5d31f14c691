// The subsets of a Service's Endpoints object, as kube's endpoints controller
// builds them: one address per pod that belongs in endpoints (ready, or
// notReady unless the Service publishes not-ready addresses), for each
// Service port the pod offers (a named targetPort resolved in the pod's
// container ports; a pod without it is left out of that port), then
// repacked so that addresses offering the same ports share a subset
// (RepackSubsets: not-ready trumps ready per port), sorted. An Endpoints
// object holds at most 1000 addresses: beyond that it is truncated, ready
// addresses first, each subset keeping its share.

import type { KubeObject } from '../../kinds/types';
import { isPodReady, rec, arr } from '../workloads';
import { findPort, ipsOfPod, portProtocol, shouldPodBeInEndpoints, shouldSetHostname, type Obj } from './service-membership';

export const MAX_ENDPOINTS_CAPACITY = 1000;

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: { kind: string; namespace: string; name: string; uid: string; resourceVersion?: string };
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

function isIPv6(ip: string): boolean {
  return ip.includes(':');
}

/** podToEndpointAddressForService: the pod's IP of the Service's first IP family, with its node and a reference to it. */
export function podAddress(svc: KubeObject, pod: KubeObject): EndpointAddress | undefined {
  const spec = rec(svc.spec);
  const families = arr(spec.ipFamilies).filter((f): f is string => typeof f === 'string');
  let wantV6: boolean;
  if (families.length > 0) wantV6 = families[0] === 'IPv6';
  else if (typeof spec.clusterIP === 'string' && spec.clusterIP && spec.clusterIP !== 'None') wantV6 = isIPv6(spec.clusterIP);
  else wantV6 = isIPv6(String(rec(pod.status).podIP ?? ''));
  const ip = ipsOfPod(pod).find((i) => isIPv6(i) === wantV6);
  if (!ip) return undefined;
  const address: EndpointAddress = {
    ip,
    nodeName: String(rec(pod.spec).nodeName ?? ''),
    targetRef: { kind: 'Pod', namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' },
  };
  if (shouldSetHostname(pod, svc)) address.hostname = String(rec(pod.spec).hostname);
  return address;
}

/** endpointPortFromServicePort. */
function endpointPort(servicePort: Obj, port: number): EndpointPort {
  const p: EndpointPort = { port, protocol: portProtocol(servicePort) };
  if (typeof servicePort.name === 'string' && servicePort.name) p.name = servicePort.name;
  if (typeof servicePort.appProtocol === 'string') p.appProtocol = servicePort.appProtocol;
  return p;
}

export interface ComputedSubsets {
  readonly subsets: EndpointSubset[];
  readonly ready: number;
  readonly notReady: number;
}

/** The Service's subsets from the pods its selector matches. */
export function computeSubsets(svc: KubeObject, pods: readonly KubeObject[]): ComputedSubsets {
  const spec = rec(svc.spec);
  const publishNotReady = spec.publishNotReadyAddresses === true;
  const servicePorts = arr(spec.ports).map(rec);
  const raw: EndpointSubset[] = [];
  let ready = 0;
  let notReady = 0;
  const add = (pod: KubeObject, address: EndpointAddress, port: EndpointPort | undefined) => {
    const ports = port ? [port] : [];
    if (publishNotReady || isPodReady(pod)) {
      raw.push({ addresses: [address], ports });
      ready++;
    } else {
      raw.push({ notReadyAddresses: [address], ports });
      notReady++;
    }
  };
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const address = podAddress(svc, pod);
    if (!address) continue;
    if (servicePorts.length === 0) {
      // A headless Service may have no ports: its addresses alone.
      if (spec.clusterIP === 'None') add(pod, address, undefined);
      continue;
    }
    for (const sp of servicePorts) {
      const port = findPort(pod, sp);
      if (port === undefined) continue;
      add(pod, address, endpointPort(sp, port));
    }
  }
  return { subsets: repackSubsets(raw), ready, notReady };
}

function addressKey(a: EndpointAddress): string {
  return `${a.ip}\u0000${a.targetRef?.uid ?? ''}`;
}

function portKey(p: EndpointPort | undefined): string {
  return p ? JSON.stringify([p.name ?? '', p.port, p.protocol, p.appProtocol ?? null]) : '-';
}

/** LessEndpointAddress: by IP (as bytes of its text), then by the target's uid. */
function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1;
  const ua = a.targetRef?.uid;
  const ub = b.targetRef?.uid;
  if (ua === ub) return 0;
  if (ub === undefined) return 1;
  if (ua === undefined) return -1;
  return ua < ub ? -1 : 1;
}

function comparePorts(a: EndpointPort, b: EndpointPort): number {
  return (a.name ?? '').localeCompare(b.name ?? '') || a.port - b.port || a.protocol.localeCompare(b.protocol);
}

/**
 * RepackSubsets: addresses grouped by the exact set of ports they offer.
 * kube orders ports and subsets by a hash; here they are ordered by name,
 * port and first address, which is as stable.
 */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const addresses = new Map<string, EndpointAddress>();
  // port key → (address key → ready)
  const byPort = new Map<string, { port: EndpointPort | undefined; ready: Map<string, boolean> }>();
  const note = (address: EndpointAddress, port: EndpointPort | undefined, ready: boolean) => {
    const ak = addressKey(address);
    if (!addresses.has(ak)) addresses.set(ak, structuredClone(address));
    const pk = portKey(port);
    let entry = byPort.get(pk);
    if (!entry) byPort.set(pk, (entry = { port, ready: new Map() }));
    const was = entry.ready.get(ak);
    // Not ready trumps ready.
    if (was === undefined || was) entry.ready.set(ak, ready);
  };
  for (const ss of subsets) {
    const ports = ss.ports && ss.ports.length > 0 ? ss.ports : [undefined];
    for (const port of ports) {
      for (const a of ss.addresses ?? []) note(a, port, true);
      for (const a of ss.notReadyAddresses ?? []) note(a, port, false);
    }
  }
  // Group ports by the identical (address, readiness) sets they map to.
  const groups = new Map<string, { ready: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const { port, ready } of byPort.values()) {
    const key = [...ready.entries()]
      .map(([a, r]) => `${a}=${r}`)
      .sort()
      .join('\u0001');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { ready, ports: [] }));
    if (port) g.ports.push(port);
  }
  const final: EndpointSubset[] = [];
  for (const g of groups.values()) {
    const ready: EndpointAddress[] = [];
    const notReady: EndpointAddress[] = [];
    for (const [ak, r] of g.ready) (r ? ready : notReady).push(addresses.get(ak)!);
    const ss: EndpointSubset = {};
    if (ready.length) ss.addresses = ready.sort(compareAddresses);
    if (notReady.length) ss.notReadyAddresses = notReady.sort(compareAddresses);
    if (g.ports.length) ss.ports = g.ports.sort(comparePorts);
    final.push(ss);
  }
  const first = (ss: EndpointSubset) => (ss.addresses ?? ss.notReadyAddresses ?? [])[0]?.ip ?? '';
  return final.sort((a, b) => comparePorts(a.ports?.[0] ?? { port: 0, protocol: '' }, b.ports?.[0] ?? { port: 0, protocol: '' }) || first(a).localeCompare(first(b)));
}

function countAddresses(subsets: readonly EndpointSubset[]): { ready: number; notReady: number } {
  let ready = 0;
  let notReady = 0;
  for (const ss of subsets) {
    ready += ss.addresses?.length ?? 0;
    notReady += ss.notReadyAddresses?.length ?? 0;
  }
  return { ready, notReady };
}

/**
 * truncateEndpoints: cuts the subsets down to 1000 addresses, each subset
 * keeping its proportion (rounded up), ready addresses before not-ready
 * ones. Returns whether anything was cut.
 */
export function truncateSubsets(subsets: EndpointSubset[]): boolean {
  const { ready, notReady } = countAddresses(subsets);
  if (ready + notReady <= MAX_ENDPOINTS_CAPACITY) return false;
  const truncateReady = ready > MAX_ENDPOINTS_CAPACITY;
  const max = truncateReady ? MAX_ENDPOINTS_CAPACITY : MAX_ENDPOINTS_CAPACITY - ready;
  const total = truncateReady ? ready : notReady;
  let canBeAdded = max;
  for (const ss of subsets) {
    const inSubset = truncateReady ? (ss.addresses?.length ?? 0) : (ss.notReadyAddresses?.length ?? 0);
    const toBeAdded = Math.min(Math.ceil((inSubset / total) * max), canBeAdded);
    if (truncateReady) {
      if (ss.addresses) ss.addresses = ss.addresses.slice(0, toBeAdded);
      delete ss.notReadyAddresses;
      canBeAdded -= ss.addresses?.length ?? 0;
    } else {
      if (ss.notReadyAddresses) ss.notReadyAddresses = ss.notReadyAddresses.slice(0, toBeAdded);
      canBeAdded -= ss.notReadyAddresses?.length ?? 0;
    }
  }
  return true;
}

/** Whether the stored subsets already hold these addresses (ignoring the targets' resourceVersions), as kube compares them. */
export function subsetsEqual(current: unknown, desired: readonly EndpointSubset[]): boolean {
  const normalize = (v: unknown): unknown => {
    const list = arr(v).map((s) => {
      const ss = rec(s);
      const addr = (a: unknown) => {
        const x = rec(a);
        const ref = rec(x.targetRef);
        return {
          ip: x.ip ?? '',
          hostname: x.hostname ?? '',
          nodeName: x.nodeName ?? null,
          targetRef: x.targetRef ? { kind: ref.kind ?? '', namespace: ref.namespace ?? '', name: ref.name ?? '', uid: ref.uid ?? '' } : null,
        };
      };
      return {
        addresses: arr(ss.addresses).map(addr),
        notReadyAddresses: arr(ss.notReadyAddresses).map(addr),
        ports: arr(ss.ports).map((p) => {
          const x = rec(p);
          return { name: x.name ?? '', port: x.port ?? 0, protocol: x.protocol ?? 'TCP', appProtocol: x.appProtocol ?? null };
        }),
      };
    });
    return list;
  };
  return JSON.stringify(normalize(current)) === JSON.stringify(normalize(desired));
}

/** Whether the over-capacity annotation is as it should be for these (stored) subsets. */
export function capacityAnnotationSetCorrectly(annotations: Record<string, string> | undefined, subsets: unknown): boolean {
  let n = 0;
  for (const s of arr(subsets)) n += arr(rec(s).addresses).length + arr(rec(s).notReadyAddresses).length;
  if (n > MAX_ENDPOINTS_CAPACITY) return false;
  return !(annotations && 'endpoints.kubernetes.io/over-capacity' in annotations);
}
