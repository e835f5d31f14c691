// kube-controller-manager's EndpointSlice mirroring controller: for a
// Service without a selector whose Endpoints a user (or another controller)
// writes, the Endpoints are mirrored into EndpointSlices
// (mirroring-reconciler.ts), so that kube-proxy and anything else reading
// slices sees them. Nothing is mirrored for Endpoints labelled
// endpointslice.kubernetes.io/skip-mirror=true (the API server's own
// "kubernetes" Endpoints) or carrying a leader-election record; mirrored
// slices go when the Endpoints or the Service go, or when the Service gains
// a selector (the EndpointSlice controller takes over).

import type { KubeObject } from '../../kinds/types';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { keyOf, splitKey } from '../workloads';
import { ENDPOINTS, SERVICES } from '../endpoints/endpoints-controller';
import { serviceSelector } from '../endpoints/service-membership';
import { ENDPOINT_SLICES } from '../endpointslice/reconciler';
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '../endpointslice/slice-endpoints';
import { EndpointSliceTracker } from '../endpointslice/slice-tracker';
import { serviceKeyOfSlice } from '../endpointslice/endpointslice-controller';
import { MirroringReconciler, MIRRORING_CONTROLLER_NAME } from './mirroring-reconciler';

export const ENDPOINTSLICE_MIRRORING_CONTROLLER = 'endpointslice-mirroring-controller';
export const LABEL_SKIP_MIRROR = 'endpointslice.kubernetes.io/skip-mirror';
const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

/** shouldMirror: not opted out, not a leader-election record. */
export function shouldMirror(endpoints: KubeObject): boolean {
  if (endpoints.metadata?.labels?.[LABEL_SKIP_MIRROR] === 'true') return false;
  return !(endpoints.metadata?.annotations && LEADER_ANNOTATION in endpoints.metadata.annotations);
}

const mirroredByUs = (slice: KubeObject) => slice.metadata?.labels?.[LABEL_MANAGED_BY] === MIRRORING_CONTROLLER_NAME;

export function endpointSliceMirroringController(ctx: ControllerContext): Controller {
  const services = ctx.informers.for(SERVICES);
  const endpoints = ctx.informers.for(ENDPOINTS);
  const slices = ctx.informers.for(ENDPOINT_SLICES);
  const tracker = new EndpointSliceTracker(serviceKeyOfSlice);
  const reconciler = new MirroringReconciler(ctx.client, tracker, ctx.recorder('endpoint-slice-mirroring-controller'));
  const unsubscribe: (() => void)[] = [];

  const mirroredSlices = (namespace: string, name: string) =>
    slices.list(namespace).filter((s) => s.metadata?.labels?.[LABEL_SERVICE_NAME] === name && mirroredByUs(s));

  const removeMirrored = async (key: string) => {
    const { namespace, name } = splitKey(key);
    tracker.deleteService(key);
    const existing = mirroredSlices(namespace, name);
    if (existing.length > 0) await reconciler.deleteAll(namespace, name, existing);
  };

  const sync = async (key: string): Promise<void> => {
    const { namespace, name } = splitKey(key);
    const svc = services.get(namespace, name);
    // No Service, or one with a selector (the EndpointSlice controller's): nothing mirrored.
    if (!svc || serviceSelector(svc)) return removeMirrored(key);
    const ep = endpoints.get(namespace, name);
    if (!ep || !shouldMirror(ep)) return removeMirrored(key);
    const existing = mirroredSlices(namespace, name).filter((s) => !s.metadata?.deletionTimestamp);
    if (tracker.staleSlices(key, existing)) throw new Error('EndpointSlice informer cache is out of date');
    await reconciler.reconcile(ep, existing);
  };

  const queue = new WorkQueue(ENDPOINTSLICE_MIRRORING_CONTROLLER, ctx.activity, sync, ctx.log);
  const queueForSlice = (slice: KubeObject) => {
    const key = serviceKeyOfSlice(slice);
    if (key) queue.add(key);
  };

  return {
    name: ENDPOINTSLICE_MIRRORING_CONTROLLER,
    start() {
      void Promise.all([services.synced, endpoints.synced, slices.synced]).then(() => {
        unsubscribe.push(
          services.addHandler({
            onAdd: (s) => queue.add(keyOf(s)),
            onUpdate: (old, cur) => {
              if (!!serviceSelector(old) !== !!serviceSelector(cur)) queue.add(keyOf(cur));
            },
            onDelete: (s) => queue.add(keyOf(s)),
          }),
          endpoints.addHandler({
            onAdd: (ep) => {
              if (shouldMirror(ep)) queue.add(keyOf(ep));
            },
            onUpdate: (old, cur) => {
              if (shouldMirror(cur) || shouldMirror(old)) queue.add(keyOf(cur));
            },
            onDelete: (ep) => queue.add(keyOf(ep)),
          }),
          slices.addHandler({
            onAdd: (s) => {
              if (mirroredByUs(s) && tracker.shouldSync(s)) queueForSlice(s);
            },
            onUpdate: (old, cur) => {
              if (old.metadata?.labels?.[LABEL_SERVICE_NAME] !== cur.metadata?.labels?.[LABEL_SERVICE_NAME]) {
                queueForSlice(cur);
                queueForSlice(old);
                return;
              }
              if (mirroredByUs(old) !== mirroredByUs(cur) || (mirroredByUs(cur) && tracker.shouldSync(cur))) queueForSlice(cur);
            },
            onDelete: (s) => {
              if (mirroredByUs(s) && tracker.has(s) && !tracker.handleDeletion(s)) queueForSlice(s);
            },
          }),
        );
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
