// kube-controller-manager's Deployment controller (pkg/controller/deployment):
// watches Deployments, their ReplicaSets and (for Recreate) their pods; a
// sync claims the ReplicaSets the selector matches (adopting orphans,
// releasing those that stop matching), then — as syncDeployment does —
// only reports status for a Deployment being deleted, records pause and
// resume in the Progressing condition, scales proportionally on a scaling
// event or while paused, and otherwise rolls out by the strategy
// (rollout.ts). A rollout waiting for its progress deadline is looked at
// again when the deadline passes on the cluster clock. `kubectl rollout
// undo` (which patches the template back, client-side, in kubectl 1.32) is
// a template change like any other: the old ReplicaSet becomes the new one
// again and takes the next revision.

import type { KubeObject, OwnerReference } from '../../kinds/types';
import { isNotFound } from '../client/api-error';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { ClockRequeue, ControllerRefManager, RecentWrites, controllerRefOf, keyOf, labelsOf, PODS, rec, selectorMatchesForLookup, splitKey, structuredSelector } from '../workloads';
import { isEmptyLabelSelector, type LabelSelectorObject } from '../../selectors';
import { DEPLOYMENTS, REPLICASETS, Rollout } from './rollout';
import { specOf, statusOf } from './deployment-util';

export const DEPLOYMENT_CONTROLLER = 'deployment-controller';

export function deploymentController(ctx: ControllerContext): Controller {
  const deployments = ctx.informers.for(DEPLOYMENTS);
  const replicaSets = ctx.informers.for(REPLICASETS);
  const pods = ctx.informers.for(PODS);
  const recorder = ctx.recorder(DEPLOYMENT_CONTROLLER);
  const unsubscribe: (() => void)[] = [];

  const queue = new WorkQueue(DEPLOYMENT_CONTROLLER, ctx.activity, (key) => sync(key), ctx.log);
  const requeue = new ClockRequeue(ctx.timers, (key) => queue.add(key));
  const enqueue = (d: KubeObject) => queue.add(keyOf(d));
  const writes = new RecentWrites();

  function resolveControllerRef(namespace: string, ref: OwnerReference): KubeObject | undefined {
    if (ref.kind !== 'Deployment') return undefined;
    const d = deployments.get(namespace, ref.name);
    return d && d.metadata?.uid === ref.uid ? d : undefined;
  }

  /** getDeploymentsForReplicaSet: the Deployments whose selector matches an orphan ReplicaSet. */
  function deploymentsSelecting(rs: KubeObject): KubeObject[] {
    if (Object.keys(labelsOf(rs)).length === 0) return [];
    return deployments.list(rs.metadata?.namespace ?? '').filter((d) => selectorMatchesForLookup(structuredSelector(specOf(d).selector), rs));
  }

  function onReplicaSetAdd(rs: KubeObject): void {
    if (rs.metadata?.deletionTimestamp) return onReplicaSetDelete(rs);
    const ref = controllerRefOf(rs);
    if (ref) {
      const d = resolveControllerRef(rs.metadata?.namespace ?? '', ref);
      if (d) enqueue(d);
      return;
    }
    for (const d of deploymentsSelecting(rs)) enqueue(d);
  }

  function onReplicaSetUpdate(old: KubeObject, cur: KubeObject): void {
    if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
    const curRef = controllerRefOf(cur);
    const oldRef = controllerRefOf(old);
    const refChanged = JSON.stringify(curRef ?? null) !== JSON.stringify(oldRef ?? null);
    if (refChanged && oldRef) {
      const d = resolveControllerRef(old.metadata?.namespace ?? '', oldRef);
      if (d) enqueue(d);
    }
    if (curRef) {
      const d = resolveControllerRef(cur.metadata?.namespace ?? '', curRef);
      if (d) enqueue(d);
      return;
    }
    const labelChanged = JSON.stringify(old.metadata?.labels ?? {}) !== JSON.stringify(cur.metadata?.labels ?? {});
    if (labelChanged || refChanged) for (const d of deploymentsSelecting(cur)) enqueue(d);
  }

  function onReplicaSetDelete(rs: KubeObject): void {
    writes.forget(rs);
    const ref = controllerRefOf(rs);
    if (!ref) return;
    const d = resolveControllerRef(rs.metadata?.namespace ?? '', ref);
    if (d) enqueue(d);
  }

  /** The pods of a Deployment's ReplicaSets, by ReplicaSet uid (getPodMapForDeployment). */
  function podsByReplicaSet(d: KubeObject, rsList: readonly KubeObject[]): Map<string, KubeObject[]> {
    const map = new Map<string, KubeObject[]>();
    for (const rs of rsList) map.set(rs.metadata?.uid ?? '', []);
    const selector = structuredSelector(specOf(d).selector);
    if (!selector) return map;
    for (const pod of pods.list(d.metadata?.namespace ?? '')) {
      if (!selector.matches(labelsOf(pod))) continue;
      const ref = controllerRefOf(pod);
      if (ref) map.get(ref.uid)?.push(pod);
    }
    return map;
  }

  /** getDeploymentForPod: through the pod's ReplicaSet. */
  function deploymentForPod(pod: KubeObject): KubeObject | undefined {
    const ref = controllerRefOf(pod);
    if (!ref || ref.kind !== 'ReplicaSet') return undefined;
    const rs = replicaSets.get(pod.metadata?.namespace ?? '', ref.name);
    if (!rs || rs.metadata?.uid !== ref.uid) return undefined;
    const rsRef = controllerRefOf(rs);
    return rsRef ? resolveControllerRef(rs.metadata?.namespace ?? '', rsRef) : undefined;
  }

  /** A Recreate rollout waits for the old pods to be gone: look again when the last one goes. */
  function onPodDelete(pod: KubeObject): void {
    const d = deploymentForPod(pod);
    if (!d || rec(specOf(d).strategy).type !== 'Recreate') return;
    const ns = d.metadata?.namespace ?? '';
    const rsList = replicaSets.list(ns).filter((rs) => controllerRefOf(rs)?.uid === d.metadata?.uid);
    let count = 0;
    for (const list of podsByReplicaSet(d, rsList).values()) count += list.length;
    if (count === 0) enqueue(d);
  }

  async function claimReplicaSets(d: KubeObject): Promise<KubeObject[]> {
    const namespace = d.metadata?.namespace ?? '';
    const selector = structuredSelector(specOf(d).selector);
    if (!selector) throw new Error(`deployment ${keyOf(d)} has invalid label selector`);
    const manager = new ControllerRefManager({
      client: ctx.client,
      owner: d,
      ownerApiVersion: 'apps/v1',
      ownerKind: 'Deployment',
      selector,
      ownedResource: REPLICASETS,
      getFreshOwner: () => ctx.client.get(DEPLOYMENTS, namespace, d.metadata?.name ?? ''),
    });
    return manager.claim(replicaSets.list(namespace).map((rs) => writes.fresh(rs)));
  }

  async function sync(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const cached = writes.fresh(deployments.get(namespace, name));
    if (!cached) return;
    const rollout = new Rollout(
      {
        client: ctx.client,
        recorder,
        now: () => ctx.clock.now(),
        getReplicaSet: (ns, n) => replicaSets.get(ns, n),
        requeueAt: (at) => requeue.at(key, at),
        recordWrite: (before, after) => writes.record(before, after),
      },
      cached,
    );
    const d = rollout.d;
    try {
      if (isEmptyLabelSelector(specOf(d).selector as LabelSelectorObject | undefined)) {
        await recorder.record(d, { type: 'Warning', reason: 'SelectingAll', message: 'This deployment is selecting all pods. A non-empty selector is required.' });
        if (Number(statusOf(d).observedGeneration ?? 0) < Number(d.metadata?.generation ?? 0)) {
          d.status = { ...statusOf(d), observedGeneration: d.metadata?.generation };
          await ctx.client.update(DEPLOYMENTS, namespace, d, 'status');
        }
        return;
      }
      const rsList = await claimReplicaSets(d);
      const podMap = podsByReplicaSet(d, rsList);
      if (d.metadata?.deletionTimestamp) return await rollout.syncStatusOnly(rsList);
      await rollout.checkPausedConditions();
      if (specOf(d).paused === true) return await rollout.sync(rsList);
      if (await rollout.isScalingEvent(rsList)) return await rollout.sync(rsList);
      const type = rec(specOf(d).strategy).type;
      if (type === 'Recreate') return await rollout.rolloutRecreate(rsList, podMap);
      if (type === 'RollingUpdate') return await rollout.rolloutRolling(rsList);
      throw new Error(`unexpected deployment strategy type: ${String(type)}`);
    } catch (err) {
      // The Deployment went away meanwhile: nothing left to do.
      if (isNotFound(err) && !deployments.get(namespace, name)) return;
      throw err;
    }
  }

  return {
    name: DEPLOYMENT_CONTROLLER,
    start() {
      void Promise.all([deployments.synced, replicaSets.synced, pods.synced]).then(() => {
        unsubscribe.push(
          deployments.addHandler({
            onAdd: enqueue,
            onUpdate: (_old, cur) => enqueue(cur),
            onDelete: (d) => {
              writes.forget(d);
              enqueue(d);
            },
          }),
        );
        unsubscribe.push(replicaSets.addHandler({ onAdd: onReplicaSetAdd, onUpdate: onReplicaSetUpdate, onDelete: onReplicaSetDelete }));
        unsubscribe.push(pods.addHandler({ onDelete: onPodDelete }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      requeue.stop();
      await queue.stop();
    },
  };
}
