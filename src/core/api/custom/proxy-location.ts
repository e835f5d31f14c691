// Where services/<id>/proxy, pods/<id>/proxy and nodes/<id>/proxy lead, as
// kube-apiserver's ResourceLocation of each resource finds it. The id is
// "name", "name:port" or "scheme:name:port". A Service resolves through its
// Endpoints: a port number is first mapped to the Service port's name, then
// a subset with ready addresses and that port gives an address whose pod
// still has the IP; none gives 503 "no endpoints available". A pod needs a
// routable IP ("address not allowed"), its port defaults to its first
// container port. A node is its kubelet (port 10250) or another port of the
// node's address.

import { errors, StatusError } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import type { ServerContext } from '../context';
import { getObject } from '../resource-store';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export interface SchemeNamePort {
  readonly scheme: string;
  readonly name: string;
  readonly port: string;
}

/** utilnet.SplitSchemeNamePort. */
export function splitSchemeNamePort(id: string): SchemeNamePort | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name: string;
  let port = '';
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) [name, port] = parts as [string, string];
  else if (parts.length === 3) [scheme, name, port] = parts as [string, string, string];
  else return undefined;
  if (!name || !['', 'http', 'https'].includes(scheme)) return undefined;
  return { scheme, name, port };
}

/** A pod to reach on a port. */
export interface PodLocation {
  readonly kind: 'pod';
  readonly scheme: string;
  readonly pod: KubeObject;
  readonly ip: string;
  /** The port as the URL names it ('' for the scheme's default). */
  readonly port: string;
}

function served(ctx: ServerContext, plural: string) {
  const s = ctx.registry.lookup('', 'v1', plural);
  if (!s) throw errors.notFound({ group: '', resource: plural }, '');
  return s;
}

/** getPodIP: the first of the pod's IPs. */
export function podIPOf(pod: KubeObject): string {
  const status = rec(pod['status']);
  const first = rec(arr(status.podIPs)[0]).ip;
  if (typeof first === 'string' && first) return first;
  return typeof status.podIP === 'string' ? status.podIP : '';
}

/** net.IP.IsGlobalUnicast of an IPv4 or IPv6 text. */
function isGlobalUnicast(ip: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((n) => n > 255)) return false;
    if (a === 0 || a === 127 || a >= 224) return false;
    if (a === 169 && b === 254) return false;
    return !(a === 255 && b === 255 && c === 255 && d === 255);
  }
  if (!ip.includes(':')) return false;
  const lower = ip.toLowerCase();
  return !(lower === '::' || lower === '::1' || lower.startsWith('fe80:') || lower.startsWith('ff'));
}

/** pod.ResourceLocation. */
export async function podLocation(ctx: ServerContext, namespace: string, id: string): Promise<PodLocation> {
  const parsed = splitSchemeNamePort(id);
  if (!parsed) throw errors.badRequest(`invalid pod request ${JSON.stringify(id)}`);
  const { object: pod } = await getObject(ctx, served(ctx, 'pods'), namespace, parsed.name);
  let port = parsed.port;
  if (!port) {
    for (const c of arr(rec(pod['spec']).containers).map(rec)) {
      const first = rec(arr(c.ports)[0]);
      if (typeof first.containerPort === 'number') {
        port = String(first.containerPort);
        break;
      }
    }
  }
  const ip = podIPOf(pod);
  if (!isGlobalUnicast(ip)) throw errors.badRequest('address not allowed');
  return { kind: 'pod', scheme: parsed.scheme, pod, ip, port };
}

/** isValidAddress: the address names a pod that still has that IP. */
async function podOfAddress(ctx: ServerContext, namespace: string, address: Obj): Promise<KubeObject | undefined> {
  const ref = rec(address.targetRef);
  if (ref.kind !== 'Pod' || typeof ref.name !== 'string') return undefined;
  try {
    const { object: pod } = await getObject(ctx, served(ctx, 'pods'), typeof ref.namespace === 'string' && ref.namespace ? ref.namespace : namespace, ref.name);
    const ips = [podIPOf(pod), ...arr(rec(pod['status']).podIPs).map((p) => rec(p).ip)];
    return ips.includes(address.ip) ? pod : undefined;
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) return undefined;
    throw err;
  }
}

/** The random start kube picks, kept here so tests can see every candidate in turn. */
function randomStart(n: number): number {
  return Math.floor(Math.random() * n);
}

/** service.ResourceLocation. */
export async function serviceLocation(ctx: ServerContext, namespace: string, id: string): Promise<PodLocation> {
  const parsed = splitSchemeNamePort(id);
  if (!parsed) throw errors.badRequest(`invalid service request ${JSON.stringify(id)}`);
  const { scheme, name } = parsed;
  let portName = parsed.port;
  if (/^[+-]?\d+$/.test(portName)) {
    const { object: svc } = await getObject(ctx, served(ctx, 'services'), namespace, name);
    const num = Number(portName);
    const match = arr(rec(svc['spec']).ports)
      .map(rec)
      .find((p) => p.port === num);
    if (!match) throw errors.serviceUnavailable(`no service port ${num} found for service ${JSON.stringify(name)}`);
    portName = typeof match.name === 'string' ? match.name : '';
  }
  const { object: endpoints } = await getObject(ctx, served(ctx, 'endpoints'), namespace, name);
  const subsets = arr(endpoints['subsets']).map(rec);
  if (subsets.length === 0) throw errors.serviceUnavailable(`no endpoints available for service ${JSON.stringify(name)}`);
  const seed = randomStart(subsets.length);
  for (let i = 0; i < subsets.length; i++) {
    const ss = subsets[(seed + i) % subsets.length]!;
    const addresses = arr(ss.addresses).map(rec);
    if (addresses.length === 0) continue;
    for (const port of arr(ss.ports).map(rec)) {
      if ((typeof port.name === 'string' ? port.name : '') !== portName) continue;
      const addrSeed = randomStart(addresses.length);
      for (let t = 0; t < addresses.length; t++) {
        const address = addresses[(addrSeed + t) % addresses.length]!;
        const pod = await podOfAddress(ctx, namespace, address);
        if (!pod) continue;
        return { kind: 'pod', scheme, pod, ip: String(address.ip), port: String(port.port) };
      }
    }
  }
  throw errors.serviceUnavailable(`no endpoints available for service ${JSON.stringify(id)}`);
}

/** A node: its kubelet's own server, or another port on its address. */
export interface NodeLocation {
  readonly kind: 'node';
  readonly scheme: string;
  readonly nodeName: string;
  /** The port asked for ('' or the kubelet's: the kubelet itself). */
  readonly port: string;
}

/** node.ResourceLocation (the node's address and kubelet port come with the dial, kubelet-location.ts). */
export function nodeLocation(id: string): NodeLocation {
  const parsed = splitSchemeNamePort(id);
  if (!parsed) throw errors.badRequest(`invalid node request ${JSON.stringify(id)}`);
  return { kind: 'node', scheme: parsed.scheme, nodeName: parsed.name, port: parsed.port };
}
