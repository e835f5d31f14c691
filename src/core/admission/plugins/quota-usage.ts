// What an object counts against a ResourceQuota (kube's quota evaluators),
// shared by the ResourceQuota admission plugin and the resourcequota
// controller: object counts (`pods`, `count/deployments.apps`), pod compute
// resources, service load balancers and node ports, claim storage (also per
// StorageClass), and whether a quota's scopes select the object.
// Quantities are held in milli-units.

import type { KubeObject } from '../../kinds/types';
import { isObj, objs, type Obj } from './pod-helpers';
import { milliValue, resourceList } from './quantities';

export type Usage = Map<string, number>;

/** Object-count names the legacy way (no count/ prefix) for these core resources. */
const LEGACY_COUNTS = new Set(['pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims']);

export function countName(group: string, resource: string): string {
  return group ? `count/${resource}.${group}` : `count/${resource}`;
}

const COMPUTE = ['cpu', 'memory', 'ephemeral-storage'];

/** kube's QuotaV1Pod: terminal pods and pods past their deletion grace no longer count. */
export function podCounts(pod: KubeObject, nowMs: number): boolean {
  const phase = (pod['status'] as Obj | undefined)?.['phase'];
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const meta = pod.metadata;
  if (meta?.deletionTimestamp && meta.deletionGracePeriodSeconds !== undefined) {
    const end = Date.parse(meta.deletionTimestamp) + meta.deletionGracePeriodSeconds * 1000;
    if (nowMs > end) return false;
  }
  return true;
}

function containerResources(c: Obj, field: 'requests' | 'limits') {
  return resourceList(isObj(c['resources']) ? c['resources'][field] : undefined);
}

/** The pod's requests or limits per resource: containers summed, at least any init container, plus overhead. */
function podTotal(spec: Obj, field: 'requests' | 'limits'): Map<string, number> {
  const total = new Map<string, number>();
  for (const c of objs(spec['containers'])) {
    for (const [k, q] of Object.entries(containerResources(c, field))) total.set(k, (total.get(k) ?? 0) + (milliValue(q) ?? 0));
  }
  for (const c of objs(spec['initContainers'])) {
    for (const [k, q] of Object.entries(containerResources(c, field))) total.set(k, Math.max(total.get(k) ?? 0, milliValue(q) ?? 0));
  }
  for (const [k, q] of Object.entries(resourceList(spec['overhead']))) total.set(k, (total.get(k) ?? 0) + (milliValue(q) ?? 0));
  return total;
}

function podUsage(pod: KubeObject, nowMs: number): Usage {
  const usage: Usage = new Map();
  if (!podCounts(pod, nowMs)) return usage;
  usage.set('pods', 1000);
  usage.set('count/pods', 1000);
  const spec = (pod['spec'] ?? {}) as Obj;
  for (const [k, v] of podTotal(spec, 'requests')) {
    if (COMPUTE.includes(k)) {
      usage.set(k, v);
      usage.set(`requests.${k}`, v);
    } else if (k.startsWith('hugepages-')) {
      usage.set(`requests.${k}`, v);
    } else if (k.includes('/')) {
      usage.set(`requests.${k}`, v);
    }
  }
  for (const [k, v] of podTotal(spec, 'limits')) {
    if (COMPUTE.includes(k)) usage.set(`limits.${k}`, v);
  }
  return usage;
}

function serviceUsage(svc: KubeObject): Usage {
  const usage: Usage = new Map([
    ['services', 1000],
    ['count/services', 1000],
  ]);
  const spec = (svc['spec'] ?? {}) as Obj;
  const type = spec['type'];
  if (type === 'LoadBalancer') usage.set('services.loadbalancers', 1000);
  if (type === 'NodePort' || type === 'LoadBalancer') usage.set('services.nodeports', objs(spec['ports']).length * 1000);
  return usage;
}

function claimUsage(pvc: KubeObject): Usage {
  const usage: Usage = new Map([
    ['persistentvolumeclaims', 1000],
    ['count/persistentvolumeclaims', 1000],
  ]);
  const spec = (pvc['spec'] ?? {}) as Obj;
  const storage = milliValue(resourceList(isObj(spec['resources']) ? spec['resources']['requests'] : undefined)['storage']) ?? 0;
  usage.set('requests.storage', storage);
  const className = (pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? spec['storageClassName']) as string | undefined;
  if (className) {
    usage.set(`${className}.storageclass.storage.k8s.io/requests.storage`, storage);
    usage.set(`${className}.storageclass.storage.k8s.io/persistentvolumeclaims`, 1000);
  }
  return usage;
}

/** The core resources whose usage reads the object itself; any other object counts by its existence alone. */
const USAGE_OF_OBJECT = new Map<string, (obj: KubeObject, nowMs: number) => Usage>([
  ['pods', podUsage],
  ['services', serviceUsage],
  ['persistentvolumeclaims', claimUsage],
]);

/** Whether this resource's usage needs more of its objects than their metadata. */
export function usageReadsObject(group: string, resource: string): boolean {
  return group === '' && USAGE_OF_OBJECT.has(resource);
}

/** What one object of this resource counts. */
export function objectUsage(group: string, resource: string, obj: KubeObject, nowMs: number): Usage {
  const ofObject = group === '' ? USAGE_OF_OBJECT.get(resource) : undefined;
  if (ofObject) return ofObject(obj, nowMs);
  const usage: Usage = new Map([[countName(group, resource), 1000]]);
  if (group === '' && LEGACY_COUNTS.has(resource)) usage.set(resource, 1000);
  return usage;
}

/** Which resource a quota name is charged by ({group, resource}), for the names the controller can count. */
export function resourceOfQuotaName(name: string): { group: string; resource: string } | undefined {
  if (name.startsWith('count/')) {
    const rest = name.slice('count/'.length);
    const dot = rest.indexOf('.');
    return dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
  }
  if (LEGACY_COUNTS.has(name)) return { group: '', resource: name };
  if (name.startsWith('services.')) return { group: '', resource: 'services' };
  if (name === 'requests.storage' || name.includes('.storageclass.storage.k8s.io/')) return { group: '', resource: 'persistentvolumeclaims' };
  const compute = name.replace(/^(requests|limits)\./, '');
  if (COMPUTE.includes(compute) || compute.startsWith('hugepages-') || compute.includes('/')) return { group: '', resource: 'pods' };
  return undefined;
}

function isBestEffort(pod: KubeObject): boolean {
  const spec = (pod['spec'] ?? {}) as Obj;
  return [...objs(spec['containers']), ...objs(spec['initContainers'])].every(
    (c) => Object.keys(containerResources(c, 'requests')).length === 0 && Object.keys(containerResources(c, 'limits')).length === 0,
  );
}

interface ScopeTerm {
  scopeName: string;
  operator: string;
  values?: string[];
}

function scopeTerms(quota: KubeObject): ScopeTerm[] {
  const spec = (quota['spec'] ?? {}) as Obj;
  const terms: ScopeTerm[] = [];
  for (const s of Array.isArray(spec['scopes']) ? (spec['scopes'] as string[]) : []) terms.push({ scopeName: s, operator: 'Exists' });
  const selector = isObj(spec['scopeSelector']) ? spec['scopeSelector'] : undefined;
  for (const e of objs(selector?.['matchExpressions'])) {
    terms.push({ scopeName: String(e['scopeName']), operator: String(e['operator']), values: Array.isArray(e['values']) ? (e['values'] as string[]) : [] });
  }
  return terms;
}

/** Whether the quota's scopes select this object (scoped quotas select pods only). */
export function quotaMatches(quota: KubeObject, group: string, resource: string, obj: KubeObject): boolean {
  const terms = scopeTerms(quota);
  if (terms.length === 0) return true;
  if (group !== '' || resource !== 'pods') return false;
  const spec = (obj['spec'] ?? {}) as Obj;
  return terms.every((t) => {
    switch (t.scopeName) {
      case 'Terminating':
        return typeof spec['activeDeadlineSeconds'] === 'number';
      case 'NotTerminating':
        return typeof spec['activeDeadlineSeconds'] !== 'number';
      case 'BestEffort':
        return isBestEffort(obj);
      case 'NotBestEffort':
        return !isBestEffort(obj);
      case 'PriorityClass': {
        const name = typeof spec['priorityClassName'] === 'string' ? spec['priorityClassName'] : '';
        if (t.operator === 'Exists') return name !== '';
        if (t.operator === 'DoesNotExist') return name === '';
        if (t.operator === 'In') return (t.values ?? []).includes(name);
        if (t.operator === 'NotIn') return !(t.values ?? []).includes(name);
        return false;
      }
      default:
        return false;
    }
  });
}

/** The resources a quota scope lets count: a BestEffort quota tracks only the pod count. */
export function scopeAllows(quota: KubeObject, name: string): boolean {
  if (scopeTerms(quota).some((t) => t.scopeName === 'BestEffort')) return name === 'pods' || name === 'count/pods';
  return true;
}

/** Sums the usage of objects, restricted to the given names. */
export function sumUsage(items: Iterable<Usage>, names: readonly string[]): Usage {
  const total: Usage = new Map(names.map((n) => [n, 0]));
  for (const usage of items) for (const n of names) total.set(n, (total.get(n) ?? 0) + (usage.get(n) ?? 0));
  return total;
}

const BYTES = /(^|\.)(memory|storage|ephemeral-storage)$|hugepages-/;

/** A usage value printed as a quantity: cores in milli when fractional, bytes with a binary suffix when exact. */
export function formatUsage(name: string, milli: number): string {
  if (milli % 1000 !== 0) return `${milli}m`;
  const units = milli / 1000;
  if (BYTES.test(name) && units !== 0) {
    for (const [suffix, size] of [['Ei', 2 ** 60], ['Pi', 2 ** 50], ['Ti', 2 ** 40], ['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]] as const) {
      if (units % size === 0) return `${units / size}${suffix}`;
    }
  }
  return String(units);
}
