// kube-controller-manager's endpoints controller: keeps one core/v1
// Endpoints object per Service with a selector (not ExternalName), named as
// the Service, with the Service's labels (plus service.kubernetes.io/headless
// for a headless one), the addresses of its pods (endpoint-subsets.ts), the
// last-change-trigger-time annotation and, past 1000 addresses, the
// over-capacity annotation. A Service without a selector is left alone (its
// Endpoints are the user's); a deleted Service's Endpoints are deleted.
// Failed writes are retried with backoff and reported as
// FailedToCreateEndpoint / FailedToUpdateEndpoint events.

import type { KubeObject } from '../../kinds/types';
import { isNotFound, errorMessage, ApiError } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { hasStatusCause, NAMESPACE_TERMINATING_CAUSE, keyOf, rec, splitKey } from '../workloads';
import { capacityAnnotationSetCorrectly, computeSubsets, subsetsEqual, truncateSubsets } from './endpoint-subsets';
import { isServiceIPSet, podsOfService, serviceSelector, servicesForPod, servicesToUpdateOnPodChange } from './service-membership';
import { formatRFC3339Nano, LAST_CHANGE_TRIGGER_TIME, TriggerTimeTracker } from './trigger-time';

export const ENDPOINTS_CONTROLLER = 'endpoints-controller';
export const SERVICES: GroupVersionResource = { group: '', version: 'v1', resource: 'services' };
export const ENDPOINTS: GroupVersionResource = { group: '', version: 'v1', resource: 'endpoints' };
export const PODS_GVR: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };

export const HEADLESS_LABEL = 'service.kubernetes.io/headless';
export const OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';
const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

function labelsWithout(labels: Record<string, string> | undefined, key: string): Record<string, string> {
  const out = { ...(labels ?? {}) };
  delete out[key];
  return out;
}

function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const x = a ?? {};
  const y = b ?? {};
  const kx = Object.keys(x);
  return kx.length === Object.keys(y).length && kx.every((k) => x[k] === y[k]);
}

export function endpointsController(ctx: ControllerContext): Controller {
  const services = ctx.informers.for(SERVICES);
  const pods = ctx.informers.for(PODS_GVR);
  const endpoints = ctx.informers.for(ENDPOINTS);
  const recorder = ctx.recorder('endpoint-controller');
  const triggerTimes = new TriggerTimeTracker();
  // staleEndpointsTracker: resourceVersions this controller has replaced, so a cache still showing one is behind.
  const replaced = new Map<string, string>();
  const unsubscribe: (() => void)[] = [];

  const sync = async (key: string): Promise<void> => {
    const { namespace, name } = splitKey(key);
    const svc = services.get(namespace, name);
    if (!svc) {
      try {
        await ctx.client.delete(ENDPOINTS, namespace, name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      triggerTimes.deleteService(namespace, name);
      replaced.delete(key);
      return;
    }
    const spec = rec(svc.spec);
    if (spec.type === 'ExternalName') return;
    if (!serviceSelector(svc)) return;

    const selected = podsOfService(svc, pods);
    const triggerTime = triggerTimes.compute(svc, selected);
    const { subsets } = computeSubsets(svc, selected);

    const cached = endpoints.get(namespace, name);
    if (cached && replaced.get(key) === cached.metadata?.resourceVersion) {
      throw new Error(`endpoints informer cache is out of date, resource version ${cached.metadata?.resourceVersion} already processed for endpoints ${key}`);
    }
    const current: KubeObject = cached ?? { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace, ...(svc.metadata?.labels ? { labels: svc.metadata.labels } : {}) } };
    const create = !cached;
    const currentLabels = current.metadata?.labels;
    const compareLabels = currentLabels && HEADLESS_LABEL in currentLabels ? labelsWithout(currentLabels, HEADLESS_LABEL) : currentLabels;
    if (!create && subsetsEqual(current['subsets'], subsets) && sameMap(compareLabels, svc.metadata?.labels) && capacityAnnotationSetCorrectly(current.metadata?.annotations, current['subsets'])) {
      return;
    }

    const next: KubeObject = structuredClone(current);
    next.apiVersion = 'v1';
    next.kind = 'Endpoints';
    // An empty list is left out (omitempty).
    if (subsets.length > 0) next['subsets'] = subsets;
    else delete next['subsets'];
    const meta = next.metadata!;
    const annotations: Record<string, string> = { ...(meta.annotations ?? {}) };
    if (triggerTime !== undefined) annotations[LAST_CHANGE_TRIGGER_TIME] = formatRFC3339Nano(triggerTime);
    else delete annotations[LAST_CHANGE_TRIGGER_TIME];
    if (subsets.length > 0 && truncateSubsets(subsets)) annotations[OVER_CAPACITY] = 'truncated';
    else delete annotations[OVER_CAPACITY];
    meta.annotations = annotations;
    const labels = { ...(svc.metadata?.labels ?? {}) };
    if (!isServiceIPSet(svc)) labels[HEADLESS_LABEL] = '';
    else delete labels[HEADLESS_LABEL];
    meta.labels = labels;

    try {
      if (create) {
        await ctx.client.create(ENDPOINTS, namespace, next);
      } else {
        const updated = await ctx.client.update(ENDPOINTS, namespace, next);
        if (updated.metadata?.resourceVersion !== current.metadata?.resourceVersion && current.metadata?.resourceVersion) {
          replaced.set(key, current.metadata.resourceVersion);
        }
      }
    } catch (err) {
      // A terminating namespace refuses creates for good: drop the key.
      if (create && err instanceof ApiError && err.code === 403 && hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
      const regarding = { ...next, metadata: { ...meta, namespace } };
      if (create) {
        void recorder.record(regarding, { type: 'Warning', reason: 'FailedToCreateEndpoint', message: `Failed to create endpoint for service ${namespace}/${name}: ${errorMessage(err)}` });
      } else {
        void recorder.record(regarding, { type: 'Warning', reason: 'FailedToUpdateEndpoint', message: `Failed to update endpoint ${namespace}/${name}: ${errorMessage(err)}` });
      }
      throw err;
    }
  };

  const queue = new WorkQueue(ENDPOINTS_CONTROLLER, ctx.activity, sync, ctx.log);

  const addPod = (pod: KubeObject) => {
    for (const key of servicesForPod(services, pod.metadata?.namespace ?? '', pod.metadata?.labels ?? {})) queue.add(key);
  };

  return {
    name: ENDPOINTS_CONTROLLER,
    start() {
      void Promise.all([services.synced, pods.synced, endpoints.synced]).then(() => {
        unsubscribe.push(
          services.addHandler({
            onAdd: (s) => queue.add(keyOf(s)),
            onUpdate: (_o, s) => queue.add(keyOf(s)),
            onDelete: (s) => queue.add(keyOf(s)),
          }),
          pods.addHandler({
            onAdd: addPod,
            onUpdate: (old, cur) => {
              for (const key of servicesToUpdateOnPodChange(services, old, cur)) queue.add(key);
            },
            onDelete: addPod,
          }),
          endpoints.addHandler({ onDelete: (ep) => queue.add(keyOf(ep)) }),
        );
        // checkLeftoverEndpoints: Endpoints whose Service is gone are deleted (leader-election records are not).
        for (const ep of endpoints.list()) {
          if (ep.metadata?.annotations && LEADER_ANNOTATION in ep.metadata.annotations) continue;
          queue.add(keyOf(ep));
        }
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
