// Resource amounts as kube-scheduler counts them (framework.Resource): cpu in
// millicores, memory and ephemeral storage in bytes, the node's pod count,
// and "scalar" resources (extended resources, hugepages) as integers. A pod's
// request is what k8s.io/component-helpers' PodRequests computes: the sum of
// its containers, or more if an init container (plus the sidecars started
// before it) needs more, plus the sidecars themselves, plus pod overhead.
// The scoring plugins use the "non-zero" variant, in which a container that
// requests no cpu or memory counts as 100m / 200Mi.

import { parseQuantity } from '../../kinds/builtin/common/quantity';
import type { KubeObject } from '../../kinds/types';
import { arr, rec, str, type Obj } from './objects';

export interface Resources {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  /** Extended resources, hugepages, …: name → integer amount. */
  scalar: Map<string, number>;
}

export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

export const emptyResources = (): Resources => ({ milliCPU: 0, memory: 0, ephemeralStorage: 0, scalar: new Map() });

/** Rounds away float noise before rounding up, as Quantity.Value/MilliValue round up exact decimals. */
const ceil = (n: number): number => Math.ceil(Math.round(n * 1e6) / 1e6);

/** Whether kube's scheduler tracks the resource as a scalar (IsScalarResourceName). */
export function isScalarResource(name: string): boolean {
  return name.includes('/') || name.startsWith('hugepages-') || name.startsWith('attachable-volumes-');
}

/** A ResourceList (requests, allocatable, overhead) as Resources. */
export function toResources(list: unknown): Resources {
  const r = emptyResources();
  for (const [name, value] of Object.entries(rec(list))) {
    const q = parseQuantity(value);
    if (q === undefined) continue;
    if (name === 'cpu') r.milliCPU += ceil(q * 1000);
    else if (name === 'memory') r.memory += ceil(q);
    else if (name === 'ephemeral-storage') r.ephemeralStorage += ceil(q);
    else if (isScalarResource(name)) r.scalar.set(name, (r.scalar.get(name) ?? 0) + ceil(q));
  }
  return r;
}

export function addResources(into: Resources, r: Resources, sign = 1): void {
  into.milliCPU += sign * r.milliCPU;
  into.memory += sign * r.memory;
  into.ephemeralStorage += sign * r.ephemeralStorage;
  for (const [k, v] of r.scalar) into.scalar.set(k, (into.scalar.get(k) ?? 0) + sign * v);
}

function maxResources(into: Resources, r: Resources): void {
  into.milliCPU = Math.max(into.milliCPU, r.milliCPU);
  into.memory = Math.max(into.memory, r.memory);
  into.ephemeralStorage = Math.max(into.ephemeralStorage, r.ephemeralStorage);
  for (const [k, v] of r.scalar) into.scalar.set(k, Math.max(into.scalar.get(k) ?? 0, v));
}

const copy = (r: Resources): Resources => ({ ...r, scalar: new Map(r.scalar) });

function containerRequests(container: Obj, nonZero: boolean): Resources {
  const requests = rec(rec(container.resources).requests);
  const r = toResources(requests);
  if (nonZero) {
    if (!('cpu' in requests)) r.milliCPU = DEFAULT_MILLI_CPU_REQUEST;
    if (!('memory' in requests)) r.memory = DEFAULT_MEMORY_REQUEST;
  }
  return r;
}

/** PodRequests (with NonMissingContainerRequests when nonZero). */
export function podRequests(pod: KubeObject, nonZero = false): Resources {
  const spec = rec(pod.spec);
  const total = emptyResources();
  for (const c of arr(spec.containers)) addResources(total, containerRequests(rec(c), nonZero));
  const sidecars = emptyResources();
  const initMax = emptyResources();
  for (const c of arr(spec.initContainers).map(rec)) {
    const reqs = containerRequests(c, nonZero);
    let needed: Resources;
    if (str(c.restartPolicy) === 'Always') {
      // A sidecar runs beside everything after it: it adds to the pod's total.
      addResources(total, reqs);
      addResources(sidecars, reqs);
      needed = copy(sidecars);
    } else {
      needed = copy(reqs);
      addResources(needed, sidecars);
    }
    maxResources(initMax, needed);
  }
  maxResources(total, initMax);
  if (spec.overhead) addResources(total, toResources(spec.overhead));
  return total;
}

/** A node's allocatable, with its pod count. */
export function nodeAllocatable(node: KubeObject): { resources: Resources; pods: number } {
  const allocatable = rec(rec(node.status).allocatable);
  const pods = parseQuantity(allocatable.pods);
  return { resources: toResources(allocatable), pods: pods === undefined ? 0 : Math.floor(pods) };
}
