// What kube's service REST allocates for a Service, and in which order, on
// create and on update (pkg/registry/core/service/storage: allocateCreate,
// allocateUpdate): the IP-family checks of a single-stack IPv4 cluster, the
// cluster IP, the node ports of NodePort and LoadBalancer Services (ports
// that share a port number share a node port), and the health-check node port
// of a LoadBalancer with externalTrafficPolicy Local. Errors carry kube's
// field paths and texts: a requested value in use or out of range is a 422 on
// the field; an exhausted range or a duplicate is a 500.

import { errors, StatusError } from '../../../../errors/status';
import { fieldErrors, goStringSlice, type FieldError } from '../../../../errors/field-errors';
import type { KubeObject } from '../../../types';
import { arr, rec, str } from '../../common/table';
import { Allocation, AllocationError } from './allocation';
import { isHeadless } from './defaults';
import { clusterIPErrors, ipFamilyErrors } from './validation';

type Obj = Record<string, unknown>;

const SERVICE = { group: '', kind: 'Service' };

function invalid(svc: KubeObject, errs: FieldError[]): StatusError {
  return errors.invalid(SERVICE, svc.metadata?.name ?? '', errs);
}

function message(err: unknown): string {
  if (err instanceof AllocationError) return err.message;
  throw err;
}

const needsNodePorts = (spec: Obj) => spec.type === 'NodePort' || spec.type === 'LoadBalancer';

/** shouldAllocateNodePorts: NodePort always, LoadBalancer unless allocateLoadBalancerNodePorts is false. */
function allocatesNodePorts(spec: Obj): boolean {
  if (spec.type === 'NodePort') return true;
  return spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false;
}

/** apiservice.NeedsHealthCheck. */
export function needsHealthCheck(spec: Obj): boolean {
  return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}

const isIPv6 = (ip: string) => ip.includes(':');

/**
 * initIPFamilyFields' checks on a single-stack IPv4 cluster: the loose
 * pre-validation of the clusterIPs fields, then what this cluster cannot give.
 */
function checkFamilies(svc: KubeObject): void {
  const spec = rec(svc.spec);
  if (spec.type === 'ExternalName') return;
  const pre = [...clusterIPErrors(spec), ...ipFamilyErrors(spec)];
  if (pre.length) throw invalid(svc, pre);
  const ips = arr(spec.clusterIPs).map(String);
  const families = arr(spec.ipFamilies);
  const errs: FieldError[] = [];
  ips.forEach((ip, i) => {
    if (ip !== 'None' && isIPv6(ip) && families[i] !== 'IPv6') errs.push(fieldErrors.invalid(`spec.clusterIPs[${i}]`, goStringSlice(ips), 'IPv6 is not configured on this cluster'));
  });
  if (errs.length) throw invalid(svc, errs);
  // Headless and selectorless may ask for both families even here.
  if (isHeadless(spec) && Object.keys(rec(spec.selector)).length === 0) return;
  if (spec.ipFamilyPolicy === 'RequireDualStack') errs.push(fieldErrors.invalid('spec.ipFamilyPolicy', 'RequireDualStack', 'this cluster is not configured for dual-stack services'));
  families.forEach((f, i) => {
    if (f === 'IPv6') errs.push(fieldErrors.invalid(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster'));
  });
  if (errs.length) throw invalid(svc, errs);
}

/** allocClusterIPs: the requested cluster IP, or a free one. ExternalName and headless Services get none. */
async function allocateClusterIP(svc: KubeObject, op: Allocation): Promise<void> {
  const spec = rec(svc.spec);
  if (spec.type === 'ExternalName' || isHeadless(spec)) return;
  const ips = arr(spec.clusterIPs).map(String);
  const wanted = ips[0] || str(spec.clusterIP);
  if (wanted) {
    try {
      await op.ip(wanted);
    } catch (err) {
      const shown = ips.length ? ips : [wanted];
      throw invalid(svc, [fieldErrors.invalid('spec.clusterIPs', goStringSlice(shown), `failed to allocate IP ${wanted}: ${message(err)}`)]);
    }
    spec.clusterIP = wanted;
    spec.clusterIPs = [wanted, ...ips.slice(1)];
    return;
  }
  let ip: string;
  try {
    ip = op.nextIP();
  } catch (err) {
    throw errors.internal(`failed to allocate a serviceIP: ${message(err)}`);
  }
  spec.clusterIP = ip;
  spec.clusterIPs = [ip];
}

/** initNodePorts (create): ports with the same port number share one node port. */
async function allocateNodePortsOnCreate(svc: KubeObject, op: Allocation): Promise<void> {
  const spec = rec(svc.spec);
  const ports = arr(spec.ports).map(rec);
  const byServicePort = new Map<unknown, number>();
  for (const [i, p] of ports.entries()) {
    const requested = typeof p.nodePort === 'number' ? p.nodePort : 0;
    if (requested === 0 && !allocatesNodePorts(spec)) continue;
    const shared = byServicePort.get(p.port);
    if (shared === undefined) {
      // A node port asked for on any port with this number (this one or a later one).
      const asked = ports.find((q) => q.port === p.port && typeof q.nodePort === 'number' && q.nodePort !== 0)?.nodePort as number | undefined;
      if (asked !== undefined) {
        await allocatePortAt(svc, op, i, asked);
        p.nodePort = asked;
        byServicePort.set(p.port, asked);
      } else {
        const next = nextNodePort(op);
        p.nodePort = next;
        byServicePort.set(p.port, next);
      }
    } else if (requested !== shared) {
      if (requested === 0) p.nodePort = shared;
      else await allocatePortAt(svc, op, i, requested);
    }
  }
}

async function allocatePortAt(svc: KubeObject, op: Allocation, index: number, port: number): Promise<void> {
  try {
    await op.port(port);
  } catch (err) {
    throw invalid(svc, [fieldErrors.invalid(`spec.ports[${index}].nodePort`, port, message(err))]);
  }
}

function nextNodePort(op: Allocation): number {
  try {
    return op.nextPort();
  } catch (err) {
    throw errors.internal(`failed to allocate a nodePort: ${message(err)}`);
  }
}

/** allocHealthCheckNodePort: the requested one or a free one. */
async function allocateHealthCheckNodePort(svc: KubeObject, op: Allocation): Promise<void> {
  const spec = rec(svc.spec);
  const requested = typeof spec.healthCheckNodePort === 'number' ? spec.healthCheckNodePort : 0;
  if (requested !== 0) {
    try {
      await op.port(requested);
    } catch (err) {
      throw errors.internal(`failed to allocate requested HealthCheck NodePort ${requested}: ${message(err)}`);
    }
    return;
  }
  try {
    spec.healthCheckNodePort = op.nextPort();
  } catch (err) {
    throw errors.internal(`failed to allocate a HealthCheck NodePort 0: ${message(err)}`);
  }
}

export async function allocateForCreate(svc: KubeObject, op: Allocation): Promise<void> {
  checkFamilies(svc);
  await allocateClusterIP(svc, op);
  const spec = rec(svc.spec);
  if (needsNodePorts(spec)) await allocateNodePortsOnCreate(svc, op);
  if (needsHealthCheck(spec)) await allocateHealthCheckNodePort(svc, op);
}

function nodePortNumbers(spec: Obj): number[] {
  return arr(spec.ports)
    .map(rec)
    .map((p) => (typeof p.nodePort === 'number' ? p.nodePort : 0))
    .filter((n) => n !== 0);
}

/** updateNodePorts: new values are allocated, values the old Service held are kept. */
async function allocateNodePortsOnUpdate(svc: KubeObject, old: KubeObject, op: Allocation): Promise<void> {
  const spec = rec(svc.spec);
  const oldNumbers = nodePortNumbers(rec(old.spec));
  const allocatedHere = new Set<number>();
  const seen = new Set<string>();
  for (const [i, p] of arr(spec.ports).map(rec).entries()) {
    let nodePort = typeof p.nodePort === 'number' ? p.nodePort : 0;
    if (nodePort === 0 && !allocatesNodePorts(spec)) continue;
    if (nodePort !== 0) {
      if (!oldNumbers.includes(nodePort) && !allocatedHere.has(nodePort)) {
        await allocatePortAt(svc, op, i, nodePort);
        allocatedHere.add(nodePort);
      }
    } else {
      nodePort = nextNodePort(op);
      p.nodePort = nodePort;
    }
    const key = `${str(p.protocol)} ${nodePort}`;
    if (seen.has(key)) throw errors.internal(`duplicate nodePort: {${key}}`);
    seen.add(key);
  }
}

/**
 * allocateUpdate: a Service leaving ExternalName gets a cluster IP; one of
 * type NodePort or LoadBalancer gets node ports for new ports; one that starts
 * needing a health check gets its node port. What the Service stops using is
 * freed once the update is stored (the allocator follows the store).
 */
export async function allocateForUpdate(svc: KubeObject, old: KubeObject, op: Allocation): Promise<void> {
  checkFamilies(svc);
  const spec = rec(svc.spec);
  const oldSpec = rec(old.spec);
  if (oldSpec.type === 'ExternalName' && spec.type !== 'ExternalName') await allocateClusterIP(svc, op);
  if (needsNodePorts(spec)) await allocateNodePortsOnUpdate(svc, old, op);
  if (!needsHealthCheck(oldSpec) && needsHealthCheck(spec)) await allocateHealthCheckNodePort(svc, op);
}
