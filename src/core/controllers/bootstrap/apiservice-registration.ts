// kube-apiserver's APIService registration (kube-aggregator's autoregister
// with the CRD registration controller) and the Local half of its
// availability controller, as a client of the API:
// - at start, one APIService per served group-version the server itself
//   serves (./apiservices.ts), created when missing and put back when
//   deleted; an automanaged one whose spec drifted is set right again;
// - one per served version of each CustomResourceDefinition while the CRD
//   lists it, removed with it (only those labelled automanaged=true);
// - every Local APIService (no spec.service) gets the condition
//   Available=True, reason Local.
// Also creates metrics-server's aggregated reader ClusterRole when
// metrics.k8s.io is served (docs/decisions/0353).

import type { KubeObject } from '../../kinds/types';
import { errorMessage, isAlreadyExists, isConflict, isNotFound } from '../client/api-error';
import { discoverResources } from '../client/discovery';
import type { Informer } from '../client/informer';
import type { GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { AGGREGATED_METRICS_READER, apiServiceName, AUTOMANAGED_LABEL, builtinApiService, customResourceApiService, localAvailableCondition, METRICS_GROUP_VERSION } from './apiservices';

export const APISERVICE_REGISTRATION_CONTROLLER = 'apiservice-registration-controller';

const APISERVICES: GroupVersionResource = { group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices' };
const CRDS: GroupVersionResource = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };
const CLUSTER_ROLES: GroupVersionResource = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' };
const METRICS_READER_KEY = '#metrics-reader';

function rec(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
}

function specDiffers(wanted: KubeObject, current: KubeObject): boolean {
  const a = rec(wanted['spec']);
  const b = rec(current['spec']);
  return (['group', 'version', 'groupPriorityMinimum', 'versionPriority'] as const).some((k) => (a[k] ?? '') !== (b[k] ?? '')) || (b['service'] !== undefined && b['service'] !== null);
}

function isLocal(obj: KubeObject): boolean {
  const service = rec(obj['spec'])['service'];
  return service === undefined || service === null;
}

function locallyAvailable(obj: KubeObject): boolean {
  const conditions = Array.isArray(rec(obj['status'])['conditions']) ? (rec(obj['status'])['conditions'] as Record<string, unknown>[]) : [];
  return conditions.some((c) => c['type'] === 'Available' && c['status'] === 'True' && c['reason'] === 'Local');
}

/** The APIServices the CRDs ask for, by name. */
function crdApiServices(crds: readonly KubeObject[]): Map<string, KubeObject> {
  const out = new Map<string, KubeObject>();
  for (const crd of crds) {
    const spec = rec(crd['spec']);
    const group = String(spec['group'] ?? '');
    if (!group) continue;
    for (const v of Array.isArray(spec['versions']) ? (spec['versions'] as Record<string, unknown>[]) : []) {
      if (v['served'] !== true) continue;
      const obj = customResourceApiService(group, String(v['name'] ?? ''));
      out.set(obj.metadata!.name!, obj);
    }
  }
  return out;
}

export function apiServiceRegistrationController(ctx: ControllerContext): Controller {
  const apiServices = ctx.informers.for(APISERVICES);
  // Set at start when the server serves CRDs (their informer would wait for ever otherwise).
  let crds: Informer | undefined;
  const onStart = new Map<string, KubeObject>();
  const unsubscribe: (() => void)[] = [];

  const wanted = (name: string): KubeObject | undefined => onStart.get(name) ?? crdApiServices(crds?.list() ?? []).get(name);

  async function ensureMetricsReader(): Promise<void> {
    try {
      await ctx.client.create(CLUSTER_ROLES, '', AGGREGATED_METRICS_READER);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }

  async function sync(name: string): Promise<void> {
    if (name === METRICS_READER_KEY) return ensureMetricsReader();
    const desired = wanted(name);
    let current = apiServices.get('', name);
    if (!desired) {
      // Only the CRD registration's own objects go when their CRD version does.
      if (current && current.metadata?.labels?.[AUTOMANAGED_LABEL] === 'true') {
        try {
          await ctx.client.delete(APISERVICES, '', name, { preconditions: { uid: current.metadata.uid } });
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
        return;
      }
    } else if (!current) {
      try {
        current = await ctx.client.create(APISERVICES, '', desired);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        current = await ctx.client.get(APISERVICES, '', name);
      }
    } else if (current.metadata?.labels?.[AUTOMANAGED_LABEL] && specDiffers(desired, current)) {
      const spec = { ...rec(current['spec']), ...rec(desired['spec']) };
      delete spec['service'];
      current = await ctx.client.update(APISERVICES, '', { ...current, spec });
    }
    if (current && isLocal(current) && !locallyAvailable(current)) {
      const now = new Date(ctx.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const status = rec(current['status']);
      const others = (Array.isArray(status['conditions']) ? (status['conditions'] as Record<string, unknown>[]) : []).filter((c) => c['type'] !== 'Available');
      try {
        await ctx.client.update(APISERVICES, '', { ...current, status: { ...status, conditions: [...others, localAvailableCondition(now)] } }, 'status');
      } catch (err) {
        // A cache behind our own write: the newer object's event brings the key back.
        if (!isConflict(err) && !isNotFound(err)) throw err;
      }
    }
  }

  const queue = new WorkQueue(APISERVICE_REGISTRATION_CONTROLLER, ctx.activity, sync, ctx.log);
  const enqueue = (obj: KubeObject) => queue.add(obj.metadata?.name ?? '');
  const enqueueCrd = (crd: KubeObject) => {
    for (const name of crdApiServices([crd]).keys()) queue.add(name);
  };

  async function begin(): Promise<void> {
    const { resources, failed } = await discoverResources(ctx.client);
    if (failed.has('/api') || failed.has('/apis')) throw new Error(`discovery failed: ${[...failed.values()].join('; ')}`);
    if (resources.some((r) => r.group === CRDS.group && r.version === CRDS.version && r.resource === CRDS.resource)) {
      crds = ctx.informers.for(CRDS);
      await crds.synced;
    }
    await apiServices.synced;
    const customGroups = new Set((crds?.list() ?? []).map((c) => String(rec(c['spec'])['group'] ?? '')));
    let servesMetrics = false;
    for (const r of resources) {
      const gv = r.group ? `${r.group}/${r.version}` : r.version;
      if (gv === METRICS_GROUP_VERSION) servesMetrics = true;
      // A custom resource group's versions are the CRD registration's, not the start's.
      const obj = customGroups.has(r.group) ? undefined : builtinApiService(r.group, r.version);
      if (obj) onStart.set(apiServiceName(r.group, r.version), obj);
    }
    unsubscribe.push(apiServices.addHandler({ onAdd: enqueue, onUpdate: (_o, cur) => enqueue(cur), onDelete: enqueue }));
    if (crds) {
      unsubscribe.push(
        crds.addHandler({
          onAdd: enqueueCrd,
          onUpdate: (old, cur) => {
            enqueueCrd(old);
            enqueueCrd(cur);
          },
          onDelete: enqueueCrd,
        }),
      );
    }
    for (const name of onStart.keys()) queue.add(name);
    for (const obj of apiServices.list()) enqueue(obj);
    for (const crd of crds?.list() ?? []) enqueueCrd(crd);
    if (servesMetrics) queue.add(METRICS_READER_KEY);
  }

  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  function run(): void {
    const end = ctx.activity.begin();
    void begin()
      .catch((err) => {
        ctx.log(`start failed, retrying: ${errorMessage(err)}`);
        // A transport failure of the server's own loopback: tried again shortly, off the cluster clock.
        if (!stopped) retry = setTimeout(run, 1000);
      })
      .finally(end);
  }

  return {
    name: APISERVICE_REGISTRATION_CONTROLLER,
    start: run,
    async stop() {
      stopped = true;
      clearTimeout(retry);
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
