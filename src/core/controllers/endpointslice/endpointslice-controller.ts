// kube-controller-manager's EndpointSlice controller: for every Service with
// a selector (not ExternalName), discovery.k8s.io/v1 EndpointSlices named
// "<service>-<random>" that hold its pods as endpoints (reconciler.ts),
// labelled kubernetes.io/service-name and managed-by
// endpointslice-controller.k8s.io, owned by the Service (the garbage
// collector removes them with it). It syncs a Service on changes of the
// Service, of its pods, and of its slices when someone else changed them
// (after a 1 s delay on the cluster Clock, as kube's
// endpointSliceChangeMinSyncDelay); a sync on a cache that is behind the
// controller's own writes is retried. Failures are reported as
// FailedToUpdateEndpointSlices events on the Service.

import type { KubeObject } from '../../kinds/types';
import { errorMessage } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { ClockRequeue, keyOf, rec, splitKey } from '../workloads';
import { PODS_GVR, SERVICES } from '../endpoints/endpoints-controller';
import { podsOfService, serviceSelector, servicesForPod, servicesToUpdateOnPodChange } from '../endpoints/service-membership';
import { TriggerTimeTracker } from '../endpoints/trigger-time';
import { EndpointSliceReconciler, ENDPOINT_SLICES } from './reconciler';
import { ENDPOINTSLICE_CONTROLLER_NAME, LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from './slice-endpoints';
import { EndpointSliceTracker } from './slice-tracker';

export const ENDPOINTSLICE_CONTROLLER = 'endpointslice-controller';
export const NODES: GroupVersionResource = { group: '', version: 'v1', resource: 'nodes' };
/** endpointSliceChangeMinSyncDelay. */
const SLICE_CHANGE_MIN_SYNC_DELAY_MS = 1000;

/** ServiceControllerKey: the Service a slice belongs to, by its service-name label. */
export function serviceKeyOfSlice(slice: KubeObject): string | undefined {
  const svc = slice.metadata?.labels?.[LABEL_SERVICE_NAME];
  return svc ? `${slice.metadata?.namespace ?? ''}/${svc}` : undefined;
}

const managedByUs = (slice: KubeObject) => slice.metadata?.labels?.[LABEL_MANAGED_BY] === ENDPOINTSLICE_CONTROLLER_NAME;

export function endpointSliceController(ctx: ControllerContext): Controller {
  const services = ctx.informers.for(SERVICES);
  const pods = ctx.informers.for(PODS_GVR);
  const nodes = ctx.informers.for(NODES);
  const slices = ctx.informers.for(ENDPOINT_SLICES);
  const recorder = ctx.recorder('endpoint-slice-controller');
  const tracker = new EndpointSliceTracker(serviceKeyOfSlice);
  const triggerTimes = new TriggerTimeTracker();
  const reconciler = new EndpointSliceReconciler({ client: ctx.client, nodes, tracker, controllerName: ENDPOINTSLICE_CONTROLLER_NAME });
  const unsubscribe: (() => void)[] = [];

  const sync = async (key: string): Promise<void> => {
    const { namespace, name } = splitKey(key);
    const svc = services.get(namespace, name);
    if (!svc) {
      triggerTimes.deleteService(namespace, name);
      tracker.deleteService(key);
      return;
    }
    if (rec(svc.spec).type === 'ExternalName') return;
    if (!serviceSelector(svc)) return;
    const selected = podsOfService(svc, pods);
    const existing = slices
      .list(namespace)
      .filter((s) => s.metadata?.labels?.[LABEL_SERVICE_NAME] === name && managedByUs(s))
      .filter((s) => !s.metadata?.deletionTimestamp);
    if (tracker.staleSlices(key, existing)) throw new Error('EndpointSlice informer cache is out of date');
    const triggerTime = triggerTimes.compute(svc, selected);
    try {
      await reconciler.reconcile(svc, selected, existing, triggerTime);
    } catch (err) {
      const regarding = { ...svc, apiVersion: 'v1', kind: 'Service' };
      void recorder.record(regarding, { type: 'Warning', reason: 'FailedToUpdateEndpointSlices', message: `Error updating Endpoint Slices for Service ${namespace}/${name}: ${errorMessage(err)}` });
      throw err;
    }
  };

  const queue = new WorkQueue(ENDPOINTSLICE_CONTROLLER, ctx.activity, sync, ctx.log);
  const delayed = new ClockRequeue(ctx.timers, (key) => queue.add(key));

  const queueForSlice = (slice: KubeObject) => {
    const key = serviceKeyOfSlice(slice);
    if (key) delayed.after(key, SLICE_CHANGE_MIN_SYNC_DELAY_MS);
  };
  const addPod = (pod: KubeObject) => {
    for (const key of servicesForPod(services, pod.metadata?.namespace ?? '', pod.metadata?.labels ?? {})) queue.add(key);
  };

  return {
    name: ENDPOINTSLICE_CONTROLLER,
    start() {
      void Promise.all([services.synced, pods.synced, nodes.synced, slices.synced]).then(() => {
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
          slices.addHandler({
            onAdd: (s) => {
              if (managedByUs(s) && tracker.shouldSync(s)) queueForSlice(s);
            },
            onUpdate: (old, cur) => {
              if (old.metadata?.labels?.[LABEL_SERVICE_NAME] !== cur.metadata?.labels?.[LABEL_SERVICE_NAME]) {
                queueForSlice(cur);
                queueForSlice(old);
                return;
              }
              if (managedByUs(old) !== managedByUs(cur) || (managedByUs(cur) && tracker.shouldSync(cur))) queueForSlice(cur);
            },
            onDelete: (s) => {
              if (managedByUs(s) && tracker.has(s) && !tracker.handleDeletion(s)) queueForSlice(s);
            },
          }),
        );
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      delayed.stop();
      await queue.stop();
    },
  };
}
