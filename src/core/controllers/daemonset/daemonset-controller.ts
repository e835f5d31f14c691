// kube-controller-manager's DaemonSet controller ("daemonset", service
// account daemon-set-controller): one pod of each DaemonSet on every node it
// belongs on (node-eligibility.ts), pinned there by node affinity for the
// scheduler to bind; failed pods replaced (with a back-off per node), extra
// ones removed; RollingUpdate within maxUnavailable or maxSurge, OnDelete
// left to the user; ControllerRevisions per template; and the set's status.
// As kube, it waits for the pod informer to show every create and delete it
// asked for (expectations) before deciding again, so events never make it
// create a node's pod twice. Events: SuccessfulCreate "Created pod: …",
// SuccessfulDelete "Deleted pod: …", FailedCreate/FailedDelete,
// FailedDaemonPod, SucceededDaemonPod, SelectingAll.

import type { KubeObject } from '../../kinds/types';
import { labelSelectorAsSelector, isEmptyLabelSelector, type LabelSelector, type LabelSelectorObject } from '../../selectors';
import { ApiError, errorMessage, isConflict, isNotFound } from '../client/api-error';
import { objectKey } from '../client/informer';
import type { GroupVersionResource } from '../client/resource-path';
import { claimObjects, recheckOwner } from '../history/controller-ref';
import { isPodTerminal, podFromTemplate } from '../history/pod-state';
import { controllerRefOf, CountingExpectations, isPodReady, newControllerRef } from '../workloads';
import { CONTROLLER_REVISIONS, revisionNumber } from '../history/revisions';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { daemonPodTemplate, DAEMON_SET_REVISION_LABEL, templateGeneration } from './daemon-pods';
import { nodeShouldRunDaemonPod, pinnedToNode, rec, targetNodeName } from './node-eligibility';
import { daemonCounts, podsShouldBeOnNode, rollingUpdatePlan, unscheduledPodsWithoutNode, type FailedPodBackoff, type NodePods } from './plan';
import { APPS_V1, DAEMON_SET_KIND, DAEMON_SETS, matchesTemplate, maxRevision, snapshot } from './revisions';

export const DAEMON_SET_CONTROLLER = 'daemonset-controller';
export const DAEMON_SET_EVENT_SOURCE = 'daemonset-controller';

const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
const NODES: GroupVersionResource = { group: '', version: 'v1', resource: 'nodes' };
/** kube's BurstReplicas for the DaemonSet controller. */
const BURST_REPLICAS = 250;
/** controller.SlowStartInitialBatchSize. */
const SLOW_START_INITIAL_BATCH = 1;
const BACKOFF_INITIAL_MS = 1000;
const BACKOFF_MAX_MS = 15 * 60 * 1000;
const MERGE_PATCH = 'application/merge-patch+json';

/** flowcontrol.Backoff as the controller uses it for failed pods, on the cluster Clock. */
function failedPodBackoff(): FailedPodBackoff {
  const entries = new Map<string, { delay: number; last: number }>();
  return {
    waiting(key, now) {
      const e = entries.get(key);
      if (!e || now - e.last >= e.delay) return undefined;
      return e.last + e.delay - now;
    },
    next(key, now) {
      const e = entries.get(key);
      if (!e || now - e.last > 2 * BACKOFF_MAX_MS) entries.set(key, { delay: BACKOFF_INITIAL_MS, last: now });
      else entries.set(key, { delay: Math.min(e.delay * 2, BACKOFF_MAX_MS), last: now });
    },
  };
}

const hasNamespaceTerminatingCause = (err: unknown): boolean =>
  err instanceof ApiError && Array.isArray(err.status?.details?.causes) && (err.status!.details!.causes as { type?: string }[]).some((c) => c.type === 'NamespaceTerminating');

export function daemonSetController(ctx: ControllerContext): Controller {
  const sets = ctx.informers.for(DAEMON_SETS);
  const pods = ctx.informers.for(PODS);
  const nodes = ctx.informers.for(NODES);
  const revisions = ctx.informers.for(CONTROLLER_REVISIONS);
  const recorder = ctx.recorder(DAEMON_SET_EVENT_SOURCE);
  const expectations = new CountingExpectations(ctx.clock);
  const backoff = failedPodBackoff();
  const unsubscribe: (() => void)[] = [];

  const enqueue = (ds: KubeObject) => queue.add(objectKey(ds));
  const enqueueAfter = (ds: KubeObject, ms: number) => {
    const key = objectKey(ds);
    ctx.timers.after(ms, () => queue.add(key));
  };
  const asOwner = (ds: KubeObject): KubeObject => ({ ...ds, apiVersion: APPS_V1, kind: DAEMON_SET_KIND });
  const event = (ds: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string) => recorder.record(asOwner(ds), { type, reason, message });

  const selectorOf = (ds: KubeObject): LabelSelector => labelSelectorAsSelector(rec(ds.spec).selector as LabelSelectorObject);
  const canAdopt = (ds: KubeObject) => recheckOwner(() => ctx.client.get(DAEMON_SETS, ds.metadata?.namespace ?? '', ds.metadata?.name ?? ''), ds);

  async function daemonPods(ds: KubeObject, adopt: () => Promise<void>): Promise<KubeObject[]> {
    return claimObjects(pods.list(ds.metadata?.namespace ?? ''), {
      client: ctx.client,
      gvr: PODS,
      owner: ds,
      ownerApiVersion: APPS_V1,
      ownerKind: DAEMON_SET_KIND,
      selector: selectorOf(ds),
      canAdopt: adopt,
    });
  }

  /** getNodesToDaemonPods. */
  async function nodesToDaemonPods(ds: KubeObject, includeDeletedTerminal: boolean, adopt: () => Promise<void>): Promise<NodePods> {
    const map: NodePods = new Map();
    for (const pod of await daemonPods(ds, adopt)) {
      if (!includeDeletedTerminal && isPodTerminal(pod) && pod.metadata?.deletionTimestamp) continue;
      const node = targetNodeName(pod);
      if (node === undefined) continue;
      const list = map.get(node) ?? [];
      list.push(pod);
      map.set(node, list);
    }
    return map;
  }

  /** constructHistory: the current revision (created or renumbered as needed) and the old ones. */
  async function constructHistory(ds: KubeObject, adopt: () => Promise<void>): Promise<{ cur: KubeObject; old: KubeObject[] }> {
    const namespace = ds.metadata?.namespace ?? '';
    const histories = await claimObjects(revisions.list(namespace), {
      client: ctx.client,
      gvr: CONTROLLER_REVISIONS,
      owner: ds,
      ownerApiVersion: APPS_V1,
      ownerKind: DAEMON_SET_KIND,
      selector: selectorOf(ds),
      canAdopt: adopt,
    });
    const current: KubeObject[] = [];
    const old: KubeObject[] = [];
    for (let history of histories) {
      if (history.metadata?.labels?.[DAEMON_SET_REVISION_LABEL] === undefined) {
        const labels = { ...(history.metadata?.labels ?? {}), [DAEMON_SET_REVISION_LABEL]: history.metadata?.name ?? '' };
        history = await ctx.client.update(CONTROLLER_REVISIONS, namespace, { ...history, metadata: { ...history.metadata, labels } });
      }
      (matchesTemplate(ds, history) ? current : old).push(history);
    }
    const next = maxRevision(old) + 1;
    if (current.length === 0) return { cur: await snapshot(ctx.client, ds, next), old };
    let cur = current.reduce((keep, h) => (revisionNumber(h) >= revisionNumber(keep) ? h : keep), current[0]!);
    if (current.length > 1) {
      // dedupCurHistories: pods of the duplicates take the kept revision's hash, then the duplicates go.
      const keepHash = cur.metadata?.labels?.[DAEMON_SET_REVISION_LABEL];
      for (const pod of await daemonPods(ds, adopt)) {
        if (pod.metadata?.labels?.[DAEMON_SET_REVISION_LABEL] !== keepHash) {
          await ctx.client.patch(PODS, namespace, pod.metadata?.name ?? '', { metadata: { labels: { [DAEMON_SET_REVISION_LABEL]: keepHash } } }, MERGE_PATCH);
        }
      }
      for (const h of current) if (h !== cur) await ctx.client.delete(CONTROLLER_REVISIONS, namespace, h.metadata?.name ?? '');
    }
    if (revisionNumber(cur) < next) cur = await ctx.client.update(CONTROLLER_REVISIONS, namespace, { ...cur, revision: next });
    return { cur, old };
  }

  /** cleanupHistory: old revisions beyond revisionHistoryLimit that no pod uses, oldest first. */
  async function cleanupHistory(ds: KubeObject, old: KubeObject[], adopt: () => Promise<void>): Promise<void> {
    const limit = typeof rec(ds.spec).revisionHistoryLimit === 'number' ? (rec(ds.spec).revisionHistoryLimit as number) : 10;
    let toKill = old.length - limit;
    if (toKill <= 0) return;
    const live = new Set<string>();
    for (const list of (await nodesToDaemonPods(ds, true, adopt)).values()) {
      for (const pod of list) {
        const hash = pod.metadata?.labels?.[DAEMON_SET_REVISION_LABEL];
        if (hash) live.add(hash);
      }
    }
    for (const history of [...old].sort((a, b) => revisionNumber(a) - revisionNumber(b))) {
      if (toKill <= 0) break;
      if (live.has(history.metadata?.labels?.[DAEMON_SET_REVISION_LABEL] ?? '')) continue;
      await ctx.client.delete(CONTROLLER_REVISIONS, history.metadata?.namespace ?? '', history.metadata?.name ?? '');
      toKill--;
    }
  }

  /** syncNodes: creates pods on the nodes (slow start) and deletes the named pods, within the burst limit. */
  async function syncNodes(ds: KubeObject, podsToDelete: readonly string[], nodesNeedingPods: readonly string[], hash: string): Promise<void> {
    const key = objectKey(ds);
    const namespace = ds.metadata?.namespace ?? '';
    const createDiff = Math.min(nodesNeedingPods.length, BURST_REPLICAS);
    const deleteDiff = Math.min(podsToDelete.length, BURST_REPLICAS);
    expectations.set(key, createDiff, deleteDiff);
    const errors: string[] = [];
    const template = daemonPodTemplate(rec(ds.spec).template, templateGeneration(ds), hash);
    const controllerRef = newControllerRef(ds, APPS_V1, DAEMON_SET_KIND);

    const createOn = async (node: string): Promise<void> => {
      const podTemplate = structuredClone(template);
      const spec = rec(podTemplate.spec);
      podTemplate.spec = { ...spec, affinity: pinnedToNode(spec.affinity, node) };
      const pod = podFromTemplate(podTemplate, ds.metadata?.name ?? '', controllerRef);
      try {
        const created = await ctx.client.create(PODS, namespace, pod);
        await event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata?.name}`);
      } catch (err) {
        // A namespace being deleted refuses every pod: nothing to report.
        if (hasNamespaceTerminatingCause(err)) return;
        await event(ds, 'Warning', 'FailedCreate', `Error creating: ${errorMessage(err)}`);
        expectations.creationObserved(key);
        errors.push(errorMessage(err));
      }
    };

    let batch = Math.min(createDiff, SLOW_START_INITIAL_BATCH);
    for (let pos = 0; pos < createDiff; ) {
      const before = errors.length;
      await Promise.all(nodesNeedingPods.slice(pos, pos + batch).map(createOn));
      const skipped = createDiff - (pos + batch);
      if (errors.length > before && skipped > 0) {
        // Slow start: after a failing batch, the rest is not attempted (and not expected).
        expectations.lower(key, skipped, 0);
        break;
      }
      pos += batch;
      batch = Math.min(2 * batch, createDiff - pos);
    }

    await Promise.all(
      podsToDelete.slice(0, deleteDiff).map(async (name) => {
        try {
          await ctx.client.delete(PODS, namespace, name);
          await event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
        } catch (err) {
          expectations.deletionObserved(key);
          if (isNotFound(err)) return;
          await event(ds, 'Warning', 'FailedDelete', `Error deleting: ${errorMessage(err)}`);
          errors.push(`unable to delete pods: ${errorMessage(err)}`);
        }
      }),
    );
    if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  }

  /** manage: pods onto the nodes that need one, off the nodes that should not have one. */
  async function manage(ds: KubeObject, nodeList: readonly KubeObject[], hash: string, adopt: () => Promise<void>): Promise<void> {
    const nodePods = await nodesToDaemonPods(ds, false, adopt);
    const create: string[] = [];
    const remove: string[] = [];
    const now = ctx.clock.now();
    for (const node of nodeList) {
      const decision = podsShouldBeOnNode(node, nodePods, ds, hash, now, backoff);
      create.push(...decision.create);
      remove.push(...decision.remove);
      for (const e of decision.events) await event(ds, e.type, e.reason, e.message);
      if (decision.requeueAfterMs !== undefined) enqueueAfter(ds, decision.requeueAfterMs);
    }
    remove.push(...unscheduledPodsWithoutNode(nodeList, nodePods));
    await syncNodes(ds, remove, create, hash);
  }

  /** updateDaemonSetStatus / storeDaemonSetStatus. */
  async function updateStatus(ds: KubeObject, nodeList: readonly KubeObject[], hash: string, observe: boolean, adopt: () => Promise<void>): Promise<void> {
    const now = ctx.clock.now();
    const counts = daemonCounts(ds, nodeList, await nodesToDaemonPods(ds, false, adopt), hash, now);
    const status = rec(ds.status);
    const n = (v: unknown) => (typeof v === 'number' ? v : 0);
    const generation = ds.metadata?.generation ?? 0;
    const same = (Object.keys(counts) as (keyof typeof counts)[]).every((k) => n(status[k]) === counts[k]);
    if (!(same && n(status.observedGeneration) >= generation)) {
      const namespace = ds.metadata?.namespace ?? '';
      let target = ds;
      for (let attempt = 0; ; attempt++) {
        const current = rec(target.status);
        const next: Record<string, unknown> = {
          currentNumberScheduled: counts.currentNumberScheduled,
          numberMisscheduled: counts.numberMisscheduled,
          desiredNumberScheduled: counts.desiredNumberScheduled,
          numberReady: counts.numberReady,
        };
        const observed = observe ? generation : n(current.observedGeneration);
        if (observed) next.observedGeneration = observed;
        if (counts.updatedNumberScheduled) next.updatedNumberScheduled = counts.updatedNumberScheduled;
        if (counts.numberAvailable) next.numberAvailable = counts.numberAvailable;
        if (counts.numberUnavailable) next.numberUnavailable = counts.numberUnavailable;
        if (typeof current.collisionCount === 'number') next.collisionCount = current.collisionCount;
        if (Array.isArray(current.conditions) && current.conditions.length > 0) next.conditions = current.conditions;
        try {
          await ctx.client.update(DAEMON_SETS, namespace, { ...target, status: next }, 'status');
          break;
        } catch (err) {
          if (!isConflict(err) || attempt >= 1) throw new Error(`error storing status for daemon set ${namespace}/${ds.metadata?.name}: ${errorMessage(err)}`);
          target = await ctx.client.get(DAEMON_SETS, namespace, ds.metadata?.name ?? '');
        }
      }
    }
    const minReady = n(rec(ds.spec).minReadySeconds);
    if (minReady > 0 && counts.numberReady !== counts.numberAvailable) enqueueAfter(ds, minReady * 1000);
  }

  async function sync(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const ds = sets.get(key.slice(0, slash), key.slice(slash + 1));
    if (!ds) {
      expectations.delete(key);
      return;
    }
    const nodeList = nodes.list();
    if (isEmptyLabelSelector(rec(ds.spec).selector as LabelSelectorObject)) {
      await event(ds, 'Warning', 'SelectingAll', 'This daemon set is selecting all pods. A non-empty selector is required.');
      return;
    }
    try {
      selectorOf(ds);
    } catch (err) {
      ctx.log(`daemon set ${key} has an invalid selector: ${errorMessage(err)}`);
      return;
    }
    // Being deleted: its revisions and pods may already be going; its status cannot be trusted.
    if (ds.metadata?.deletionTimestamp) return;
    const adopt = canAdopt(ds);
    const { cur, old } = await constructHistory(ds, adopt);
    const hash = cur.metadata?.labels?.[DAEMON_SET_REVISION_LABEL] ?? '';
    if (!expectations.satisfied(key)) {
      await updateStatus(ds, nodeList, hash, false, adopt);
      return;
    }
    let failure: unknown;
    try {
      await manage(ds, nodeList, hash, adopt);
      if (expectations.satisfied(key) && rec(rec(ds.spec).updateStrategy).type === 'RollingUpdate') {
        const plan = rollingUpdatePlan(ds, nodeList, await nodesToDaemonPods(ds, false, adopt), hash, ctx.clock.now());
        await syncNodes(ds, plan.remove, plan.create, hash);
      }
      await cleanupHistory(ds, old, adopt);
    } catch (err) {
      failure = err;
    }
    try {
      await updateStatus(ds, nodeList, hash, true, adopt);
    } catch (err) {
      failure ??= err;
    }
    if (failure !== undefined) throw failure;
  }

  const queue = new WorkQueue(DAEMON_SET_CONTROLLER, ctx.activity, sync, ctx.log);

  const resolve = (namespace: string, ref: { kind: string; name: string; uid: string } | undefined): KubeObject | undefined => {
    if (!ref || ref.kind !== DAEMON_SET_KIND) return undefined;
    const ds = sets.get(namespace, ref.name);
    return ds && ds.metadata?.uid === ref.uid ? ds : undefined;
  };
  const setsSelecting = (obj: KubeObject): KubeObject[] =>
    sets.list(obj.metadata?.namespace ?? '').filter((ds) => {
      try {
        const selector = selectorOf(ds);
        return !selector.empty() && selector.matches(obj.metadata?.labels ?? {});
      } catch {
        return false;
      }
    });

  const podDeleted = (pod: KubeObject) => {
    const ds = resolve(pod.metadata?.namespace ?? '', controllerRefOf(pod));
    if (!ds) return;
    expectations.deletionObserved(objectKey(ds));
    enqueue(ds);
  };
  const podAdded = (pod: KubeObject) => {
    if (pod.metadata?.deletionTimestamp) return podDeleted(pod);
    const ref = controllerRefOf(pod);
    if (ref) {
      const ds = resolve(pod.metadata?.namespace ?? '', ref);
      if (!ds) return;
      expectations.creationObserved(objectKey(ds));
      enqueue(ds);
      return;
    }
    for (const ds of setsSelecting(pod)) enqueue(ds);
  };
  const podUpdated = (old: KubeObject, pod: KubeObject) => {
    if (old.metadata?.resourceVersion === pod.metadata?.resourceVersion) return;
    // Marked for deletion: count it as deleted now, so a replacement need not wait for the grace period.
    if (pod.metadata?.deletionTimestamp) return podDeleted(pod);
    const ns = pod.metadata?.namespace ?? '';
    const oldRef = controllerRefOf(old);
    const ref = controllerRefOf(pod);
    const refChanged = JSON.stringify(oldRef) !== JSON.stringify(ref);
    if (refChanged && oldRef) {
      const previous = resolve(ns, oldRef);
      if (previous) enqueue(previous);
    }
    if (ref) {
      const ds = resolve(ns, ref);
      if (!ds) return;
      enqueue(ds);
      const minReady = rec(ds.spec).minReadySeconds;
      if (!isPodReady(old) && isPodReady(pod) && typeof minReady === 'number' && minReady > 0) enqueueAfter(ds, (minReady + 1) * 1000);
      return;
    }
    const labelsChanged = JSON.stringify(old.metadata?.labels ?? {}) !== JSON.stringify(pod.metadata?.labels ?? {});
    if (labelsChanged || refChanged) for (const ds of setsSelecting(pod)) enqueue(ds);
  };

  const nodeAdded = (node: KubeObject) => {
    for (const ds of sets.list()) if (nodeShouldRunDaemonPod(node, ds).shouldRun) enqueue(ds);
  };
  const nodeUpdated = (old: KubeObject, node: KubeObject) => {
    // shouldIgnoreNodeUpdate: only labels and taints matter.
    if (JSON.stringify(old.metadata?.labels ?? {}) === JSON.stringify(node.metadata?.labels ?? {}) && JSON.stringify(rec(old.spec).taints ?? []) === JSON.stringify(rec(node.spec).taints ?? [])) return;
    for (const ds of sets.list()) {
      const before = nodeShouldRunDaemonPod(old, ds);
      const after = nodeShouldRunDaemonPod(node, ds);
      if (before.shouldRun !== after.shouldRun || before.shouldContinueRunning !== after.shouldContinueRunning) enqueue(ds);
    }
  };
  // Not in kube (its resync catches it): a node gone changes the desired count at once.
  const nodeDeleted = () => {
    for (const ds of sets.list()) enqueue(ds);
  };

  const historyChanged = (history: KubeObject) => {
    const ref = controllerRefOf(history);
    if (ref) {
      const ds = resolve(history.metadata?.namespace ?? '', ref);
      if (ds) enqueue(ds);
      return;
    }
    for (const ds of setsSelecting(history)) enqueue(ds);
  };

  return {
    name: DAEMON_SET_CONTROLLER,
    start() {
      void Promise.all([sets.synced, pods.synced, nodes.synced, revisions.synced]).then(() => {
        unsubscribe.push(sets.addHandler({ onAdd: enqueue, onUpdate: (_old, ds) => enqueue(ds), onDelete: enqueue }));
        unsubscribe.push(pods.addHandler({ onAdd: podAdded, onUpdate: podUpdated, onDelete: podDeleted }));
        unsubscribe.push(nodes.addHandler({ onAdd: nodeAdded, onUpdate: nodeUpdated, onDelete: nodeDeleted }));
        unsubscribe.push(revisions.addHandler({ onAdd: historyChanged, onUpdate: (_old, h) => historyChanged(h), onDelete: historyChanged }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
