// The arithmetic and bookkeeping of the Deployment controller
// (pkg/controller/deployment/util/deployment_util.go, 1.32), as pure
// functions over JSON objects: revisions and the annotations copied to
// ReplicaSets, maxSurge/maxUnavailable (percentages rounded as kube: surge
// up, unavailable down, never both 0), how many replicas a new ReplicaSet
// may get, proportional scaling, the orderings of ReplicaSets, the
// Deployment's conditions and when a rollout is complete, progressing or
// timed out.

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { arr, int, rec, timeMs, type Obj } from '../workloads';
import { equalIgnoreHash } from './template-hash';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
/** The extensions/v1beta1 rollback annotation (never copied). */
export const DEPRECATED_ROLLBACK_TO = 'deprecated.deployment.rollback.to';
export const LAST_APPLIED_CONFIG_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** Annotations of a Deployment that are not copied to its ReplicaSets. */
const ANNOTATIONS_TO_SKIP = new Set([LAST_APPLIED_CONFIG_ANNOTATION, REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION, DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, DEPRECATED_ROLLBACK_TO]);

/** maxRevHistoryLengthInChars. */
export const MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000;

// Condition types and reasons.
export const AVAILABLE = 'Available';
export const PROGRESSING = 'Progressing';
export const REPLICA_FAILURE = 'ReplicaFailure';
export const REPLICA_SET_UPDATED_REASON = 'ReplicaSetUpdated';
export const FAILED_RS_CREATE_REASON = 'ReplicaSetCreateError';
export const NEW_REPLICA_SET_REASON = 'NewReplicaSetCreated';
export const FOUND_NEW_RS_REASON = 'FoundNewReplicaSet';
export const NEW_RS_AVAILABLE_REASON = 'NewReplicaSetAvailable';
export const TIMED_OUT_REASON = 'ProgressDeadlineExceeded';
export const PAUSED_DEPLOY_REASON = 'DeploymentPaused';
export const RESUMED_DEPLOY_REASON = 'DeploymentResumed';
export const MINIMUM_REPLICAS_AVAILABLE = 'MinimumReplicasAvailable';
export const MINIMUM_REPLICAS_UNAVAILABLE = 'MinimumReplicasUnavailable';

const MAX_INT32 = 2147483647;

// ---- spec readers -------------------------------------------------------

export const specOf = (o: KubeObject): Obj => rec(o.spec);
export const statusOf = (o: KubeObject): Obj => rec(o.status);
/** spec.replicas (the API defaults it to 1). */
export const specReplicas = (o: KubeObject): number => int(specOf(o).replicas);
export const isRollingUpdate = (d: KubeObject): boolean => rec(specOf(d).strategy).type === 'RollingUpdate';
export const isRecreate = (d: KubeObject): boolean => rec(specOf(d).strategy).type === 'Recreate';

/** HasProgressDeadline: set and not MaxInt32. */
export function hasProgressDeadline(d: KubeObject): boolean {
  const s = specOf(d).progressDeadlineSeconds;
  return typeof s === 'number' && s !== MAX_INT32;
}

/** HasRevisionHistoryLimit: set and not MaxInt32. */
export function hasRevisionHistoryLimit(d: KubeObject): boolean {
  const l = specOf(d).revisionHistoryLimit;
  return typeof l === 'number' && l !== MAX_INT32;
}

// ---- maxSurge / maxUnavailable -----------------------------------------

/** intstr.GetScaledValueFromIntOrPercent: an int as is, "N%" of total rounded up or down. */
export function scaledValue(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const m = /^(\d+)%$/.exec(value);
    if (!m) throw new Error(`invalid value for IntOrString: invalid value "${value}"`);
    const exact = (Number(m[1]) * total) / 100;
    return roundUp ? Math.ceil(exact) : Math.floor(exact);
  }
  return 0;
}

/** ResolveFenceposts: surge rounded up, unavailable down; both 0 makes unavailable 1. */
export function resolveFenceposts(maxSurge: unknown, maxUnavailable: unknown, desired: number): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

function rollingParams(d: KubeObject): Obj {
  return rec(rec(specOf(d).strategy).rollingUpdate);
}

/** MaxSurge (0 unless RollingUpdate). */
export function maxSurge(d: KubeObject): number {
  if (!isRollingUpdate(d)) return 0;
  const p = rollingParams(d);
  return resolveFenceposts(p.maxSurge, p.maxUnavailable, specReplicas(d)).surge;
}

/** MaxUnavailable (0 unless RollingUpdate or with no replicas; at most spec.replicas). */
export function maxUnavailable(d: KubeObject): number {
  if (!isRollingUpdate(d) || specReplicas(d) === 0) return 0;
  const p = rollingParams(d);
  const { unavailable } = resolveFenceposts(p.maxSurge, p.maxUnavailable, specReplicas(d));
  return Math.min(unavailable, specReplicas(d));
}

// ---- revisions and annotations ------------------------------------------

/** Revision: the revision annotation as a number (0 when absent, NaN when malformed). */
export function revisionOf(obj: KubeObject | undefined): number {
  const v = obj?.metadata?.annotations?.[REVISION_ANNOTATION];
  if (v === undefined) return 0;
  return /^\d+$/.test(v) ? Number(v) : NaN;
}

/** MaxRevision among ReplicaSets (malformed revisions skipped). */
export function maxRevision(rss: readonly KubeObject[]): number {
  let max = 0;
  for (const rs of rss) {
    const v = revisionOf(rs);
    if (Number.isFinite(v) && v > max) max = v;
  }
  return max;
}

function annotationsOf(obj: KubeObject): Record<string, string> {
  obj.metadata = obj.metadata ?? {};
  obj.metadata.annotations = obj.metadata.annotations ?? {};
  return obj.metadata.annotations;
}

/** copyDeploymentAnnotationsToReplicaSet: adds or changes (never removes) the Deployment's annotations on the ReplicaSet. */
export function copyDeploymentAnnotationsToReplicaSet(d: KubeObject, rs: KubeObject): boolean {
  let changed = false;
  const target = annotationsOf(rs);
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) {
    if (ANNOTATIONS_TO_SKIP.has(k) || target[k] === v) continue;
    target[k] = v;
    changed = true;
  }
  return changed;
}

/** SetReplicasAnnotations: desired-replicas and max-replicas; whether they changed. */
export function setReplicasAnnotations(rs: KubeObject, desired: number, max: number): boolean {
  const a = annotationsOf(rs);
  let changed = false;
  if (a[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) {
    a[DESIRED_REPLICAS_ANNOTATION] = String(desired);
    changed = true;
  }
  if (a[MAX_REPLICAS_ANNOTATION] !== String(max)) {
    a[MAX_REPLICAS_ANNOTATION] = String(max);
    changed = true;
  }
  return changed;
}

/** ReplicasAnnotationsNeedUpdate. */
export function replicasAnnotationsNeedUpdate(rs: KubeObject, desired: number, max: number): boolean {
  const a = rs.metadata?.annotations;
  if (!a) return true;
  return a[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || a[MAX_REPLICAS_ANNOTATION] !== String(max);
}

function intAnnotation(rs: KubeObject | undefined, key: string): number | undefined {
  const v = rs?.metadata?.annotations?.[key];
  return v !== undefined && /^-?\d+$/.test(v) ? Number(v) : undefined;
}

export const desiredReplicasAnnotation = (rs: KubeObject | undefined) => intAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);
export const maxReplicasAnnotation = (rs: KubeObject | undefined) => intAnnotation(rs, MAX_REPLICAS_ANNOTATION);

/**
 * SetNewReplicaSetAnnotations: the Deployment's annotations, the new
 * revision (the old one moved into revision-history, kept under the
 * character limit) and, for a ReplicaSet being created, the replica
 * annotations. Whether anything changed.
 */
export function setNewReplicaSetAnnotations(d: KubeObject, rs: KubeObject, newRevision: string, exists: boolean, historyLimitChars = MAX_REV_HISTORY_LENGTH_IN_CHARS): boolean {
  let changed = copyDeploymentAnnotationsToReplicaSet(d, rs);
  const a = annotationsOf(rs);
  const oldRevision = a[REVISION_ANNOTATION] ?? '';
  let oldRevisionInt = 0;
  if (oldRevision !== '') {
    if (!/^\d+$/.test(oldRevision)) return false;
    oldRevisionInt = Number(oldRevision);
  }
  if (!/^\d+$/.test(newRevision)) return false;
  const newRevisionInt = Number(newRevision);
  if (oldRevisionInt < newRevisionInt) {
    a[REVISION_ANNOTATION] = newRevision;
    changed = true;
  }
  if (oldRevision !== '' && oldRevisionInt < newRevisionInt) {
    const history = a[REVISION_HISTORY_ANNOTATION] ?? '';
    let oldRevisions = history.split(',');
    if (oldRevisions[0]!.length === 0) a[REVISION_HISTORY_ANNOTATION] = oldRevision;
    else {
      let total = history.length + oldRevision.length + 1;
      let start = 0;
      while (total > historyLimitChars && start < oldRevisions.length) {
        total -= oldRevisions[start]!.length + 1;
        start++;
      }
      if (total <= historyLimitChars) {
        oldRevisions = [...oldRevisions.slice(start), oldRevision];
        a[REVISION_HISTORY_ANNOTATION] = oldRevisions.join(',');
      }
    }
  }
  if (!exists && setReplicasAnnotations(rs, specReplicas(d), specReplicas(d) + maxSurge(d))) changed = true;
  return changed;
}

/** SetDeploymentRevision: whether the Deployment's revision annotation changed. */
export function setDeploymentRevision(d: KubeObject, revision: string): boolean {
  const a = annotationsOf(d);
  if (a[REVISION_ANNOTATION] === revision) return false;
  a[REVISION_ANNOTATION] = revision;
  return true;
}

// ---- ReplicaSet sets ----------------------------------------------------

const creation = (o: KubeObject) => timeMs(o.metadata?.creationTimestamp);
const nameOf = (o: KubeObject) => o.metadata?.name ?? '';

/** ReplicaSetsByCreationTimestamp: older first, then by name. */
export function byCreationTimestamp(a: KubeObject, b: KubeObject): number {
  const ca = creation(a);
  const cb = creation(b);
  if (ca === cb || (Number.isNaN(ca) && Number.isNaN(cb))) return nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0;
  return ca < cb ? -1 : 1;
}

/** ReplicaSetsBySizeOlder: larger first; equal sizes older first. */
export function bySizeOlder(a: KubeObject, b: KubeObject): number {
  const d = specReplicas(b) - specReplicas(a);
  return d !== 0 ? d : byCreationTimestamp(a, b);
}

/** ReplicaSetsBySizeNewer: larger first; equal sizes newer first. */
export function bySizeNewer(a: KubeObject, b: KubeObject): number {
  const d = specReplicas(b) - specReplicas(a);
  return d !== 0 ? d : byCreationTimestamp(b, a);
}

/** ReplicaSetsByRevision: lower revision first, then by creation. */
export function byRevision(a: KubeObject, b: KubeObject): number {
  const ra = revisionOf(a);
  const rb = revisionOf(b);
  if (ra === rb || (Number.isNaN(ra) && Number.isNaN(rb))) return byCreationTimestamp(a, b);
  return (Number.isNaN(ra) ? 0 : ra) - (Number.isNaN(rb) ? 0 : rb);
}

/** FindNewReplicaSet: the oldest ReplicaSet whose template equals the Deployment's (pod-template-hash aside). */
export function findNewReplicaSet(d: KubeObject, rss: readonly KubeObject[]): KubeObject | undefined {
  const template = specOf(d).template;
  return [...rss].sort(byCreationTimestamp).find((rs) => equalIgnoreHash(specOf(rs).template, template));
}

/** FindOldReplicaSets (all of them): every ReplicaSet but the new one. */
export function findOldReplicaSets(d: KubeObject, rss: readonly KubeObject[]): KubeObject[] {
  const newRS = findNewReplicaSet(d, rss);
  return rss.filter((rs) => !newRS || rs.metadata?.uid !== newRS.metadata?.uid);
}

/** FilterActiveReplicaSets: those with replicas > 0. */
export function activeReplicaSets(rss: readonly (KubeObject | undefined)[]): KubeObject[] {
  return rss.filter((rs): rs is KubeObject => !!rs && specReplicas(rs) > 0);
}

const defined = (rss: readonly (KubeObject | undefined)[]) => rss.filter((rs): rs is KubeObject => !!rs);
/** GetReplicaCountForReplicaSets: the sum of spec.replicas. */
export const replicaCount = (rss: readonly (KubeObject | undefined)[]) => defined(rss).reduce((n, rs) => n + specReplicas(rs), 0);
/** GetActualReplicaCountForReplicaSets: the sum of status.replicas. */
export const actualReplicaCount = (rss: readonly (KubeObject | undefined)[]) => defined(rss).reduce((n, rs) => n + int(statusOf(rs).replicas), 0);
export const readyReplicaCount = (rss: readonly (KubeObject | undefined)[]) => defined(rss).reduce((n, rs) => n + int(statusOf(rs).readyReplicas), 0);
export const availableReplicaCount = (rss: readonly (KubeObject | undefined)[]) => defined(rss).reduce((n, rs) => n + int(statusOf(rs).availableReplicas), 0);

/** FindActiveOrLatest: the only active ReplicaSet, or the newest when none is active; undefined when several are. */
export function findActiveOrLatest(newRS: KubeObject | undefined, oldRSs: readonly KubeObject[]): KubeObject | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort((a, b) => byCreationTimestamp(b, a));
  const active = activeReplicaSets([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  if (active.length === 1) return active[0];
  return undefined;
}

/** IsSaturated: the new ReplicaSet has all the Deployment's replicas, available. */
export function isSaturated(d: KubeObject, rs: KubeObject | undefined): boolean {
  if (!rs) return false;
  const desired = desiredReplicasAnnotation(rs);
  if (desired === undefined) return false;
  return specReplicas(rs) === specReplicas(d) && desired === specReplicas(d) && int(statusOf(rs).availableReplicas) === specReplicas(d);
}

/** NewRSNewReplicas: how many replicas the new ReplicaSet may have now. */
export function newRSNewReplicas(d: KubeObject, allRSs: readonly (KubeObject | undefined)[], newRS: KubeObject): number {
  if (isRollingUpdate(d)) {
    const p = rollingParams(d);
    const surge = scaledValue(p.maxSurge ?? 0, specReplicas(d), true);
    const current = replicaCount(allRSs);
    const maxTotal = specReplicas(d) + surge;
    if (current >= maxTotal) return specReplicas(newRS);
    const scaleUp = Math.min(maxTotal - current, specReplicas(d) - specReplicas(newRS));
    return specReplicas(newRS) + scaleUp;
  }
  return specReplicas(d);
}

/** Go's math.Round then int32: halves away from zero. */
function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** getReplicaSetFraction: the replicas this ReplicaSet should gain (or lose) for the Deployment's new size. */
function replicaSetFraction(rs: KubeObject, d: KubeObject): number {
  if (specReplicas(d) === 0) return -specReplicas(rs);
  const deploymentReplicas = specReplicas(d) + maxSurge(d);
  const annotated = maxReplicasAnnotation(rs) ?? int(statusOf(d).replicas);
  const newSize = (specReplicas(rs) * deploymentReplicas) / annotated;
  return roundHalfAway(newSize) - specReplicas(rs);
}

/** GetProportion: the share of `toAdd` (bounded by what remains) this ReplicaSet gets. */
export function proportion(rs: KubeObject | undefined, d: KubeObject, toAdd: number, added: number): number {
  if (!rs || specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

// ---- conditions ---------------------------------------------------------

export function getCondition(status: Obj, type: string): Obj | undefined {
  return arr(status.conditions)
    .map(rec)
    .find((c) => c.type === type);
}

/** NewDeploymentCondition at `nowMs`. */
export function newCondition(type: string, status: string, reason: string, message: string, nowMs: number): Obj {
  const t = rfc3339(nowMs);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

/** SetDeploymentCondition: same status and reason leaves it; same status keeps the transition time. */
export function setCondition(status: Obj, condition: Obj): void {
  const current = getCondition(status, condition.type as string);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next = { ...condition };
  if (current && current.status === condition.status) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...arr(status.conditions).map(rec).filter((c) => c.type !== condition.type), next];
}

export function removeCondition(status: Obj, type: string): void {
  const conditions = arr(status.conditions).map(rec).filter((c) => c.type !== type);
  if (conditions.length > 0) status.conditions = conditions;
  else delete status.conditions;
}

/** ReplicaSetToDeploymentCondition. */
export function replicaSetToDeploymentCondition(c: Obj): Obj {
  return { type: c.type, status: c.status, lastUpdateTime: c.lastTransitionTime, lastTransitionTime: c.lastTransitionTime, reason: c.reason, message: c.message };
}

/** DeploymentComplete: every replica updated and available, and the spec observed. */
export function deploymentComplete(d: KubeObject, status: Obj): boolean {
  const n = specReplicas(d);
  return int(status.updatedReplicas) === n && int(status.replicas) === n && int(status.availableReplicas) === n && int(status.observedGeneration) >= int(d.metadata?.generation);
}

/** DeploymentProgressing: more updated, fewer old, more ready or more available replicas than before. */
export function deploymentProgressing(d: KubeObject, next: Obj): boolean {
  const old = statusOf(d);
  const oldOld = int(old.replicas) - int(old.updatedReplicas);
  const newOld = int(next.replicas) - int(next.updatedReplicas);
  return (
    int(next.updatedReplicas) > int(old.updatedReplicas) ||
    newOld < oldOld ||
    int(next.readyReplicas) > int(old.readyReplicas) ||
    int(next.availableReplicas) > int(old.availableReplicas)
  );
}

/** DeploymentTimedOut: the Progressing condition has not moved for progressDeadlineSeconds. */
export function deploymentTimedOut(d: KubeObject, next: Obj, nowMs: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(next, PROGRESSING);
  if (!c) return false;
  if (c.reason === NEW_RS_AVAILABLE_REASON) return false;
  if (c.reason === TIMED_OUT_REASON) return true;
  const from = timeMs(c.lastUpdateTime);
  return Number.isFinite(from) && from + int(specOf(d).progressDeadlineSeconds) * 1000 < nowMs;
}
