// ResourceQuota: a create (or an update that grows usage: services, claims)
// is refused when it would take a namespace's ResourceQuota past its hard
// limits, with kube's "exceeded quota" message; pods in a namespace whose
// quota tracks cpu or memory must state them ("failed quota"). A quota the
// controller has not synced yet (no status.hard) restricts nothing, as in kube.
// Usage is counted from the stored objects at admission time (kube reads the
// quota's status.used and writes the increment back; counting live gives the
// same answers without a write from admission).

import type { KubeObject } from '../../kinds/types';
import { admissionForbidden } from '../errors';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { isObj, objs } from './pod-helpers';
import { milliValue, resourceList } from './quantities';
import { formatUsage, objectUsage, quotaMatches, resourceOfQuotaName, scopeAllows, sumUsage, type Usage } from './quota-usage';

const RESOURCE_QUOTAS = { group: '', resource: 'resourcequotas' };
const VALIDATION_SET = new Set(['requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory', 'cpu', 'memory']);

function prettyPrint(values: Map<string, number>): string {
  return [...values.keys()]
    .sort()
    .map((k) => `${k}=${formatUsage(k, values.get(k)!)}`)
    .join(',');
}

/** Which resources kube's evaluator for this resource charges on this operation. */
function handled(attrs: AdmissionAttributes): boolean {
  if (!attrs.namespace || attrs.subresource) return false;
  if (attrs.operation === 'CREATE') return true;
  // Updates change usage only for services (type, ports) and claims (resize).
  return attrs.operation === 'UPDATE' && attrs.resource.group === '' && ['services', 'persistentvolumeclaims'].includes(attrs.resource.resource);
}

/** Pods must state the compute resources a quota tracks (kube's backward-compatible Constraints). */
function podConstraints(pod: KubeObject, required: string[]): string | undefined {
  const needed = required.filter((r) => VALIDATION_SET.has(r));
  if (!needed.length) return undefined;
  const missing = new Map<string, string[]>();
  const spec = (pod['spec'] ?? {}) as Record<string, unknown>;
  for (const c of [...objs(spec['containers']), ...objs(spec['initContainers'])]) {
    const resources = isObj(c['resources']) ? c['resources'] : {};
    const requests = resourceList(resources['requests']);
    const limits = resourceList(resources['limits']);
    const has = new Set<string>();
    for (const r of ['cpu', 'memory']) {
      if (r in requests) has.add(r).add(`requests.${r}`);
      if (r in limits) has.add(`limits.${r}`);
    }
    for (const r of needed) if (!has.has(r)) missing.set(r, [...(missing.get(r) ?? []), String(c['name'])]);
  }
  if (!missing.size) return undefined;
  const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...new Set(missing.get(r))].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

function validate(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> | undefined {
  if (!handled(attrs) || !attrs.object) return;
  // A namespace without quotas (the server's in-memory copy says so at once) restricts nothing.
  if (ctx.reader.cached?.(RESOURCE_QUOTAS)?.list(attrs.namespace).length === 0) return;
  return checkQuotas(attrs, attrs.object, ctx);
}

async function checkQuotas(attrs: AdmissionAttributes, object: KubeObject, ctx: AdmissionContext): Promise<void> {
  const quotas = await ctx.reader.list(RESOURCE_QUOTAS, attrs.namespace);
  if (!quotas.length) return;
  const { group, resource } = attrs.resource;
  const now = ctx.clock.now();
  const next = objectUsage(group, resource, object, now);
  const prev: Usage = attrs.oldObject ? objectUsage(group, resource, attrs.oldObject, now) : new Map();
  const delta = new Map<string, number>();
  for (const [k, v] of next) {
    const d = v - (prev.get(k) ?? 0);
    if (d !== 0) delta.set(k, d);
  }
  if (!delta.size) return;
  let stored: KubeObject[] | undefined;
  for (const quota of quotas) {
    const hard = resourceList(isObj(quota['status']) ? quota['status']['hard'] : undefined);
    const restricted = Object.keys(hard).filter((name) => {
      const owner = resourceOfQuotaName(name);
      return owner?.group === group && owner.resource === resource && scopeAllows(quota, name);
    });
    if (!restricted.length || !quotaMatches(quota, group, resource, object)) continue;
    if (group === '' && resource === 'pods' && attrs.operation === 'CREATE') {
      const problem = podConstraints(object, restricted);
      if (problem) throw admissionForbidden(attrs, `failed quota: ${quota.metadata?.name ?? ''}: ${problem}`);
    }
    const requested = new Map(restricted.filter((n) => delta.has(n)).map((n) => [n, delta.get(n)!]));
    if (!requested.size) continue;
    stored ??= await ctx.reader.list({ group, resource }, attrs.namespace);
    const used = sumUsage(
      stored.filter((o) => quotaMatches(quota, group, resource, o)).map((o) => objectUsage(group, resource, o, now)),
      [...requested.keys()],
    );
    const exceeded = [...requested.keys()].filter((n) => used.get(n)! + requested.get(n)! > (milliValue(hard[n]) ?? 0));
    if (exceeded.length) {
      const pick = (m: Map<string, number>) => new Map(exceeded.map((n) => [n, m.get(n) ?? 0]));
      const limited = new Map(exceeded.map((n) => [n, milliValue(hard[n]) ?? 0]));
      throw admissionForbidden(
        attrs,
        `exceeded quota: ${quota.metadata?.name ?? ''}, requested: ${prettyPrint(pick(requested))}, used: ${prettyPrint(pick(used))}, limited: ${prettyPrint(limited)}`,
      );
    }
  }
}

export function resourceQuota(): AdmissionPlugin {
  return { name: 'ResourceQuota', handles: (op) => op === 'CREATE' || op === 'UPDATE', validate };
}
