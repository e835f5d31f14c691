// kube-controller-manager's resourcequota controller: every ResourceQuota's
// status shows its hard limits (spec.hard) and what the namespace uses of
// each (status.used), recomputed when the quota or an object it counts
// changes. Objects of the common kinds are watched; other `count/…` names
// are counted by listing when their quota syncs.

import type { KubeObject } from '../../kinds/types';
import { isNotFound, isConflict } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { formatUsage, objectUsage, quotaMatches, resourceOfQuotaName, scopeAllows, sumUsage, usageReadsObject } from '../../admission/plugins/quota-usage';

export const RESOURCE_QUOTA_CONTROLLER = 'resourcequota-controller';
export const RESOURCE_QUOTAS: GroupVersionResource = { group: '', version: 'v1', resource: 'resourcequotas' };

/** The kinds whose changes re-sync the quotas of their namespace. */
const WATCHED: readonly GroupVersionResource[] = [
  { group: '', version: 'v1', resource: 'pods' },
  { group: '', version: 'v1', resource: 'services' },
  { group: '', version: 'v1', resource: 'persistentvolumeclaims' },
  { group: '', version: 'v1', resource: 'configmaps' },
  { group: '', version: 'v1', resource: 'secrets' },
  { group: '', version: 'v1', resource: 'replicationcontrollers' },
  RESOURCE_QUOTAS,
];

/** The version to list a group's resources in, for `count/<resource>.<group>` names. */
const GROUP_VERSIONS: Readonly<Record<string, string>> = {
  '': 'v1',
  apps: 'v1',
  batch: 'v1',
  'networking.k8s.io': 'v1',
  'rbac.authorization.k8s.io': 'v1',
  policy: 'v1',
  autoscaling: 'v2',
  'discovery.k8s.io': 'v1',
  'events.k8s.io': 'v1',
  'coordination.k8s.io': 'v1',
  'storage.k8s.io': 'v1',
};

const sortedRecord = (entries: [string, string][]): Record<string, string> =>
  Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export function resourceQuotaController(ctx: ControllerContext): Controller {
  const quotas = ctx.informers.for(RESOURCE_QUOTAS);
  // Kinds only counted are watched through metadata informers (usageReadsObject), the ones the garbage
  // collector already runs: a write of a ConfigMap or a Secret is not sent to the controllers twice.
  const watched = new Map(
    WATCHED.map((gvr) => [`${gvr.group}/${gvr.resource}`, gvr === RESOURCE_QUOTAS ? quotas : ctx.informers.for(gvr, !usageReadsObject(gvr.group, gvr.resource))]),
  );
  const unsubscribe: (() => void)[] = [];

  async function objectsOf(group: string, resource: string, namespace: string): Promise<KubeObject[] | undefined> {
    const informer = watched.get(`${group}/${resource}`);
    if (informer) return informer.list(namespace);
    const version = GROUP_VERSIONS[group];
    if (!version) return undefined;
    try {
      return (await ctx.client.list({ group, version, resource }, namespace)).items;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  const queue = new WorkQueue(
    RESOURCE_QUOTA_CONTROLLER,
    ctx.activity,
    async (key) => {
      const [namespace, name] = key.split('/') as [string, string];
      const quota = quotas.get(namespace, name);
      if (!quota) return;
      const hard = ((quota['spec'] as { hard?: Record<string, string> } | undefined)?.hard ?? {}) as Record<string, string>;
      const now = ctx.clock.now();
      const used: [string, string][] = [];
      const byResource = new Map<string, string[]>();
      for (const n of Object.keys(hard)) {
        const owner = resourceOfQuotaName(n);
        if (!owner) continue;
        const k = `${owner.group}/${owner.resource}`;
        byResource.set(k, [...(byResource.get(k) ?? []), n]);
      }
      for (const [k, names] of byResource) {
        const slash = k.indexOf('/');
        const group = k.slice(0, slash);
        const resource = k.slice(slash + 1);
        const items = await objectsOf(group, resource, namespace);
        if (!items) continue;
        const counted = names.filter((n) => scopeAllows(quota, n));
        const total = sumUsage(
          items.filter((o) => quotaMatches(quota, group, resource, o)).map((o) => objectUsage(group, resource, o, now)),
          counted,
        );
        for (const n of counted) used.push([n, formatUsage(n, total.get(n) ?? 0)]);
      }
      const status = { hard: sortedRecord(Object.entries(hard).map(([k, v]) => [k, String(v)])), used: sortedRecord(used) };
      if (JSON.stringify(quota['status'] ?? {}) === JSON.stringify(status)) return;
      try {
        await ctx.client.update(RESOURCE_QUOTAS, namespace, { ...quota, status }, 'status');
      } catch (err) {
        // Gone meanwhile; or changed meanwhile, and its update event brings it back.
        if (isNotFound(err) || isConflict(err)) return;
        throw err;
      }
    },
    ctx.log,
  );

  const enqueueQuota = (q: KubeObject) => queue.add(`${q.metadata?.namespace ?? ''}/${q.metadata?.name ?? ''}`);
  const enqueueNamespace = (obj: KubeObject) => {
    for (const q of quotas.list(obj.metadata?.namespace ?? '')) enqueueQuota(q);
  };

  return {
    name: RESOURCE_QUOTA_CONTROLLER,
    start() {
      void Promise.all([...watched.values()].map((i) => i.synced)).then(() => {
        unsubscribe.push(quotas.addHandler({ onAdd: enqueueQuota, onUpdate: (_old, q) => enqueueQuota(q) }));
        for (const [key, informer] of watched) {
          if (key === '/resourcequotas') continue;
          unsubscribe.push(informer.addHandler({ onAdd: enqueueNamespace, onUpdate: (_old, o) => enqueueNamespace(o), onDelete: enqueueNamespace }));
        }
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
