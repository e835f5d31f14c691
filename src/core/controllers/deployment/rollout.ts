// One sync of one Deployment (pkg/controller/deployment sync.go, rolling.go,
// recreate.go, progress.go): find or create the new ReplicaSet and keep
// revisions in step, scale ReplicaSets (proportionally on a scaling event
// or while paused; by maxSurge/maxUnavailable in a rolling update; all old
// ones to zero first with Recreate), delete old ReplicaSets beyond
// revisionHistoryLimit once complete, and write the status with its
// Available and Progressing conditions. ScalingReplicaSet events say what
// was scaled. The Deployment object is this sync's own copy: as in kube,
// status changes made early (revision, collision count, conditions) are
// carried to the writes that follow.

import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import { errorMessage, isAlreadyExists, isNotFound } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import type { EventRecorder } from '../runtime/event-recorder';
import { controllerRefOf, deepCopy, hasStatusCause, int, NAMESPACE_TERMINATING_CAUSE, newControllerRef, podPhase, rec, type Obj } from '../workloads';
import {
  activeReplicaSets,
  actualReplicaCount,
  AVAILABLE,
  availableReplicaCount,
  byCreationTimestamp,
  byRevision,
  bySizeNewer,
  bySizeOlder,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  desiredReplicasAnnotation,
  FAILED_RS_CREATE_REASON,
  findActiveOrLatest,
  findNewReplicaSet,
  findOldReplicaSets,
  FOUND_NEW_RS_REASON,
  getCondition,
  hasProgressDeadline,
  hasRevisionHistoryLimit,
  isRollingUpdate,
  isSaturated,
  maxRevision,
  maxSurge,
  maxUnavailable,
  MINIMUM_REPLICAS_AVAILABLE,
  MINIMUM_REPLICAS_UNAVAILABLE,
  NEW_REPLICA_SET_REASON,
  NEW_RS_AVAILABLE_REASON,
  newCondition,
  newRSNewReplicas,
  PAUSED_DEPLOY_REASON,
  PROGRESSING,
  proportion,
  readyReplicaCount,
  removeCondition,
  REPLICA_FAILURE,
  REPLICA_SET_UPDATED_REASON,
  replicaCount,
  replicasAnnotationsNeedUpdate,
  replicaSetToDeploymentCondition,
  REVISION_ANNOTATION,
  RESUMED_DEPLOY_REASON,
  setCondition,
  setDeploymentRevision,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  specOf,
  specReplicas,
  statusOf,
  TIMED_OUT_REASON,
} from './deployment-util';
import { computeTemplateHash, equalIgnoreHash, POD_TEMPLATE_HASH_LABEL } from './template-hash';

export const DEPLOYMENTS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'deployments' };
export const REPLICASETS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'replicasets' };

export interface RolloutDeps {
  readonly client: ApiClient;
  readonly recorder: EventRecorder;
  readonly now: () => number;
  /** The ReplicaSet cache (for a create that finds its name taken). */
  readonly getReplicaSet: (namespace: string, name: string) => KubeObject | undefined;
  /** Asks for another sync at a time of the cluster clock (progress deadline). */
  readonly requeueAt: (atMs: number) => void;
  /** Tells the controller what it wrote (RecentWrites), so the next sync does not act on an older cached copy. */
  readonly recordWrite: (before: KubeObject, after: KubeObject) => void;
}

type MaybeRS = KubeObject | undefined;

export class Rollout {
  readonly d: KubeObject;
  private readonly namespace: string;
  /** ReplicaSets this sync has written, by uid: later steps see them as written rather than as listed. */
  private readonly written = new Map<string, KubeObject>();

  constructor(
    private readonly deps: RolloutDeps,
    deployment: KubeObject,
  ) {
    this.d = deepCopy(deployment);
    this.namespace = this.d.metadata?.namespace ?? '';
  }

  private get status(): Obj {
    this.d.status = rec(this.d.status);
    return this.d.status as Obj;
  }

  private event(type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    return this.deps.recorder.record(this.d, { type, reason, message });
  }

  /** UpdateStatus of this sync's copy; the copy takes the new resourceVersion so later writes do not conflict with our own. */
  private async updateStatus(): Promise<void> {
    // DeploymentStatus' counts are omitempty: Go sends no zeros.
    const status = rec(this.d.status);
    for (const f of ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas']) if (status[f] === 0) delete status[f];
    const before = { ...this.d, metadata: { ...this.d.metadata } };
    const updated = await this.deps.client.update(DEPLOYMENTS, this.namespace, this.d, 'status');
    this.deps.recordWrite(before, updated);
    this.d.metadata = { ...this.d.metadata, resourceVersion: updated.metadata?.resourceVersion };
  }

  // ---- the new ReplicaSet and revisions ---------------------------------

  /** getAllReplicaSetsAndSyncRevision. */
  async allReplicaSetsAndSyncRevision(listed: KubeObject[], createIfNotExisted: boolean): Promise<{ newRS: MaybeRS; oldRSs: KubeObject[] }> {
    const rsList = listed.map((rs) => this.written.get(rs.metadata?.uid ?? '') ?? rs);
    const listedUids = new Set(listed.map((rs) => rs.metadata?.uid ?? ''));
    for (const [uid, rs] of this.written) if (!listedUids.has(uid)) rsList.push(rs);
    const oldRSs = findOldReplicaSets(this.d, rsList);
    const newRS = await this.newReplicaSet(rsList, oldRSs, createIfNotExisted);
    return { newRS, oldRSs };
  }

  /** Updates a ReplicaSet and remembers what it now is. */
  private async updateReplicaSet(rs: KubeObject): Promise<KubeObject> {
    const updated = await this.deps.client.update(REPLICASETS, this.namespace, rs);
    this.deps.recordWrite(rs, updated);
    this.written.set(updated.metadata?.uid ?? '', updated);
    return updated;
  }

  /** getNewReplicaSet: the existing new ReplicaSet brought up to date, or a created one. */
  private async newReplicaSet(rsList: KubeObject[], oldRSs: KubeObject[], createIfNotExisted: boolean): Promise<MaybeRS> {
    const existing = findNewReplicaSet(this.d, rsList);
    const newRevision = String(maxRevision(oldRSs) + 1);
    const now = this.deps.now();
    if (existing) {
      const rsCopy = deepCopy(existing);
      const annotationsUpdated = setNewReplicaSetAnnotations(this.d, rsCopy, newRevision, true);
      const minReadySecondsNeedsUpdate = int(specOf(rsCopy).minReadySeconds) !== int(specOf(this.d).minReadySeconds);
      if (annotationsUpdated || minReadySecondsNeedsUpdate) {
        rsCopy.spec = { ...specOf(rsCopy), minReadySeconds: int(specOf(this.d).minReadySeconds) };
        return this.updateReplicaSet(rsCopy);
      }
      let needsUpdate = setDeploymentRevision(this.d, rsCopy.metadata?.annotations?.[REVISION_ANNOTATION] ?? '');
      if (hasProgressDeadline(this.d) && !getCondition(this.status, PROGRESSING)) {
        setCondition(this.status, newCondition(PROGRESSING, 'True', FOUND_NEW_RS_REASON, `Found new replica set "${rsCopy.metadata?.name}"`, now));
        needsUpdate = true;
      }
      if (needsUpdate) await this.updateStatus();
      return rsCopy;
    }
    if (!createIfNotExisted) return undefined;

    const collisionCount = typeof this.status.collisionCount === 'number' ? this.status.collisionCount : undefined;
    const hash = computeTemplateHash(specOf(this.d).template, collisionCount);
    const template = deepCopy(rec(specOf(this.d).template));
    const templateMeta = rec(template.metadata);
    templateMeta.labels = { ...rec(templateMeta.labels), [POD_TEMPLATE_HASH_LABEL]: hash };
    template.metadata = templateMeta;
    const selector = deepCopy(rec(specOf(this.d).selector));
    selector.matchLabels = { ...rec(selector.matchLabels), [POD_TEMPLATE_HASH_LABEL]: hash };
    const name = `${this.d.metadata?.name}-${hash}`;
    const newRS: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name,
        namespace: this.namespace,
        ownerReferences: [newControllerRef(this.d, 'apps/v1', 'Deployment')],
        labels: { ...(templateMeta.labels as Record<string, string>) },
      },
      spec: { replicas: 0, minReadySeconds: int(specOf(this.d).minReadySeconds), selector, template },
    };
    const newReplicasCount = newRSNewReplicas(this.d, [...oldRSs, newRS], newRS);
    (newRS.spec as Obj).replicas = newReplicasCount;
    setNewReplicaSetAnnotations(this.d, newRS, newRevision, false);

    let created: KubeObject;
    let alreadyExists = false;
    try {
      created = await this.deps.client.create(REPLICASETS, this.namespace, newRS);
      this.written.set(created.metadata?.uid ?? '', created);
    } catch (err) {
      if (isAlreadyExists(err)) {
        alreadyExists = true;
        const rs = this.deps.getReplicaSet(this.namespace, name) ?? (await this.deps.client.get(REPLICASETS, this.namespace, name));
        const ref = controllerRefOf(rs);
        if (ref && ref.uid === this.d.metadata?.uid && equalIgnoreHash(specOf(this.d).template, specOf(rs).template)) {
          created = rs;
        } else {
          // A hash collision: another template has this name. Count it, so the next hash differs.
          this.status.collisionCount = (collisionCount ?? 0) + 1;
          await this.updateStatus().catch(() => undefined);
          throw err;
        }
      } else if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) {
        throw err;
      } else {
        const msg = `Failed to create new replica set "${name}": ${errorMessage(err)}`;
        if (hasProgressDeadline(this.d)) {
          setCondition(this.status, newCondition(PROGRESSING, 'False', FAILED_RS_CREATE_REASON, msg, now));
          await this.updateStatus().catch(() => undefined);
        }
        await this.event('Warning', FAILED_RS_CREATE_REASON, msg);
        throw err;
      }
    }
    if (!alreadyExists && newReplicasCount > 0) {
      await this.event('Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata?.name} to ${newReplicasCount}`);
    }
    let needsUpdate = setDeploymentRevision(this.d, newRevision);
    if (!alreadyExists && hasProgressDeadline(this.d)) {
      setCondition(this.status, newCondition(PROGRESSING, 'True', NEW_REPLICA_SET_REASON, `Created new replica set "${created.metadata?.name}"`, now));
      needsUpdate = true;
    }
    if (needsUpdate) await this.updateStatus();
    return created;
  }

  // ---- scaling -----------------------------------------------------------

  /** scaleReplicaSetAndRecordEvent: the ReplicaSet as it is after the call. */
  private async scaleAndRecord(rs: KubeObject, newScale: number): Promise<{ scaled: boolean; rs: KubeObject }> {
    if (specReplicas(rs) === newScale) return { scaled: false, rs };
    const operation = specReplicas(rs) > newScale ? 'down' : 'up';
    return this.scaleReplicaSet(rs, newScale, operation);
  }

  /** scaleReplicaSet: writes the size and the replica annotations; the event when the size changed. */
  private async scaleReplicaSet(rs: KubeObject, newScale: number, operation: string): Promise<{ scaled: boolean; rs: KubeObject }> {
    const sizeNeedsUpdate = specReplicas(rs) !== newScale;
    const desired = specReplicas(this.d);
    const max = desired + maxSurge(this.d);
    if (!sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, desired, max)) return { scaled: false, rs };
    const oldScale = specReplicas(rs);
    const copy = deepCopy(rs);
    copy.spec = { ...specOf(copy), replicas: newScale };
    setReplicasAnnotations(copy, desired, max);
    const updated = await this.updateReplicaSet(copy);
    if (sizeNeedsUpdate) {
      await this.event('Normal', 'ScalingReplicaSet', `Scaled ${operation} replica set ${updated.metadata?.name} to ${newScale} from ${oldScale}`);
    }
    return { scaled: sizeNeedsUpdate, rs: updated };
  }

  /** scale: a scaling event (or a paused Deployment) spreads the change over the active ReplicaSets. */
  async scale(newRS: MaybeRS, oldRSs: KubeObject[]): Promise<void> {
    const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
    if (activeOrLatest) {
      if (specReplicas(activeOrLatest) === specReplicas(this.d)) return;
      await this.scaleAndRecord(activeOrLatest, specReplicas(this.d));
      return;
    }
    if (isSaturated(this.d, newRS)) {
      for (const old of activeReplicaSets(oldRSs)) await this.scaleAndRecord(old, 0);
      return;
    }
    if (!isRollingUpdate(this.d)) return;
    const all = activeReplicaSets([...oldRSs, newRS]);
    const allowedSize = specReplicas(this.d) > 0 ? specReplicas(this.d) + maxSurge(this.d) : 0;
    const toAdd = allowedSize - replicaCount(all);
    let operation = '';
    if (toAdd > 0) {
      all.sort(bySizeNewer);
      operation = 'up';
    } else if (toAdd < 0) {
      all.sort(bySizeOlder);
      operation = 'down';
    }
    let added = 0;
    const sizes = new Map<string, number>();
    for (const rs of all) {
      const name = rs.metadata?.name ?? '';
      if (toAdd !== 0) {
        const p = proportion(rs, this.d, toAdd, added);
        sizes.set(name, specReplicas(rs) + p);
        added += p;
      } else sizes.set(name, specReplicas(rs));
    }
    for (let i = 0; i < all.length; i++) {
      const rs = all[i]!;
      const name = rs.metadata?.name ?? '';
      // Leftovers go to the largest ReplicaSet.
      if (i === 0 && toAdd !== 0) sizes.set(name, Math.max(0, sizes.get(name)! + toAdd - added));
      await this.scaleReplicaSet(rs, sizes.get(name)!, operation);
    }
  }

  /** isScalingEvent: an active ReplicaSet was sized for another replica count. */
  async isScalingEvent(rsList: KubeObject[]): Promise<boolean> {
    const { newRS, oldRSs } = await this.allReplicaSetsAndSyncRevision(rsList, false);
    for (const rs of activeReplicaSets([...oldRSs, newRS])) {
      const desired = desiredReplicasAnnotation(rs);
      if (desired === undefined) continue;
      if (desired !== specReplicas(this.d)) return true;
    }
    return false;
  }

  /** cleanupDeployment: deletes the oldest old ReplicaSets beyond revisionHistoryLimit (only empty, settled ones). */
  async cleanup(oldRSs: KubeObject[]): Promise<void> {
    if (!hasRevisionHistoryLimit(this.d)) return;
    const cleanable = oldRSs.filter((rs) => !rs.metadata?.deletionTimestamp);
    const diff = cleanable.length - int(specOf(this.d).revisionHistoryLimit);
    if (diff <= 0) return;
    cleanable.sort(byRevision);
    for (let i = 0; i < diff; i++) {
      const rs = cleanable[i]!;
      if (int(statusOf(rs).replicas) !== 0 || specReplicas(rs) !== 0 || int(rs.metadata?.generation) > int(statusOf(rs).observedGeneration) || rs.metadata?.deletionTimestamp) continue;
      try {
        await this.deps.client.delete(REPLICASETS, this.namespace, rs.metadata?.name ?? '');
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }

  // ---- status ------------------------------------------------------------

  /** calculateStatus: counts from the ReplicaSets, and the Available condition. */
  calculateStatus(allRSs: MaybeRS[], newRS: MaybeRS): Obj {
    const available = availableReplicaCount(allRSs);
    const total = replicaCount(allRSs);
    const status: Obj = {
      observedGeneration: int(this.d.metadata?.generation),
      replicas: actualReplicaCount(allRSs),
      updatedReplicas: actualReplicaCount([newRS]),
      readyReplicas: readyReplicaCount(allRSs),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, total - available),
    };
    const conditions = rec(this.d.status).conditions;
    if (Array.isArray(conditions)) status.conditions = conditions.map((c) => ({ ...rec(c) }));
    if (typeof this.status.collisionCount === 'number') status.collisionCount = this.status.collisionCount;
    const now = this.deps.now();
    if (available >= specReplicas(this.d) - maxUnavailable(this.d)) {
      setCondition(status, newCondition(AVAILABLE, 'True', MINIMUM_REPLICAS_AVAILABLE, 'Deployment has minimum availability.', now));
    } else {
      setCondition(status, newCondition(AVAILABLE, 'False', MINIMUM_REPLICAS_UNAVAILABLE, 'Deployment does not have minimum availability.', now));
    }
    return status;
  }

  private statusUnchanged(next: Obj): boolean {
    return JSON.stringify(normalizeStatus(rec(this.d.status))) === JSON.stringify(normalizeStatus(next));
  }

  /** syncDeploymentStatus (scaling, paused, being deleted): counts only. */
  async syncDeploymentStatus(allRSs: MaybeRS[], newRS: MaybeRS): Promise<void> {
    const next = this.calculateStatus(allRSs, newRS);
    if (this.statusUnchanged(next)) return;
    this.d.status = next;
    await this.updateStatus();
  }

  /** syncRolloutStatus: counts and the Progressing condition (complete, progressing or timed out). */
  async syncRolloutStatus(allRSs: MaybeRS[], newRS: MaybeRS): Promise<void> {
    const now = this.deps.now();
    const next = this.calculateStatus(allRSs, newRS);
    if (!hasProgressDeadline(this.d)) removeCondition(next, PROGRESSING);
    const current = getCondition(rec(this.d.status), PROGRESSING);
    const isComplete = int(next.replicas) === int(next.updatedReplicas) && current?.reason === NEW_RS_AVAILABLE_REASON;
    if (hasProgressDeadline(this.d) && !isComplete) {
      const subject = newRS ? `ReplicaSet "${newRS.metadata?.name}"` : `Deployment "${this.d.metadata?.name}"`;
      if (deploymentComplete(this.d, next)) {
        setCondition(next, newCondition(PROGRESSING, 'True', NEW_RS_AVAILABLE_REASON, `${subject} has successfully progressed.`, now));
      } else if (deploymentProgressing(this.d, next)) {
        const condition = newCondition(PROGRESSING, 'True', REPLICA_SET_UPDATED_REASON, `${subject} is progressing.`, now);
        // Progress moves lastUpdateTime; the transition time stays while the status stays True.
        if (current) {
          if (current.status === 'True') condition.lastTransitionTime = current.lastTransitionTime;
          removeCondition(next, PROGRESSING);
        }
        setCondition(next, condition);
      } else if (deploymentTimedOut(this.d, next, now)) {
        setCondition(next, newCondition(PROGRESSING, 'False', TIMED_OUT_REASON, `${subject} has timed out progressing.`, now));
      }
    }
    const failures = replicaFailures(allRSs, newRS);
    if (failures.length > 0) setCondition(next, failures[0]!);
    else removeCondition(next, REPLICA_FAILURE);
    if (this.statusUnchanged(next)) {
      this.requeueStuck(next);
      return;
    }
    this.d.status = next;
    await this.updateStatus();
  }

  /** requeueStuckDeployment: look again when the progress deadline would pass. */
  private requeueStuck(next: Obj): void {
    const current = getCondition(rec(this.d.status), PROGRESSING);
    if (!hasProgressDeadline(this.d) || !current) return;
    if (deploymentComplete(this.d, next) || current.reason === TIMED_OUT_REASON) return;
    const from = Date.parse(String(current.lastUpdateTime ?? ''));
    if (!Number.isFinite(from)) return;
    const deadline = from + int(specOf(this.d).progressDeadlineSeconds) * 1000;
    const after = deadline - this.deps.now();
    // kube waits a second past the deadline; one closer than a second is checked just after it passes.
    this.deps.requeueAt(after < 1000 ? deadline + 1 : deadline + 1000);
  }

  /** checkPausedConditions: Progressing Unknown DeploymentPaused / DeploymentResumed. */
  async checkPausedConditions(): Promise<void> {
    if (!hasProgressDeadline(this.d)) return;
    const cond = getCondition(this.status, PROGRESSING);
    if (cond?.reason === TIMED_OUT_REASON) return;
    const pausedCondExists = cond?.reason === PAUSED_DEPLOY_REASON;
    const paused = specOf(this.d).paused === true;
    const now = this.deps.now();
    if (paused && !pausedCondExists) setCondition(this.status, newCondition(PROGRESSING, 'Unknown', PAUSED_DEPLOY_REASON, 'Deployment is paused', now));
    else if (!paused && pausedCondExists) setCondition(this.status, newCondition(PROGRESSING, 'Unknown', RESUMED_DEPLOY_REASON, 'Deployment is resumed', now));
    else return;
    await this.updateStatus();
  }

  // ---- strategies --------------------------------------------------------

  /** sync: scaling events and paused Deployments. */
  async sync(rsList: KubeObject[]): Promise<void> {
    const { newRS, oldRSs } = await this.allReplicaSetsAndSyncRevision(rsList, false);
    await this.scale(newRS, oldRSs);
    if (specOf(this.d).paused === true) await this.cleanup(oldRSs);
    await this.syncDeploymentStatus([...oldRSs, newRS], newRS);
  }

  /** syncStatusOnly: a Deployment being deleted. */
  async syncStatusOnly(rsList: KubeObject[]): Promise<void> {
    const { newRS, oldRSs } = await this.allReplicaSetsAndSyncRevision(rsList, false);
    await this.syncDeploymentStatus([...oldRSs, newRS], newRS);
  }

  /** rolloutRolling. */
  async rolloutRolling(rsList: KubeObject[]): Promise<void> {
    const { newRS, oldRSs } = await this.allReplicaSetsAndSyncRevision(rsList, true);
    const newOne = newRS!;
    const all: MaybeRS[] = [...oldRSs, newOne];
    if (await this.reconcileNewReplicaSet(all, newOne)) return this.syncRolloutStatus(all, newOne);
    if (await this.reconcileOldReplicaSets(all, activeReplicaSets(oldRSs), newOne)) return this.syncRolloutStatus(all, newOne);
    if (deploymentComplete(this.d, rec(this.d.status))) await this.cleanup(oldRSs);
    return this.syncRolloutStatus(all, newOne);
  }

  /** reconcileNewReplicaSet: scale the new ReplicaSet up as far as maxSurge allows (or down to spec.replicas). */
  private async reconcileNewReplicaSet(all: MaybeRS[], newRS: KubeObject): Promise<boolean> {
    if (specReplicas(newRS) === specReplicas(this.d)) return false;
    if (specReplicas(newRS) > specReplicas(this.d)) return (await this.scaleAndRecord(newRS, specReplicas(this.d))).scaled;
    return (await this.scaleAndRecord(newRS, newRSNewReplicas(this.d, all, newRS))).scaled;
  }

  /** reconcileOldReplicaSets: scale old ReplicaSets down as far as maxUnavailable allows, unhealthy replicas first. */
  private async reconcileOldReplicaSets(all: MaybeRS[], oldRSs: KubeObject[], newRS: KubeObject): Promise<boolean> {
    if (replicaCount(oldRSs) === 0) return false;
    const allPods = replicaCount(all);
    const minAvailable = specReplicas(this.d) - maxUnavailable(this.d);
    const newRSUnavailable = specReplicas(newRS) - int(statusOf(newRS).availableReplicas);
    const maxScaledDown = allPods - minAvailable - newRSUnavailable;
    if (maxScaledDown <= 0) return false;
    const { oldRSs: cleaned, count: cleanupCount } = await this.cleanupUnhealthyReplicas(oldRSs, maxScaledDown);
    const scaledDown = await this.scaleDownOldReplicaSetsForRollingUpdate([...cleaned, newRS], cleaned);
    return cleanupCount + scaledDown > 0;
  }

  /** cleanupUnhealthyReplicas: drop old replicas that are not available, oldest ReplicaSets first. */
  private async cleanupUnhealthyReplicas(oldRSs: KubeObject[], maxCleanup: number): Promise<{ oldRSs: KubeObject[]; count: number }> {
    const sorted = [...oldRSs].sort(byCreationTimestamp);
    let total = 0;
    for (let i = 0; i < sorted.length; i++) {
      if (total >= maxCleanup) break;
      const rs = sorted[i]!;
      if (specReplicas(rs) === 0) continue;
      const available = int(statusOf(rs).availableReplicas);
      if (specReplicas(rs) === available) continue;
      const count = Math.min(maxCleanup - total, specReplicas(rs) - available);
      const newCount = specReplicas(rs) - count;
      if (newCount > specReplicas(rs)) throw new Error(`when cleaning up unhealthy replicas, got invalid request to scale down ${this.namespace}/${rs.metadata?.name} ${specReplicas(rs)} -> ${newCount}`);
      const result = await this.scaleAndRecord(rs, newCount);
      total += count;
      sorted[i] = result.rs;
    }
    return { oldRSs: sorted, count: total };
  }

  /** scaleDownOldReplicaSetsForRollingUpdate: scale old ReplicaSets down while availability stays above minAvailable. */
  private async scaleDownOldReplicaSetsForRollingUpdate(all: MaybeRS[], oldRSs: KubeObject[]): Promise<number> {
    const minAvailable = specReplicas(this.d) - maxUnavailable(this.d);
    const available = availableReplicaCount(all);
    if (available <= minAvailable) return 0;
    const sorted = [...oldRSs].sort(byCreationTimestamp);
    const toScaleDown = available - minAvailable;
    let total = 0;
    for (const rs of sorted) {
      if (total >= toScaleDown) break;
      if (specReplicas(rs) === 0) continue;
      const count = Math.min(specReplicas(rs), toScaleDown - total);
      const newCount = specReplicas(rs) - count;
      if (newCount > specReplicas(rs)) throw new Error(`when scaling down old RS, got invalid request to scale down ${this.namespace}/${rs.metadata?.name} ${specReplicas(rs)} -> ${newCount}`);
      await this.scaleAndRecord(rs, newCount);
      total += count;
    }
    return total;
  }

  /** rolloutRecreate: old ReplicaSets to zero, wait until their pods are gone, then the new one to full size. */
  async rolloutRecreate(rsList: KubeObject[], podsByReplicaSet: Map<string, KubeObject[]>): Promise<void> {
    let { newRS, oldRSs } = await this.allReplicaSetsAndSyncRevision(rsList, false);
    let all: MaybeRS[] = [...oldRSs, newRS];
    let scaledDown = false;
    for (const rs of activeReplicaSets(oldRSs)) {
      if ((await this.scaleAndRecord(rs, 0)).scaled) scaledDown = true;
    }
    if (scaledDown) return this.syncRolloutStatus(all, newRS);
    if (oldPodsRunning(newRS, oldRSs, podsByReplicaSet)) return this.syncRolloutStatus(all, newRS);
    if (!newRS) {
      ({ newRS, oldRSs } = await this.allReplicaSetsAndSyncRevision(rsList, true));
      all = [...oldRSs, newRS];
    }
    await this.scaleAndRecord(newRS!, specReplicas(this.d));
    if (deploymentComplete(this.d, rec(this.d.status))) await this.cleanup(oldRSs);
    return this.syncRolloutStatus(all, newRS);
  }
}

/** oldPodsRunning: old ReplicaSets still report replicas, or pods of theirs have not finished. */
export function oldPodsRunning(newRS: MaybeRS, oldRSs: KubeObject[], podsByReplicaSet: Map<string, KubeObject[]>): boolean {
  if (actualReplicaCount(oldRSs) > 0) return true;
  for (const [uid, pods] of podsByReplicaSet) {
    if (newRS && newRS.metadata?.uid === uid) continue;
    for (const pod of pods) {
      const phase = podPhase(pod);
      if (phase === 'Failed' || phase === 'Succeeded') continue;
      return true;
    }
  }
  return false;
}

/** getReplicaFailures: the new ReplicaSet's ReplicaFailure conditions, else any old one's. */
export function replicaFailures(allRSs: MaybeRS[], newRS: MaybeRS): Obj[] {
  const of = (rs: KubeObject) =>
    ((rec(rs.status).conditions as unknown[] | undefined) ?? [])
      .map(rec)
      .filter((c) => c.type === REPLICA_FAILURE)
      .map(replicaSetToDeploymentCondition);
  if (newRS) {
    const own = of(newRS);
    if (own.length > 0) return own;
  }
  return allRSs.filter((rs): rs is KubeObject => !!rs).flatMap(of);
}

/** A status for comparison: without empty conditions, keys in a fixed order. */
function normalizeStatus(status: Obj): Obj {
  const out: Obj = {};
  for (const key of Object.keys(status).sort()) {
    const v = status[key];
    if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    if (key === 'conditions') {
      out[key] = (v as unknown[]).map((c) => {
        const r = rec(c);
        return Object.fromEntries(Object.keys(r).sort().map((k) => [k, r[k]]));
      });
    } else if (typeof v === 'number' && v === 0 && key !== 'observedGeneration') continue;
    else out[key] = v;
  }
  return out;
}
