// One reconcile of a StatefulSet, as kube's defaultStatefulSetControl does
// it (1.32): find the current and update revisions; split the pods into
// replicas (ordinals in [start, start+replicas)) and condemned ones; then,
// OrderedReady, walk the replicas in order — recreate a failed or succeeded
// pod (after it is gone), create a missing one and stop, and stop at the
// first that is terminating, not Running and Ready, or not yet available —
// delete condemned pods from the highest ordinal, one at a time, and finally
// roll the update: the highest-ordinal replica at or above the partition
// that is not at the update revision is deleted (to be recreated at it),
// one at a time, each waiting for the one before to be healthy. Parallel
// does the first two steps for every pod at once. With the
// MaxUnavailableStatefulSet gate (alpha, off in 1.32) the update deletes up
// to maxUnavailable pods at a time. OnDelete leaves updates to the user.

import type { KubeObject } from '../../kinds/types';
import { labelSelectorAsSelector, type LabelSelectorObject } from '../../selectors';
import { CONTROLLER_REVISIONS, sortRevisions, type RevisionHistory } from '../history/revisions';
import type { ApiClient } from '../client/api-client';
import { isConflict, isNotFound } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import { controllerRefOf } from '../workloads';
import {
  endOrdinal,
  identityMatches,
  isCreated,
  isFailed,
  isHealthy,
  isPending,
  isRunningAndAvailable,
  isRunningAndReady,
  isSucceeded,
  isTerminating,
  minReadySeconds,
  newStatefulSetPod,
  ordinalOf,
  podInOrdinalRange,
  podRevision,
  rec,
  replicasOf,
  startOrdinal,
  storageMatches,
  withRevision,
} from './identity';
import { applyRevision, revisionsToTruncate, statefulSetRevisions } from './revisions';
import type { StatefulPodControl } from './stateful-pod-control';
import { completeRollingUpdate, countPods, statusChanged, statusObject, type SetStatus } from './status';

export const STATEFUL_SETS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'statefulsets' };

/** kube's MaxBatchSize for Parallel's slow-start batches. */
const MAX_BATCH_SIZE = 500;

export interface ControlDeps {
  readonly client: ApiClient;
  readonly podControl: StatefulPodControl;
  readonly history: RevisionHistory;
  /** The set's revisions (from the cache): owned by it or by nobody, matching its selector. */
  readonly revisionsOf: (set: KubeObject) => KubeObject[];
  readonly now: () => number;
  readonly maxUnavailableStatefulSet: boolean;
  readonly autoDeletePVC: boolean;
}

/** getStatefulSetMaxUnavailable: the rolling update's maxUnavailable as a number of pods (at least 1). */
export function maxUnavailableOf(value: unknown, replicas: number): number {
  let n = 1;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^[0-9]+%$/.test(value)) n = Math.floor((Number(value.slice(0, -1)) * replicas) / 100);
  return Math.max(1, n);
}

/** runForAll: in order, stopping at the first that says so (OrderedReady), or in slow-start batches (Parallel). */
async function runForAll(count: number, fn: (i: number) => Promise<boolean>, monotonic: boolean): Promise<boolean> {
  if (monotonic) {
    for (let i = 0; i < count; i++) if (await fn(i)) return true;
    return false;
  }
  let done = 0;
  for (let batch = Math.min(1, count); batch > 0; batch = Math.min(2 * batch, count - done, MAX_BATCH_SIZE)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, (_, k) => fn(done + k)));
    done += batch;
    const errors = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason);
    if (errors.length > 0) throw errors.length === 1 ? errors[0] : new Error(`[${errors.map((e) => (e instanceof Error ? e.message : String(e))).join(', ')}]`);
  }
  return false;
}

export class StatefulSetControl {
  constructor(private readonly d: ControlDeps) {}

  /** UpdateStatefulSet: reconciles pods, claims, revisions and status; returns the status written (or computed). */
  async update(set: KubeObject, pods: readonly KubeObject[]): Promise<SetStatus> {
    const revisions = sortRevisions(this.d.revisionsOf(set));
    const { current, update, collisionCount } = await statefulSetRevisions(set, revisions, this.d.history);
    let status: SetStatus | undefined;
    let failure: unknown;
    try {
      status = await this.reconcile(set, current, update, collisionCount, pods);
    } catch (err) {
      failure = err;
      status = (err as { status?: SetStatus }).status;
    }
    if (status) {
      try {
        await this.writeStatus(set, status);
      } catch (err) {
        failure ??= err;
      }
    }
    try {
      const stale = revisionsToTruncate(set, pods, revisions, current, update);
      for (const r of stale) await this.d.history.delete(r);
    } catch (err) {
      if (!isNotFound(err)) failure ??= err;
    }
    if (failure !== undefined) throw failure;
    return status!;
  }

  private async reconcile(set: KubeObject, currentRevision: KubeObject, updateRevision: KubeObject, collisionCount: number, pods: readonly KubeObject[]): Promise<SetStatus> {
    const currentSet = applyRevision(set, currentRevision);
    const updateSet = applyRevision(set, updateRevision);
    const minReady = minReadySeconds(set);
    const now = this.d.now();
    const status: SetStatus = {
      observedGeneration: set.metadata?.generation ?? 0,
      currentRevision: currentRevision.metadata?.name ?? '',
      updateRevision: updateRevision.metadata?.name ?? '',
      collisionCount,
      replicas: 0,
      readyReplicas: 0,
      currentReplicas: 0,
      updatedReplicas: 0,
      availableReplicas: 0,
    };
    countPods(status, pods, minReady, now);

    const start = startOrdinal(set);
    const replicaCount = replicasOf(set);
    const replicas: KubeObject[] = new Array<KubeObject>(replicaCount);
    const condemned: KubeObject[] = [];
    for (const pod of pods) {
      if (podInOrdinalRange(pod, set)) replicas[ordinalOf(pod) - start] = pod;
      else if (ordinalOf(pod) >= 0) condemned.push(pod);
    }
    for (let ord = start; ord <= endOrdinal(set); ord++) {
      if (!replicas[ord - start]) replicas[ord - start] = this.versionedPod(currentSet, updateSet, currentRevision, updateRevision, ord);
    }
    condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));
    let firstUnhealthy: KubeObject | undefined = replicas.find((p) => !isHealthy(p));
    if (!firstUnhealthy) for (let i = condemned.length - 1; i >= 0; i--) if (!isHealthy(condemned[i]!)) { firstUnhealthy = condemned[i]; break; }

    if (set.metadata?.deletionTimestamp) return status;
    const monotonic = rec(set.spec).podManagementPolicy !== 'Parallel';
    const recount = () => countPods(status, [...replicas, ...condemned], minReady, now);
    const withStatus = (err: unknown) => Object.assign(err instanceof Error ? err : new Error(String(err)), { status });

    try {
      if (await runForAll(replicas.length, (i) => this.processReplica(set, updateSet, monotonic, replicas, i), monotonic)) {
        recount();
        return status;
      }
      if (this.d.autoDeletePVC) {
        const fixClaims = async (i: number) => {
          const pod = condemned[i]!;
          if (!this.d.podControl.claimsMatchRetentionPolicy(updateSet, pod)) await this.d.podControl.updateClaimsForRetentionPolicy(updateSet, pod);
          return false;
        };
        if (await runForAll(condemned.length, fixClaims, monotonic)) {
          recount();
          return status;
        }
      }
      if (await runForAll(condemned.length, (i) => this.processCondemned(set, firstUnhealthy, monotonic, condemned, i), monotonic)) {
        recount();
        return status;
      }
    } catch (err) {
      recount();
      throw withStatus(err);
    }
    recount();

    const strategy = rec(rec(set.spec).updateStrategy);
    if (strategy.type === 'OnDelete') return status;
    const rollingUpdate = strategy.rollingUpdate === undefined || strategy.rollingUpdate === null ? undefined : rec(strategy.rollingUpdate);
    const partition = typeof rollingUpdate?.partition === 'number' ? rollingUpdate.partition : 0;
    const updateName = updateRevision.metadata?.name ?? '';
    try {
      if (this.d.maxUnavailableStatefulSet) {
        const maxUnavailable = rollingUpdate ? maxUnavailableOf(rollingUpdate.maxUnavailable, replicaCount) : 1;
        const unavailable = replicas.filter((p) => !isHealthy(p)).length;
        if (unavailable >= maxUnavailable) return status;
        let deleted = 0;
        for (let target = replicas.length - 1; target >= partition && deleted < maxUnavailable - unavailable; target--) {
          const pod = replicas[target]!;
          if (podRevision(pod) !== updateName && !isTerminating(pod)) {
            await this.deleteIgnoringGone(set, pod);
            deleted++;
            status.currentReplicas--;
          }
        }
        return status;
      }
      for (let target = replicas.length - 1; target >= partition; target--) {
        const pod = replicas[target]!;
        if (podRevision(pod) !== updateName && !isTerminating(pod)) {
          await this.deleteIgnoringGone(set, pod);
          status.currentReplicas--;
          return status;
        }
        if (!isHealthy(pod)) return status;
      }
    } catch (err) {
      throw withStatus(err);
    }
    return status;
  }

  private async deleteIgnoringGone(set: KubeObject, pod: KubeObject): Promise<void> {
    try {
      await this.d.podControl.deleteStatefulPod(set, pod);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** newVersionedStatefulSetPod: below the partition (or the current replica count without one) a pod of the current revision, else of the update revision. */
  private versionedPod(currentSet: KubeObject, updateSet: KubeObject, currentRevision: KubeObject, updateRevision: KubeObject, ordinal: number): KubeObject {
    const strategy = rec(rec(currentSet.spec).updateStrategy);
    const rollingUpdate = strategy.rollingUpdate === undefined || strategy.rollingUpdate === null ? undefined : rec(strategy.rollingUpdate);
    const start = startOrdinal(currentSet);
    // kube's condition, precedence included: RollingUpdate without parameters keeps the current replicas' count at the current revision; any partition does, whatever the strategy.
    const partition = typeof rollingUpdate?.partition === 'number' ? rollingUpdate.partition : 0;
    const currentReplicas = rec(currentSet.status).currentReplicas;
    const useCurrent =
      (strategy.type === 'RollingUpdate' && rollingUpdate === undefined && ordinal < start + (typeof currentReplicas === 'number' ? currentReplicas : 0)) ||
      (rollingUpdate !== undefined && ordinal < start + partition);
    if (useCurrent) return withRevision(newStatefulSetPod(currentSet, ordinal), currentRevision.metadata?.name ?? '');
    return withRevision(newStatefulSetPod(updateSet, ordinal), updateRevision.metadata?.name ?? '');
  }

  private async processReplica(set: KubeObject, updateSet: KubeObject, monotonic: boolean, replicas: KubeObject[], i: number): Promise<boolean> {
    const pod = replicas[i]!;
    const podControl = this.d.podControl;
    if (isFailed(pod) || isSucceeded(pod)) {
      // Deleted now; its successor is created once it is gone from the API.
      if (!pod.metadata?.deletionTimestamp) await podControl.deleteStatefulPod(set, pod);
      return true;
    }
    if (!isCreated(pod)) {
      if (this.d.autoDeletePVC && podControl.podClaimIsStale(set, pod)) return true;
      await podControl.createStatefulPod(set, pod);
      if (monotonic) return true;
    }
    if (isPending(pod)) await podControl.createMissingClaims(set, pod);
    if (isTerminating(pod) && monotonic) return true;
    if (!isRunningAndReady(pod) && monotonic) return true;
    if (!isRunningAndAvailable(pod, minReadySeconds(set), this.d.now()) && monotonic) return true;
    const retentionMatch = this.d.autoDeletePVC ? podControl.claimsMatchRetentionPolicy(updateSet, pod) : true;
    if (!isCreated(pod) || (identityMatches(set, pod) && storageMatches(set, pod) && retentionMatch)) return false;
    await podControl.updateStatefulPod(updateSet, structuredClone(pod));
    return false;
  }

  private async processCondemned(set: KubeObject, firstUnhealthy: KubeObject | undefined, monotonic: boolean, condemned: KubeObject[], i: number): Promise<boolean> {
    const pod = condemned[i]!;
    if (isTerminating(pod)) return monotonic;
    if (!isRunningAndReady(pod) && monotonic && pod !== firstUnhealthy) return true;
    if (!isRunningAndAvailable(pod, minReadySeconds(set), this.d.now()) && monotonic && pod !== firstUnhealthy) return true;
    await this.d.podControl.deleteStatefulPod(set, pod);
    return true;
  }

  /** updateStatefulSetStatus: completes a finished rolling update, and writes the status when it changed (retrying conflicts on a fresh read). */
  private async writeStatus(set: KubeObject, status: SetStatus): Promise<void> {
    completeRollingUpdate(set, status);
    if (!statusChanged(set, status)) return;
    const namespace = set.metadata?.namespace ?? '';
    let target = set;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.d.client.update(STATEFUL_SETS, namespace, { ...target, status: statusObject(target, status) }, 'status');
        return;
      } catch (err) {
        if (!isConflict(err) || attempt >= 4) throw err;
        target = await this.d.client.get(STATEFUL_SETS, namespace, set.metadata?.name ?? '');
      }
    }
  }
}

/** The revisions a set may use: in its namespace, matching its selector, owned by it or by no controller (ListControllerRevisions). */
export function ownedRevisions(set: KubeObject, all: readonly KubeObject[]): KubeObject[] {
  let selector;
  try {
    selector = labelSelectorAsSelector(rec(set.spec).selector as LabelSelectorObject);
  } catch {
    return [];
  }
  return all.filter((r) => {
    if (r.metadata?.namespace !== set.metadata?.namespace) return false;
    if (!selector.matches(r.metadata?.labels ?? {})) return false;
    const ref = controllerRefOf(r);
    return !ref || ref.uid === set.metadata?.uid;
  });
}

export { CONTROLLER_REVISIONS };
