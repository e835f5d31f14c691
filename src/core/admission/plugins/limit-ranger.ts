// LimitRanger: the LimitRanges of the namespace default the resources of
// every container and init container of a new pod (default → limits,
// defaultRequest → requests, recorded in the kubernetes.io/limit-ranger
// annotation) and hold pods and claims to their min, max and
// maxLimitRequestRatio. Pod updates are left alone (containers are
// immutable), objects being deleted too.

import type { KubeObject } from '../../kinds/types';
import { admissionForbidden } from '../errors';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { onlyWhen } from './only-when';
import { isObj, objs, type Obj } from './pod-helpers';
import { formatMilli, isBinary, milliValue, resourceList, type ResourceList } from './quantities';

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

function applies(attrs: AdmissionAttributes): 'pods' | 'persistentvolumeclaims' | undefined {
  if (attrs.resource.group !== '' || attrs.subresource) return undefined;
  if (attrs.oldObject?.metadata?.deletionTimestamp) return undefined;
  if (attrs.resource.resource === 'pods') return attrs.operation === 'CREATE' ? 'pods' : undefined;
  if (attrs.resource.resource === 'persistentvolumeclaims') return 'persistentvolumeclaims';
  return undefined;
}

const limitItems = (lr: KubeObject): Obj[] => objs(isObj(lr['spec']) ? lr['spec']['limits'] : undefined);

function resourcesOf(container: Obj): Obj {
  if (!isObj(container['resources'])) container['resources'] = {};
  return container['resources'] as Obj;
}

function mergeDefaults(pod: KubeObject, limitRanges: KubeObject[]): void {
  const defaults: { limits: ResourceList; requests: ResourceList } = { limits: {}, requests: {} };
  for (const lr of limitRanges) {
    for (const item of limitItems(lr)) {
      if (item['type'] !== 'Container') continue;
      Object.assign(defaults.requests, resourceList(item['defaultRequest']));
      Object.assign(defaults.limits, resourceList(item['default']));
    }
  }
  const spec = pod['spec'] as Obj;
  const notes: string[] = [];
  const merge = (container: Obj, kind: string) => {
    const resources = resourcesOf(container);
    const limits = resourceList(resources['limits']);
    const requests = resourceList(resources['requests']);
    const setLimits = Object.keys(defaults.limits).filter((k) => !Object.hasOwn(limits, k));
    const setRequests = Object.keys(defaults.requests).filter((k) => !Object.hasOwn(requests, k));
    for (const k of setLimits) limits[k] = defaults.limits[k]!;
    for (const k of setRequests) requests[k] = defaults.requests[k]!;
    if (Object.keys(limits).length) resources['limits'] = limits;
    if (Object.keys(requests).length) resources['requests'] = requests;
    if (setRequests.length) notes.push(`${setRequests.sort().join(', ')} request for ${kind} ${String(container['name'])}`);
    if (setLimits.length) notes.push(`${setLimits.sort().join(', ')} limit for ${kind} ${String(container['name'])}`);
  };
  for (const c of objs(spec['containers'])) merge(c, 'container');
  for (const c of objs(spec['initContainers'])) merge(c, 'init container');
  if (notes.length) {
    const meta = (pod.metadata ??= {});
    meta.annotations = { ...(meta.annotations ?? {}), [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
  }
}

function minConstraint(type: string, name: string, enforced: string, requests: ResourceList, limits: ResourceList): string | undefined {
  const e = milliValue(enforced) ?? 0;
  if (!Object.hasOwn(requests, name)) return `minimum ${name} usage per ${type} is ${enforced}.  No request is specified`;
  if ((milliValue(requests[name]) ?? 0) < e) return `minimum ${name} usage per ${type} is ${enforced}, but request is ${requests[name]}`;
  if (name in limits && (milliValue(limits[name]) ?? 0) < e) return `minimum ${name} usage per ${type} is ${enforced}, but limit is ${limits[name]}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: string, requests: ResourceList, limits: ResourceList): string | undefined {
  const e = milliValue(enforced) ?? 0;
  if (!Object.hasOwn(limits, name)) return `maximum ${name} usage per ${type} is ${enforced}.  No limit is specified`;
  if ((milliValue(limits[name]) ?? 0) > e) return `maximum ${name} usage per ${type} is ${enforced}, but limit is ${limits[name]}`;
  if (name in requests && (milliValue(requests[name]) ?? 0) > e) return `maximum ${name} usage per ${type} is ${enforced}, but request is ${requests[name]}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: string, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = name in requests ? (milliValue(requests[name]) ?? 0) : 0;
  const lim = name in limits ? (milliValue(limits[name]) ?? 0) : 0;
  if (req === 0) return `${name} max limit to request ratio per ${type} is ${enforced}, but no request is specified or request is 0`;
  if (lim === 0) return `${name} max limit to request ratio per ${type} is ${enforced}, but no limit is specified or limit is 0`;
  const ratio = lim / req;
  if (ratio * 1000 > (milliValue(enforced) ?? 0)) {
    return `${name} max limit to request ratio per ${type} is ${enforced}, but provided ratio is ${ratio.toFixed(6)}`;
  }
  return undefined;
}

/** The pod's effective requests or limits: the containers' sum, at least any one init container's, plus the overhead. */
function podTotals(spec: Obj, field: 'requests' | 'limits'): ResourceList {
  const sums = new Map<string, { milli: number; binary: boolean }>();
  const add = (list: ResourceList, combine: (a: number, b: number) => number) => {
    for (const [k, q] of Object.entries(list)) {
      const prev = sums.get(k);
      const v = milliValue(q) ?? 0;
      sums.set(k, { milli: prev ? combine(prev.milli, v) : v, binary: prev?.binary ?? isBinary(q) });
    }
  };
  for (const c of objs(spec['containers'])) add(resourceList(isObj(c['resources']) ? c['resources'][field] : undefined), (a, b) => a + b);
  for (const c of objs(spec['initContainers'])) add(resourceList(isObj(c['resources']) ? c['resources'][field] : undefined), Math.max);
  add(resourceList(spec['overhead']), (a, b) => a + b);
  const out: ResourceList = {};
  for (const [k, { milli, binary }] of sums) out[k] = formatMilli(milli, binary);
  return out;
}

function validatePod(pod: KubeObject, limitRange: KubeObject): string[] {
  const spec = pod['spec'] as Obj;
  const problems: string[] = [];
  const check = (type: string, item: Obj, requests: ResourceList, limits: ResourceList) => {
    for (const [k, v] of Object.entries(resourceList(item['min']))) problems.push(minConstraint(type, k, v, requests, limits) ?? '');
    for (const [k, v] of Object.entries(resourceList(item['max']))) problems.push(maxConstraint(type, k, v, requests, limits) ?? '');
    for (const [k, v] of Object.entries(resourceList(item['maxLimitRequestRatio']))) problems.push(ratioConstraint(type, k, v, requests, limits) ?? '');
  };
  for (const item of limitItems(limitRange)) {
    if (item['type'] === 'Container') {
      for (const c of [...objs(spec['containers']), ...objs(spec['initContainers'])]) {
        const resources = isObj(c['resources']) ? c['resources'] : {};
        check('Container', item, resourceList(resources['requests']), resourceList(resources['limits']));
      }
    }
    if (item['type'] === 'Pod') check('Pod', item, podTotals(spec, 'requests'), podTotals(spec, 'limits'));
  }
  return problems.filter((p) => p !== '');
}

function validateClaim(pvc: KubeObject, limitRange: KubeObject): string[] {
  const spec = isObj(pvc['spec']) ? pvc['spec'] : {};
  const requests = resourceList(isObj(spec['resources']) ? spec['resources']['requests'] : undefined);
  const problems: string[] = [];
  for (const item of limitItems(limitRange)) {
    if (item['type'] !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of Object.entries(resourceList(item['min']))) problems.push(minConstraint('PersistentVolumeClaim', k, v, requests, {}) ?? '');
    for (const [k, v] of Object.entries(resourceList(item['max']))) {
      const e = milliValue(v) ?? 0;
      if (!Object.hasOwn(requests, k)) problems.push(`maximum ${k} usage per PersistentVolumeClaim is ${v}.  No request is specified`);
      else if ((milliValue(requests[k]) ?? 0) > e) problems.push(`maximum ${k} usage per PersistentVolumeClaim is ${v}, but request is ${requests[k]}`);
    }
  }
  return problems.filter((p) => p !== '');
}

/** utilerrors.NewAggregate's message: one error as is, several in brackets. */
function aggregate(problems: string[]): string {
  return problems.length === 1 ? problems[0]! : `[${problems.join(', ')}]`;
}

async function limitRangesOf(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<KubeObject[]> {
  return ctx.reader.list({ group: '', resource: 'limitranges' }, attrs.namespace);
}

async function admit(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  if (applies(attrs) !== 'pods' || !attrs.object) return;
  const ranges = await limitRangesOf(attrs, ctx);
  if (ranges.length === 0) return;
  if (!isObj(attrs.object['spec'])) return;
  mergeDefaults(attrs.object, ranges);
}

async function validate(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  const kind = applies(attrs);
  if (!kind || !attrs.object) return;
  // Each LimitRange is its own check, and the first one that fails is the answer.
  for (const lr of await limitRangesOf(attrs, ctx)) {
    const problems = kind === 'pods' ? validatePod(attrs.object, lr) : validateClaim(attrs.object, lr);
    if (problems.length) throw admissionForbidden(attrs, aggregate(problems));
  }
}

export function limitRanger(): AdmissionPlugin {
  return {
    name: 'LimitRanger',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    admit: onlyWhen((attrs) => applies(attrs) === 'pods' && !!attrs.object, admit),
    validate: onlyWhen((attrs) => applies(attrs) !== undefined && !!attrs.object, validate),
  };
}
