// Which pods a Service's endpoints are made of, shared by the Endpoints and
// EndpointSlice controllers as kube shares k8s.io/endpointslice/util: the
// Services whose selector matches a pod (a Service without a selector has
// none, it selects nothing), which Services a pod's change concerns, whether
// a pod belongs in endpoints at all (not terminal, has an IP, not being
// deleted unless terminating pods are wanted), when an address carries the
// pod's hostname, and the container port a Service port's targetPort names.

import type { KubeObject } from '../../kinds/types';
import type { Informer } from '../client/informer';
import { arr, isPodReady, keyOf, labelsOf, mapSelector, podPhase, rec } from '../workloads';

export type Obj = Record<string, unknown>;

/** spec.selector of a Service as kube's storage round-trip leaves it: an empty map is no selector. */
export function serviceSelector(svc: KubeObject): Record<string, string> | undefined {
  const sel = rec(svc.spec).selector;
  if (!sel || typeof sel !== 'object' || Array.isArray(sel) || Object.keys(sel).length === 0) return undefined;
  return sel as Record<string, string>;
}

/** Whether the Service's selector matches these labels (a Service without selector matches nothing). */
export function serviceSelects(svc: KubeObject, labels: Record<string, string>): boolean {
  const sel = serviceSelector(svc);
  return !!sel && mapSelector(sel).matches(labels);
}

/** The pods of the Service's namespace its selector matches. */
export function podsOfService(svc: KubeObject, pods: Informer): KubeObject[] {
  const sel = serviceSelector(svc);
  if (!sel) return [];
  const selector = mapSelector(sel);
  return pods.list(svc.metadata?.namespace ?? '').filter((p) => selector.matches(labelsOf(p)));
}

/** GetPodServiceMemberships: the keys of the Services that select the pod. */
export function servicesForPod(services: Informer, namespace: string, labels: Record<string, string>): Set<string> {
  const keys = new Set<string>();
  for (const svc of services.list(namespace)) if (serviceSelects(svc, labels)) keys.add(keyOf(svc));
  return keys;
}

function podIPs(pod: KubeObject): string[] {
  const status = rec(pod.status);
  const ips = arr(status.podIPs)
    .map((p) => rec(p).ip)
    .filter((ip): ip is string => typeof ip === 'string' && ip !== '');
  if (ips.length === 0 && typeof status.podIP === 'string' && status.podIP) return [status.podIP];
  return ips;
}

/** The pod's IPs (status.podIPs, else status.podIP). */
export function ipsOfPod(pod: KubeObject): string[] {
  return podIPs(pod);
}

function sameHostnameAndSubdomain(a: KubeObject, b: KubeObject): boolean {
  return rec(a.spec).hostname === rec(b.spec).hostname && rec(a.spec).subdomain === rec(b.spec).subdomain;
}

function sameLabels(a: KubeObject, b: KubeObject): boolean {
  const la = labelsOf(a);
  const lb = labelsOf(b);
  const ka = Object.keys(la);
  return ka.length === Object.keys(lb).length && ka.every((k) => la[k] === lb[k]);
}

/** podEndpointsChanged: [the pod changed in a way its endpoints show, its labels (or hostname) changed]. */
export function podEndpointsChanged(old: KubeObject, cur: KubeObject): [boolean, boolean] {
  const labelsChanged = !sameLabels(old, cur) || !sameHostnameAndSubdomain(old, cur);
  if ((old.metadata?.deletionTimestamp ?? null) !== (cur.metadata?.deletionTimestamp ?? null)) return [true, labelsChanged];
  if (isPodReady(old) !== isPodReady(cur)) return [true, labelsChanged];
  const a = podIPs(old);
  const b = podIPs(cur);
  if (a.length !== b.length || a.some((ip, i) => ip !== b[i])) return [true, labelsChanged];
  return [false, labelsChanged];
}

/** GetServicesToUpdateOnPodChange: the Services a pod's update concerns. */
export function servicesToUpdateOnPodChange(services: Informer, old: KubeObject, cur: KubeObject): Set<string> {
  if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return new Set();
  const [podChanged, labelsChanged] = podEndpointsChanged(old, cur);
  if (!podChanged && !labelsChanged) return new Set();
  const namespace = cur.metadata?.namespace ?? '';
  const now = servicesForPod(services, namespace, labelsOf(cur));
  if (!labelsChanged) return now;
  const before = servicesForPod(services, namespace, labelsOf(old));
  if (podChanged) return new Set([...now, ...before]);
  // Only the labels changed: the Services that gained or lost the pod.
  return new Set([...[...now].filter((k) => !before.has(k)), ...[...before].filter((k) => !now.has(k))]);
}

/** ShouldPodBeInEndpoints: not terminal, with an IP, and not being deleted unless terminating pods are included. */
export function shouldPodBeInEndpoints(pod: KubeObject, includeTerminating: boolean): boolean {
  const phase = podPhase(pod);
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (podIPs(pod).length === 0) return false;
  if (!includeTerminating && pod.metadata?.deletionTimestamp) return false;
  return true;
}

/** ShouldSetHostname: the pod names a hostname and its subdomain is this Service (of its namespace). */
export function shouldSetHostname(pod: KubeObject, svc: KubeObject): boolean {
  const spec = rec(pod.spec);
  return typeof spec.hostname === 'string' && spec.hostname !== '' && spec.subdomain === svc.metadata?.name && svc.metadata?.namespace === pod.metadata?.namespace;
}

/** isServiceIPSet: the Service has a cluster IP (not headless). */
export function isServiceIPSet(svc: KubeObject): boolean {
  const ip = rec(svc.spec).clusterIP;
  return typeof ip === 'string' && ip !== '' && ip !== 'None';
}

/** A Service port's protocol (TCP when unset). */
export function portProtocol(port: Obj): string {
  return typeof port.protocol === 'string' && port.protocol ? port.protocol : 'TCP';
}

/**
 * FindPort: the pod's port a Service port reaches. A numeric targetPort is
 * that number; a named one is looked up, with the protocol, among the
 * containers' ports and those of restartable init containers (sidecars).
 * Undefined when the name is not found. A Service port without targetPort
 * targets its own port (the API server defaults it so).
 */
export function findPort(pod: KubeObject, servicePort: Obj): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  if (typeof target !== 'string') return undefined;
  if (/^\d+$/.test(target)) return Number(target);
  const protocol = portProtocol(servicePort);
  const spec = rec(pod.spec);
  const containers = [
    ...arr(spec.containers).map(rec),
    ...arr(spec.initContainers)
      .map(rec)
      .filter((c) => c.restartPolicy === 'Always'),
  ];
  for (const c of containers) {
    for (const p of arr(c.ports).map(rec)) {
      if (p.name === target && portProtocol(p) === protocol && typeof p.containerPort === 'number') return p.containerPort;
    }
  }
  return undefined;
}
