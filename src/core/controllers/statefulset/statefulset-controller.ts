// kube-controller-manager's StatefulSet controller ("statefulset", service
// account statefulset-controller): keeps each StatefulSet's ordinal pods,
// their claims and the set's ControllerRevisions in line with its spec, and
// writes its status (see stateful-set-control.ts for one reconcile). It
// claims pods by selector and name, adopting orphans and releasing strays,
// adopts orphaned revisions, and looks again when its pods change, plus
// minReadySeconds after a pod turns ready (on the cluster Clock).

import type { KubeObject } from '../../kinds/types';
import { labelSelectorAsSelector, type LabelSelector, type LabelSelectorObject } from '../../selectors';
import { objectKey } from '../client/informer';
import { claimObjects, recheckOwner } from '../history/controller-ref';
import { controllerRefOf, isPodReady, newControllerRef } from '../workloads';
import { CONTROLLER_REVISIONS, RevisionHistory } from '../history/revisions';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { APPS_V1, isMemberOf, minReadySeconds, rec, replicasOf, STATEFUL_SET_KIND } from './identity';
import { CLAIMS, PODS, StatefulPodControl } from './stateful-pod-control';
import { ownedRevisions, STATEFUL_SETS, StatefulSetControl } from './stateful-set-control';

export const STATEFUL_SET_CONTROLLER = 'statefulset-controller';
/** The component its events name. */
export const STATEFUL_SET_EVENT_SOURCE = 'statefulset-controller';

export interface StatefulSetControllerOptions {
  /** Feature gate MaxUnavailableStatefulSet (alpha in 1.32: off). */
  readonly maxUnavailableStatefulSet?: boolean;
  /** Feature gate StatefulSetAutoDeletePVC (beta in 1.32: on). */
  readonly autoDeletePVC?: boolean;
}

const SMP = 'application/strategic-merge-patch+json';

export function statefulSetController(ctx: ControllerContext, options: StatefulSetControllerOptions = {}): Controller {
  const sets = ctx.informers.for(STATEFUL_SETS);
  const pods = ctx.informers.for(PODS);
  const revisions = ctx.informers.for(CONTROLLER_REVISIONS);
  const claims = ctx.informers.for(CLAIMS);
  const recorder = ctx.recorder(STATEFUL_SET_EVENT_SOURCE);
  const autoDeletePVC = options.autoDeletePVC ?? true;
  const podControl = new StatefulPodControl({ client: ctx.client, recorder, getClaim: (ns, name) => claims.get(ns, name), autoDeletePVC });
  const control = new StatefulSetControl({
    client: ctx.client,
    podControl,
    history: new RevisionHistory(ctx.client),
    revisionsOf: (set) => ownedRevisions(set, revisions.list(set.metadata?.namespace ?? '')),
    now: () => ctx.clock.now(),
    maxUnavailableStatefulSet: options.maxUnavailableStatefulSet ?? false,
    autoDeletePVC,
  });
  const unsubscribe: (() => void)[] = [];

  const enqueue = (set: KubeObject) => queue.add(objectKey(set));
  const enqueueAfter = (set: KubeObject, ms: number) => {
    const key = objectKey(set);
    ctx.timers.after(ms, () => queue.add(key));
  };

  async function adoptOrphanRevisions(set: KubeObject): Promise<void> {
    const orphans = ownedRevisions(set, revisions.list(set.metadata?.namespace ?? '')).filter((r) => !controllerRefOf(r));
    if (orphans.length === 0) return;
    await recheckOwner(() => ctx.client.get(STATEFUL_SETS, set.metadata?.namespace ?? '', set.metadata?.name ?? ''), set)();
    for (const r of orphans) {
      const patch = { metadata: { ownerReferences: [newControllerRef(set, APPS_V1, STATEFUL_SET_KIND)], uid: r.metadata?.uid } };
      await ctx.client.patch(CONTROLLER_REVISIONS, r.metadata?.namespace ?? '', r.metadata?.name ?? '', patch, SMP);
    }
  }

  async function sync(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const set = sets.get(key.slice(0, slash), key.slice(slash + 1));
    if (!set) return;
    let selector: LabelSelector;
    try {
      selector = labelSelectorAsSelector(rec(set.spec).selector as LabelSelectorObject);
    } catch (err) {
      // Not transient: nothing to retry until the set changes.
      ctx.log(`error converting StatefulSet ${key} selector: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    const namespace = set.metadata?.namespace ?? '';
    await adoptOrphanRevisions(set);
    const owned = await claimObjects(pods.list(namespace), {
      client: ctx.client,
      gvr: PODS,
      owner: set,
      ownerApiVersion: APPS_V1,
      ownerKind: STATEFUL_SET_KIND,
      selector,
      filter: (pod) => isMemberOf(set, pod),
      canAdopt: recheckOwner(() => ctx.client.get(STATEFUL_SETS, namespace, set.metadata?.name ?? ''), set),
    });
    const status = await control.update(set, owned);
    const minReady = minReadySeconds(set);
    if (minReady > 0 && status.availableReplicas !== replicasOf(set)) enqueueAfter(set, minReady * 1000);
  }

  const queue = new WorkQueue(STATEFUL_SET_CONTROLLER, ctx.activity, sync, ctx.log);

  /** resolveControllerRef: the set a controller reference names, if it is still that set. */
  const resolve = (namespace: string, ref: { kind: string; name: string; uid: string } | undefined): KubeObject | undefined => {
    if (!ref || ref.kind !== STATEFUL_SET_KIND) return undefined;
    const set = sets.get(namespace, ref.name);
    return set && set.metadata?.uid === ref.uid ? set : undefined;
  };

  /** getStatefulSetsForPod: the sets whose selector matches an orphan pod. */
  const setsForPod = (pod: KubeObject): KubeObject[] =>
    sets.list(pod.metadata?.namespace ?? '').filter((set) => {
      try {
        const selector = labelSelectorAsSelector(rec(set.spec).selector as LabelSelectorObject);
        return !selector.empty() && selector.matches(pod.metadata?.labels ?? {});
      } catch {
        return false;
      }
    });

  const podAdded = (pod: KubeObject) => {
    const ns = pod.metadata?.namespace ?? '';
    const ref = controllerRefOf(pod);
    if (ref) {
      const set = resolve(ns, ref);
      if (set) enqueue(set);
      return;
    }
    for (const set of setsForPod(pod)) enqueue(set);
  };

  const podUpdated = (old: KubeObject, pod: KubeObject) => {
    if (old.metadata?.resourceVersion === pod.metadata?.resourceVersion) return;
    const ns = pod.metadata?.namespace ?? '';
    const oldRef = controllerRefOf(old);
    const ref = controllerRefOf(pod);
    const refChanged = JSON.stringify(oldRef) !== JSON.stringify(ref);
    if (refChanged && oldRef) {
      const previous = resolve(ns, oldRef);
      if (previous) enqueue(previous);
    }
    if (ref) {
      const set = resolve(ns, ref);
      if (!set) return;
      enqueue(set);
      const minReady = minReadySeconds(set);
      // Becomes available minReadySeconds after turning ready: look again then (a second later, as kube).
      if (!isPodReady(old) && isPodReady(pod) && minReady > 0) enqueueAfter(set, (minReady + 1) * 1000);
      return;
    }
    const labelsChanged = JSON.stringify(old.metadata?.labels ?? {}) !== JSON.stringify(pod.metadata?.labels ?? {});
    if (labelsChanged || refChanged) for (const set of setsForPod(pod)) enqueue(set);
  };

  const podDeleted = (pod: KubeObject) => {
    const set = resolve(pod.metadata?.namespace ?? '', controllerRefOf(pod));
    if (set) enqueue(set);
  };

  return {
    name: STATEFUL_SET_CONTROLLER,
    start() {
      void Promise.all([sets.synced, pods.synced, revisions.synced, claims.synced]).then(() => {
        unsubscribe.push(sets.addHandler({ onAdd: enqueue, onUpdate: (_old, set) => enqueue(set), onDelete: enqueue }));
        unsubscribe.push(pods.addHandler({ onAdd: podAdded, onUpdate: podUpdated, onDelete: podDeleted }));
        unsubscribe.push(claims.addHandler({ onDelete: (claim) => podControl.forgetClaim(claim.metadata?.namespace ?? '', claim.metadata?.name ?? '') }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
