// kube-controller-manager's ReplicaSet controller (pkg/controller/replicaset),
// which also runs ReplicationControllers (replica-kinds.ts): each owner keeps
// spec.replicas active pods. A sync claims the active pods its selector
// matches (adopting orphans, releasing pods whose labels no longer match),
// creates the missing ones from the template in slow-start batches (1, 2,
// 4…, at most 500 per sync) or deletes the surplus in kube's order
// (pod-deletion-order.ts), and writes the status and the ReplicaFailure
// condition. Expectations keep it from acting again before its watch has
// shown the pods it created or deleted. Pods Ready but not yet available
// (minReadySeconds) are looked at again when they become so, on the cluster
// clock.

import type { KubeObject, OwnerReference } from '../../kinds/types';
import { errorMessage, isConflict, isNotFound } from '../client/api-error';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import {
  availableAtMs,
  ClockRequeue,
  ControllerExpectations,
  ControllerRefManager,
  controllerRefOf,
  filterActivePods,
  hasStatusCause,
  int,
  isPodActive,
  isPodReady,
  keyOf,
  labelsOf,
  NAMESPACE_TERMINATING_CAUSE,
  newControllerRef,
  PodControl,
  PODS,
  podsToDelete,
  RecentWrites,
  rec,
  selectorMatchesForLookup,
  slowStartBatch,
  SLOW_START_INITIAL_BATCH_SIZE,
  splitKey,
  type Obj,
} from '../workloads';
import { REPLICA_SET_KIND, REPLICATION_CONTROLLER_KIND, type ReplicaKind } from './replica-kinds';
import { calculateReplicaStatus, replicaStatusUnchanged } from './replica-status';

/** kube's BurstReplicas: at most this many pods created or deleted per sync. */
export const BURST_REPLICAS = 500;

export function replicaSetController(ctx: ControllerContext): Controller {
  return replicaController(ctx, REPLICA_SET_KIND);
}

export function replicationControllerController(ctx: ControllerContext): Controller {
  return replicaController(ctx, REPLICATION_CONTROLLER_KIND);
}

function replicaController(ctx: ControllerContext, kind: ReplicaKind): Controller {
  const owners = ctx.informers.for(kind.gvr);
  const pods = ctx.informers.for(PODS);
  const recorder = ctx.recorder(kind.component);
  const podControl = new PodControl(ctx.client, recorder);
  const expectations = new ControllerExpectations(ctx.clock);
  const unsubscribe: (() => void)[] = [];

  const queue = new WorkQueue(kind.controllerName, ctx.activity, (key) => sync(key), ctx.log);
  const requeue = new ClockRequeue(ctx.timers, (key) => queue.add(key));
  const enqueue = (owner: KubeObject) => queue.add(keyOf(owner));
  const writes = new RecentWrites();

  /** resolveControllerRef: the owner a pod's controller reference names, if it is of this kind and still the same object. */
  function resolveControllerRef(namespace: string, ref: OwnerReference): KubeObject | undefined {
    if (ref.kind !== kind.kind) return undefined;
    const owner = owners.get(namespace, ref.name);
    return owner && owner.metadata?.uid === ref.uid ? owner : undefined;
  }

  /** getPodReplicaSets: the owners whose selector matches an orphan pod. */
  function ownersSelecting(pod: KubeObject): KubeObject[] {
    if (Object.keys(labelsOf(pod)).length === 0) return [];
    return owners.list(pod.metadata?.namespace ?? '').filter((o) => selectorMatchesForLookup(kind.selector(o), pod));
  }

  function onPodAdd(pod: KubeObject): void {
    if (pod.metadata?.deletionTimestamp) {
      // A pod that shows up already being deleted (e.g. after a relist) counts as a deletion.
      onPodDelete(pod);
      return;
    }
    const ref = controllerRefOf(pod);
    if (ref) {
      const owner = resolveControllerRef(pod.metadata?.namespace ?? '', ref);
      if (!owner) return;
      expectations.creationObserved(keyOf(owner));
      enqueue(owner);
      return;
    }
    for (const owner of ownersSelecting(pod)) enqueue(owner);
  }

  function onPodUpdate(old: KubeObject, cur: KubeObject): void {
    if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
    const labelChanged = JSON.stringify(old.metadata?.labels ?? {}) !== JSON.stringify(cur.metadata?.labels ?? {});
    if (cur.metadata?.deletionTimestamp) {
      // Deletion has begun: the pod no longer counts, so the owner may act now instead of after the grace period.
      onPodDelete(cur);
      if (labelChanged) onPodDelete(old);
      return;
    }
    const curRef = controllerRefOf(cur);
    const oldRef = controllerRefOf(old);
    const refChanged = JSON.stringify(curRef ?? null) !== JSON.stringify(oldRef ?? null);
    if (refChanged && oldRef) {
      const previous = resolveControllerRef(old.metadata?.namespace ?? '', oldRef);
      if (previous) enqueue(previous);
    }
    if (curRef) {
      const owner = resolveControllerRef(cur.metadata?.namespace ?? '', curRef);
      if (owner) enqueue(owner);
      return;
    }
    if (labelChanged || refChanged) for (const owner of ownersSelecting(cur)) enqueue(owner);
  }

  function onPodDelete(pod: KubeObject): void {
    const ref = controllerRefOf(pod);
    if (!ref) return;
    const owner = resolveControllerRef(pod.metadata?.namespace ?? '', ref);
    if (!owner) return;
    const key = keyOf(owner);
    expectations.deletionObserved(key, keyOf(pod));
    queue.add(key);
  }

  /** getIndirectlyRelatedPods: the pods of every owner with the same controller (a Deployment's ReplicaSets). */
  function relatedPods(owner: KubeObject): KubeObject[] {
    const ref = controllerRefOf(owner);
    if (!ref) return [];
    const namespace = owner.metadata?.namespace ?? '';
    const all = pods.list(namespace);
    const seen = new Set<string>();
    const related: KubeObject[] = [];
    for (const sibling of owners.list(namespace)) {
      if (controllerRefOf(sibling)?.uid !== ref.uid) continue;
      const selector = kind.selector(sibling);
      if (!selector) continue;
      for (const pod of all) {
        const uid = pod.metadata?.uid ?? '';
        if (seen.has(uid) || !selector.matches(labelsOf(pod))) continue;
        seen.add(uid);
        related.push(pod);
      }
    }
    return related;
  }

  /** manageReplicas: creates or deletes pods so that `active` reaches spec.replicas. */
  async function manageReplicas(active: KubeObject[], owner: KubeObject, key: string): Promise<void> {
    const namespace = owner.metadata?.namespace ?? '';
    const spec = rec(owner.spec);
    let diff = active.length - int(spec.replicas);
    if (diff < 0) {
      const count = Math.min(-diff, BURST_REPLICAS);
      expectations.expectCreations(key, count);
      const controllerRef = newControllerRef(owner, kind.apiVersion, kind.kind);
      const result = await slowStartBatch(count, SLOW_START_INITIAL_BATCH_SIZE, async () => {
        try {
          await podControl.createPod(namespace, spec.template, owner, controllerRef);
        } catch (err) {
          // In a namespace being deleted every create fails; nothing to report.
          if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
          throw err;
        }
      });
      // Pods never asked for (after a failed batch) and failed ones will not be seen: stop expecting them.
      for (let i = result.successes; i < count; i++) expectations.creationObserved(key);
      if (result.error !== undefined) throw result.error;
      return;
    }
    if (diff > 0) {
      diff = Math.min(diff, BURST_REPLICAS);
      const victims = podsToDelete(active, relatedPods(owner), diff, ctx.clock.now());
      expectations.expectDeletions(key, victims.map(keyOf));
      const errors: unknown[] = [];
      await Promise.all(
        victims.map(async (pod) => {
          try {
            await podControl.deletePod(namespace, pod.metadata?.name ?? '', owner);
          } catch (err) {
            // The deletion will not be observed (or already was): stop expecting it.
            expectations.deletionObserved(key, keyOf(pod));
            if (!isNotFound(err)) errors.push(err);
          }
        }),
      );
      if (errors.length > 0) throw errors[0];
    }
  }

  /** updateReplicaSetStatus: writes the status (with observedGeneration) unless it already says so; one retry on a conflict. */
  async function writeStatus(owner: KubeObject, status: Obj): Promise<KubeObject> {
    if (replicaStatusUnchanged(owner, status)) return owner;
    let current = owner;
    for (let attempt = 0; ; attempt++) {
      const nextStatus: Obj = { ...status, observedGeneration: int(current.metadata?.generation) };
      const next = { ...current, status: nextStatus };
      // Only replicas is sent when 0; the other counts are omitempty in Go.
      for (const f of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']) if (nextStatus[f] === 0) delete nextStatus[f];
      try {
        const updated = await ctx.client.update(kind.gvr, current.metadata?.namespace ?? '', next, 'status');
        writes.record(current, updated);
        return updated;
      } catch (err) {
        if (attempt > 0 || !isConflict(err)) throw err;
        current = await ctx.client.get(kind.gvr, owner.metadata?.namespace ?? '', owner.metadata?.name ?? '');
      }
    }
  }

  async function sync(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const owner = writes.fresh(owners.get(namespace, name));
    if (!owner) {
      expectations.delete(key);
      return;
    }
    const needsSync = expectations.satisfied(key);
    const selector = kind.selector(owner);
    if (!selector) {
      ctx.log(`error converting pod selector to selector for ${kind.kind} ${key}`);
      return;
    }
    const manager = new ControllerRefManager({
      client: ctx.client,
      owner,
      ownerApiVersion: kind.apiVersion,
      ownerKind: kind.kind,
      selector,
      ownedResource: PODS,
      getFreshOwner: () => ctx.client.get(kind.gvr, namespace, name),
    });
    const active = await manager.claim(filterActivePods(pods.list(namespace)));
    let manageError: unknown;
    if (needsSync && !owner.metadata?.deletionTimestamp) {
      try {
        await manageReplicas(active, owner, key);
      } catch (err) {
        manageError = err;
      }
    }
    const now = ctx.clock.now();
    const status = calculateReplicaStatus(owner, active, manageError, now);
    let updated: KubeObject;
    try {
      updated = await writeStatus(owner, status);
    } catch (err) {
      if (isNotFound(err)) return;
      throw manageError ?? err;
    }
    // Look again when the next Ready pod has been Ready for minReadySeconds.
    const minReadySeconds = int(rec(updated.spec).minReadySeconds);
    if (manageError === undefined && minReadySeconds > 0) {
      const next = active
        .filter((p) => isPodActive(p) && isPodReady(p))
        .map((p) => availableAtMs(p, minReadySeconds, now))
        .filter((t): t is number => t !== undefined)
        .reduce((a, b) => Math.min(a, b), Infinity);
      if (Number.isFinite(next)) requeue.at(key, next);
    }
    if (manageError !== undefined) throw new Error(`${kind.kind} ${key}: ${errorMessage(manageError)}`);
  }

  return {
    name: kind.controllerName,
    start() {
      void Promise.all([owners.synced, pods.synced]).then(() => {
        unsubscribe.push(
          owners.addHandler({
            onAdd: enqueue,
            onUpdate: (old, cur) => {
              if (old.metadata?.uid !== cur.metadata?.uid) expectations.delete(keyOf(old));
              enqueue(cur);
            },
            onDelete: (owner) => {
              writes.forget(owner);
              expectations.delete(keyOf(owner));
              enqueue(owner);
            },
          }),
        );
        unsubscribe.push(pods.addHandler({ onAdd: onPodAdd, onUpdate: onPodUpdate, onDelete: onPodDelete }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      requeue.stop();
      await queue.stop();
    },
  };
}
