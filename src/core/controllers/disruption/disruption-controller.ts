// kube-controller-manager's disruption controller: keeps each
// PodDisruptionBudget's status — expectedPods, desiredHealthy,
// currentHealthy, disruptionsAllowed, disruptedPods, observedGeneration and
// the DisruptionAllowed condition — from the pods its selector matches
// (pdb-status.ts, controller-scale.ts), so that the eviction subresource
// (and with it `kubectl drain`) can tell whether a pod may go. A sync that
// fails sets disruptionsAllowed to 0 with a SyncFailed condition (failing
// safe); evictions recorded in disruptedPods are re-checked when their
// 2-minute deadline passes; a DisruptionTarget condition left on a pod that
// was never deleted is reset to False after 2 minutes. Times are the
// cluster Clock's.

import type { KubeObject } from '../../kinds/types';
import { rfc3339 } from '../../clock';
import { errorMessage, isConflict, isNotFound } from '../client/api-error';
import { discoverResources, type DiscoveredResource } from '../client/discovery';
import type { GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { arr, ClockRequeue, keyOf, labelsOf, podPhase, rec, splitKey, structuredSelector, timeMs } from '../workloads';
import { expectedScale } from './controller-scale';
import {
  buildDisruptedPodMap,
  conditionsAreUpToDate,
  countHealthyPods,
  expectedPodCount,
  sameDisrupted,
  setStatusCondition,
  withDisruptionAllowedCondition,
  DISRUPTION_ALLOWED,
  SYNC_FAILED,
  type PdbStatus,
} from './pdb-status';

export const DISRUPTION_CONTROLLER = 'disruption-controller';
export const PDBS: GroupVersionResource = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };
const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
const RCS: GroupVersionResource = { group: '', version: 'v1', resource: 'replicationcontrollers' };
const RSS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'replicasets' };
const DEPLOYMENTS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'deployments' };
const STATEFULSETS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'statefulsets' };

/** stalePodDisruptionTimeout. */
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60 * 1000;
const TERMINATION_BY_KUBELET = 'TerminationByKubelet';

/** The budgets of a pod's namespace whose selector matches it (an empty selector matches every pod; none, no pod). */
export function budgetsForPod(pdbs: readonly KubeObject[], pod: KubeObject): KubeObject[] {
  return pdbs.filter((pdb) => {
    const selector = rec(pdb.spec).selector;
    if (selector === undefined || selector === null) return false;
    const sel = structuredSelector(selector);
    return !!sel && sel.matches(labelsOf(pod));
  });
}

export function disruptionController(ctx: ControllerContext): Controller {
  const pods = ctx.informers.for(PODS);
  const pdbs = ctx.informers.for(PDBS);
  const sources = {
    client: ctx.client,
    replicationControllers: ctx.informers.for(RCS),
    replicaSets: ctx.informers.for(RSS),
    deployments: ctx.informers.for(DEPLOYMENTS),
    statefulSets: ctx.informers.for(STATEFULSETS),
    discover: async (): Promise<readonly DiscoveredResource[]> => (await discoverResources(ctx.client)).resources,
  };
  // kube's disruption controller records its events as "controllermanager".
  const recorder = ctx.recorder('controllermanager');
  const unsubscribe: (() => void)[] = [];

  const writeStatus = (pdb: KubeObject, status: PdbStatus) =>
    ctx.client.update(PDBS, pdb.metadata?.namespace ?? '', { ...pdb, apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', status: compact(status) }, 'status');

  const trySync = async (pdb: KubeObject): Promise<void> => {
    const regarding = { ...pdb, apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' };
    const selector = structuredSelector(rec(pdb.spec).selector);
    const selected = selector ? pods.list(pdb.metadata?.namespace ?? '').filter((p) => selector.matches(labelsOf(p))) : [];
    if (selected.length === 0) void recorder.record(regarding, { type: 'Normal', reason: 'NoPods', message: 'No matching pods found' });
    let counts;
    try {
      counts = await expectedPodCount(pdb, selected, () => expectedScale(sources, selected));
    } catch (err) {
      void recorder.record(regarding, { type: 'Warning', reason: 'CalculateExpectedPodCountFailed', message: `Failed to calculate the number of expected pods: ${errorMessage(err)}` });
      throw err;
    }
    if (counts.unmanagedPods.length > 0) {
      void recorder.record(regarding, {
        type: 'Warning',
        reason: 'UnmanagedPods',
        message:
          `Pods selected by this PodDisruptionBudget (selector: ${goSelector(rec(pdb.spec).selector)}) were found ` +
          'to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. ' +
          'To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
      });
    }
    const now = ctx.clock.now();
    const { disrupted, recheckAt, notDeleted } = buildDisruptedPodMap(selected, pdb, now);
    for (const pod of notDeleted) {
      void recorder.record({ ...pod, apiVersion: 'v1', kind: 'Pod' }, {
        type: 'Warning',
        reason: 'NotDeleted',
        // kube names the budget's namespace twice here.
        message: `Pod was expected by PDB ${pdb.metadata?.namespace}/${pdb.metadata?.namespace} to be deleted but it wasn't`,
      });
    }
    const currentHealthy = countHealthyPods(selected, disrupted, now);
    await updateStatus(pdb, currentHealthy, counts.desiredHealthy, counts.expectedCount, disrupted);
    if (recheckAt !== undefined) recheck.at(keyOf(pdb), recheckAt);
  };

  const updateStatus = async (pdb: KubeObject, currentHealthy: number, desiredHealthy: number, expectedCount: number, disrupted: Record<string, string>) => {
    let disruptionsAllowed = currentHealthy - desiredHealthy;
    if (expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
    const status = rec(pdb.status);
    const generation = pdb.metadata?.generation ?? 0;
    if (
      status.currentHealthy === currentHealthy &&
      status.desiredHealthy === desiredHealthy &&
      status.expectedPods === expectedCount &&
      status.disruptionsAllowed === disruptionsAllowed &&
      sameDisrupted(status.disruptedPods, disrupted) &&
      (status.observedGeneration ?? 0) === generation &&
      conditionsAreUpToDate(pdb)
    ) {
      return;
    }
    const next = withDisruptionAllowedCondition(
      {
        currentHealthy,
        desiredHealthy,
        expectedPods: expectedCount,
        disruptionsAllowed,
        disruptedPods: disrupted,
        observedGeneration: generation,
        conditions: arr(status.conditions).map(rec),
      },
      ctx.clock.now(),
    );
    await writeStatus(pdb, next);
  };

  /** failSafe: at least disruptionsAllowed 0, with the error in a SyncFailed condition. */
  const failSafe = async (pdb: KubeObject, err: unknown) => {
    const status = rec(pdb.status);
    const conditions = setStatusCondition(
      arr(status.conditions).map(rec),
      {
        type: DISRUPTION_ALLOWED,
        status: 'False',
        reason: SYNC_FAILED,
        message: errorMessage(err),
        ...(typeof status.observedGeneration === 'number' ? { observedGeneration: status.observedGeneration } : {}),
      },
      ctx.clock.now(),
    );
    await writeStatus(pdb, { ...(status as unknown as PdbStatus), disruptionsAllowed: 0, conditions });
  };

  const sync = async (key: string): Promise<void> => {
    const { namespace, name } = splitKey(key);
    const pdb = pdbs.get(namespace, name);
    if (!pdb) return;
    try {
      await trySync(pdb);
    } catch (err) {
      if (isConflict(err)) throw err;
      ctx.log(`Failed to sync PDB ${key}: ${errorMessage(err)}`);
      await failSafe(pdb, err);
    }
  };

  const queue = new WorkQueue(DISRUPTION_CONTROLLER, ctx.activity, sync, ctx.log);
  const recheck = new ClockRequeue(ctx.timers, (key) => queue.add(key));

  // The stale DisruptionTarget cleanup.
  const stalePodSync = async (key: string): Promise<void> => {
    const { namespace, name } = splitKey(key);
    const pod = pods.get(namespace, name);
    if (!pod) return;
    const cleanAfter = staleDisruptionCleanAfter(pod);
    if (cleanAfter === undefined) return;
    if (cleanAfter > 0) {
      stale.after(key, cleanAfter);
      return;
    }
    const conditions = arr(rec(pod.status).conditions).map(rec);
    const cond = conditions.find((c) => c.type === 'DisruptionTarget');
    if (!cond || cond.status === 'False') return;
    const next = conditions.map((c) => (c === cond ? { type: 'DisruptionTarget', status: 'False', lastTransitionTime: rfc3339(ctx.clock.now()) } : c));
    try {
      await ctx.client.update(PODS, namespace, { ...pod, apiVersion: 'v1', kind: 'Pod', status: { ...rec(pod.status), conditions: next } }, 'status');
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
  };
  const staleQueue = new WorkQueue(`${DISRUPTION_CONTROLLER}-stale-pod-disruption`, ctx.activity, stalePodSync, ctx.log);
  const stale = new ClockRequeue(ctx.timers, (key) => staleQueue.add(key));

  /** nonTerminatingPodHasStaleDisruptionCondition: ms until the condition counts as stale, or undefined when it is not one. */
  const staleDisruptionCleanAfter = (pod: KubeObject): number | undefined => {
    if (pod.metadata?.deletionTimestamp) return undefined;
    const cond = arr(rec(pod.status).conditions)
      .map(rec)
      .find((c) => c.type === 'DisruptionTarget');
    const phase = podPhase(pod);
    if (!cond || cond.status !== 'True' || cond.reason === TERMINATION_BY_KUBELET || phase === 'Succeeded' || phase === 'Failed') return undefined;
    const since = timeMs(cond.lastTransitionTime);
    const elapsed = Number.isFinite(since) ? ctx.clock.now() - since : 0;
    return Math.max(0, STALE_POD_DISRUPTION_TIMEOUT_MS - elapsed);
  };

  const onPod = (pod: KubeObject, checkStale: boolean) => {
    const matching = budgetsForPod(pdbs.list(pod.metadata?.namespace ?? ''), pod);
    if (matching.length > 0) {
      if (matching.length > 1) {
        const msg = `Pod "${pod.metadata?.namespace}"/"${pod.metadata?.name}" matches multiple PodDisruptionBudgets.  Chose "${matching[0]!.metadata?.name}" arbitrarily.`;
        void recorder.record({ ...pod, apiVersion: 'v1', kind: 'Pod' }, { type: 'Warning', reason: 'MultiplePodDisruptionBudgets', message: msg });
      }
      queue.add(keyOf(matching[0]!));
    }
    if (checkStale) {
      const after = staleDisruptionCleanAfter(pod);
      if (after !== undefined) stale.after(keyOf(pod), after);
    }
  };

  return {
    name: DISRUPTION_CONTROLLER,
    start() {
      void Promise.all([pods.synced, pdbs.synced, sources.replicationControllers.synced, sources.replicaSets.synced, sources.deployments.synced, sources.statefulSets.synced]).then(() => {
        unsubscribe.push(
          pdbs.addHandler({ onAdd: (p) => queue.add(keyOf(p)), onUpdate: (_o, p) => queue.add(keyOf(p)), onDelete: (p) => queue.add(keyOf(p)) }),
          pods.addHandler({ onAdd: (p) => onPod(p, true), onUpdate: (_o, p) => onPod(p, true), onDelete: (p) => onPod(p, false) }),
        );
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      recheck.stop();
      stale.stop();
      await Promise.all([queue.stop(), staleQueue.stop()]);
    },
  };
}

/** The status as written: disruptedPods left out when empty (omitempty). */
function compact(status: PdbStatus): Record<string, unknown> {
  const out: Record<string, unknown> = { ...status };
  if (!status.disruptedPods || Object.keys(status.disruptedPods).length === 0) delete out['disruptedPods'];
  return out;
}

/** Go's %v of a *metav1.LabelSelector, as the UnmanagedPods event prints it. */
function goSelector(selector: unknown): string {
  if (!selector) return '<nil>';
  const s = rec(selector);
  const labels = rec(s.matchLabels);
  const keys = Object.keys(labels).sort();
  const ml = keys.length ? `map[${keys.map((k) => `${k}:${String(labels[k])}`).join(' ')}]` : 'map[]';
  const exprs = arr(s.matchExpressions)
    .map(rec)
    .map((e) => `{${String(e.key ?? '')} ${String(e.operator ?? '')} [${arr(e.values).map(String).join(' ')}]}`);
  return `&LabelSelector{MatchLabels:${ml},MatchExpressions:[]LabelSelectorRequirement{${exprs.join(',')}},}`;
}
