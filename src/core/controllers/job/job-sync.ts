// syncJob: one reconcile of a Job, in kube's order. Count the pods it owns
// (adopting and releasing by selector), decide whether it is finishing —
// an earlier FailureTarget or SuccessCriteriaMet, a FailJob pod failure
// policy rule, the backoffLimit, activeDeadlineSeconds, failed indexes, the
// success policy — and then either delete its active pods or manage them
// (with the Suspended condition), and track the status.

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { labelSelectorAsSelector } from '../../selectors';
import type { Informer } from '../client/informer';
import { isNotFound } from '../client/api-error';
import { NO_BACKOFF, nextBackoffRecord } from './backoff';
import { completionIndex, OrderedIntervals, UNKNOWN_INDEX } from './indexes';
import { failedIndexes, podsWithDelayedDeletion, succeededIndexes } from './indexed-job';
import {
  backoffLimit,
  completions,
  conditionsOf,
  controllerRef,
  ensureConditionStatus,
  findCondition,
  hasBackoffLimitPerIndex,
  hasTrackingFinalizer,
  isIndexedJob,
  isJobFinished,
  isPodActive,
  isPodFailed,
  isPodReady,
  isPodTerminating,
  isSuspended,
  jobSpec,
  managedByExternalController,
  MESSAGE_BACKOFF_LIMIT_EXCEEDED,
  MESSAGE_COMPLETIONS_REACHED,
  MESSAGE_DEADLINE_EXCEEDED,
  MESSAGE_FAILED_INDEXES,
  MESSAGE_MAX_FAILED_INDEXES_EXCEEDED,
  newCondition,
  podFailurePolicy,
  podPhase,
  REASON_BACKOFF_LIMIT_EXCEEDED,
  REASON_COMPLETIONS_REACHED,
  REASON_DEADLINE_EXCEEDED,
  REASON_FAILED_INDEXES,
  REASON_MAX_FAILED_INDEXES_EXCEEDED,
  REASON_POD_FAILURE_POLICY,
  REASON_SUCCESS_POLICY,
  type JobCondition,
} from './job-model';
import { JOBS, trackJobStatusAndRemoveFinalizers } from './job-status';
import { arr, clone, num, rec, timeMs } from './json';
import { deleteActivePods, manageJob } from './manage-job';
import { matchPodFailurePolicy } from './pod-failure-policy';
import { matchSuccessPolicy } from './success-policy';
import { uncountedOf, type JobDeps, type SyncContext } from './sync-context';

/** The pods the Job owns, after adopting matching orphans and releasing owned pods that no longer match. */
async function podsForJob(deps: JobDeps, pods: Informer, job: KubeObject): Promise<KubeObject[]> {
  const selector = labelSelectorAsSelector(jobSpec(job).selector as never);
  const uid = job.metadata?.uid;
  const deleting = !!job.metadata?.deletionTimestamp;
  const owned: KubeObject[] = [];
  let canAdopt: boolean | undefined;
  for (const pod of pods.list(job.metadata?.namespace ?? '')) {
    const ref = controllerRef(pod);
    const matches = selector.matches(pod.metadata?.labels ?? {});
    if (ref) {
      if (ref.uid !== uid) continue;
      if (matches || deleting) {
        owned.push(pod);
        continue;
      }
      try {
        await deps.podControl.release(job, pod);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      continue;
    }
    if (deleting || !matches || pod.metadata?.deletionTimestamp) continue;
    if (canAdopt === undefined) {
      // RecheckDeletionTimestamp: adopt only for a Job that is still there and not being deleted.
      const fresh = await deps.client.get(JOBS, job.metadata?.namespace ?? '', job.metadata?.name ?? '');
      canAdopt = fresh.metadata?.uid === uid && !fresh.metadata?.deletionTimestamp;
    }
    if (!canAdopt) continue;
    try {
      const adopted = await deps.podControl.adopt(job, pod);
      owned.push(hasTrackingFinalizer(adopted) ? adopted : { ...adopted, metadata: { ...adopted.metadata, finalizers: [...(adopted.metadata?.finalizers ?? []), 'batch.kubernetes.io/job-tracking'] } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  return owned;
}

/** pastBackoffLimitOnFailure: with restartPolicy OnFailure, container restarts count against backoffLimit. */
function pastBackoffLimitOnFailure(job: KubeObject, pods: readonly KubeObject[]): boolean {
  if (rec(rec(jobSpec(job).template).spec).restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const pod of pods) {
    const phase = podPhase(pod);
    if (phase !== 'Running' && phase !== 'Pending') continue;
    const status = rec(pod.status);
    for (const s of [...arr(status.initContainerStatuses), ...arr(status.containerStatuses)]) restarts += num(rec(s).restartCount) ?? 0;
  }
  const limit = backoffLimit(job);
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

function activeDeadlineLeftMs(job: KubeObject, status: Record<string, unknown>, nowMs: number): number | undefined {
  const ads = num(jobSpec(job).activeDeadlineSeconds);
  const start = timeMs(status.startTime);
  if (ads === undefined || start === undefined || isSuspended(job)) return undefined;
  return ads * 1000 - (nowMs - start);
}

/** Newly finished pods not yet in the status: with the finalizer, not uncounted, a valid index. */
function newFinishedPods(ctx: SyncContext): [KubeObject[], KubeObject[]] {
  const valid = (p: KubeObject, uncounted: ReadonlySet<string>) => {
    const uid = p.metadata?.uid ?? '';
    if (!hasTrackingFinalizer(p) || uncounted.has(uid) || ctx.expectedRmFinalizers.has(uid)) return false;
    if (isIndexedJob(ctx.job)) {
      const ix = completionIndex(p);
      if (ix === UNKNOWN_INDEX || ix >= (completions(ctx.job) ?? 0)) return false;
    }
    return true;
  };
  return [
    ctx.pods.filter((p) => valid(p, ctx.uncounted.succeeded) && podPhase(p) === 'Succeeded'),
    ctx.pods.filter((p) => valid(p, ctx.uncounted.failed) && isPodFailed(p, ctx.job)),
  ];
}

function failJobMessage(job: KubeObject, pods: readonly KubeObject[]): string | undefined {
  const policy = podFailurePolicy(job);
  if (!policy) return undefined;
  for (const p of pods) {
    if (!isPodFailed(p, job)) continue;
    const m = matchPodFailurePolicy(policy, p).failJobMessage;
    if (m) return m;
  }
  return undefined;
}

export async function syncJob(deps: JobDeps, jobs: Informer, pods: Informer, key: string): Promise<void> {
  const slash = key.indexOf('/');
  const shared = jobs.get(key.slice(0, slash), key.slice(slash + 1));
  if (!shared) {
    deps.expectations.delete(key);
    deps.finalizerExpectations.delete(key);
    deps.backoffs.delete(key);
    deps.requeue.forget(key);
    return;
  }
  if (managedByExternalController(shared)) return;
  if (isJobFinished(shared)) {
    deps.backoffs.delete(key);
    return;
  }
  const job = clone(shared);
  const status: Record<string, unknown> = { ...rec(job.status) };
  status.conditions = conditionsOf(job);
  status.uncountedTerminatedPods = uncountedOf(status);
  const now = deps.now();

  const satisfied = deps.expectations.satisfied(key);
  const owned = await podsForJob(deps, pods, job);
  const activePods = owned.filter(isPodActive);
  const uncounted = uncountedOf(status);
  const ctx: SyncContext = {
    key,
    job,
    status,
    pods: owned,
    activePods,
    finished: undefined,
    succeeded: 0,
    failed: 0,
    prevSucceededIndexes: new OrderedIntervals(),
    succeededIndexes: new OrderedIntervals(),
    failedIndexes: undefined,
    newBackoff: NO_BACKOFF,
    expectedRmFinalizers: new Set(deps.finalizerExpectations.expected(key)),
    uncounted: { succeeded: new Set(uncounted.succeeded), failed: new Set(uncounted.failed) },
    podsWithDelayedDeletionPerIndex: new Map(),
    terminating: owned.filter(isPodTerminating).length,
    ready: activePods.filter(isPodReady).length,
  };
  let active = activePods.length;
  const [newSucceeded, newFailed] = newFinishedPods(ctx);
  const policy = podFailurePolicy(job);
  const counted = policy ? newFailed.filter((p) => matchPodFailurePolicy(policy, p).countFailed).length : newFailed.length;
  ctx.succeeded = (num(status.succeeded) ?? 0) + newSucceeded.length + uncounted.succeeded.length;
  ctx.failed = (num(status.failed) ?? 0) + counted + uncounted.failed.length;

  // First start: only a Job that is not suspended starts.
  if (!status.startTime && !isSuspended(job)) status.startTime = rfc3339(now);

  ctx.newBackoff = nextBackoffRecord(deps.backoffs.get(key) ?? NO_BACKOFF, newSucceeded, newFailed);
  const failure = (reason: string, message: string): JobCondition => newCondition('FailureTarget', 'True', reason, message, now);

  const conditions = status.conditions as JobCondition[];
  const scm = findCondition(conditions, 'SuccessCriteriaMet');
  ctx.finished = scm?.status === 'True' ? scm : undefined;
  if (!ctx.finished) {
    const target = findCondition(conditions, 'FailureTarget');
    if (target?.status === 'True') ctx.finished = newCondition('Failed', 'True', target.reason ?? '', target.message ?? '', now);
    else {
      const message = failJobMessage(job, owned);
      if (message) ctx.finished = failure(REASON_POD_FAILURE_POLICY, message);
    }
  }
  if (!ctx.finished) {
    const left = activeDeadlineLeftMs(job, status, now);
    if (ctx.failed > backoffLimit(job) || pastBackoffLimitOnFailure(job, owned)) ctx.finished = failure(REASON_BACKOFF_LIMIT_EXCEEDED, MESSAGE_BACKOFF_LIMIT_EXCEEDED);
    else if (left !== undefined && left <= 0) ctx.finished = failure(REASON_DEADLINE_EXCEEDED, MESSAGE_DEADLINE_EXCEEDED);
    else if (left !== undefined) deps.requeue.after(key, left);
  }

  if (isIndexedJob(job)) {
    [ctx.prevSucceededIndexes, ctx.succeededIndexes] = succeededIndexes(job, owned);
    ctx.succeeded = ctx.succeededIndexes.total();
    const count = completions(job) ?? 0;
    if (hasBackoffLimitPerIndex(job)) {
      ctx.failedIndexes = failedIndexes(job, owned);
      if (!ctx.finished) {
        const max = num(jobSpec(job).maxFailedIndexes);
        const failedTotal = ctx.failedIndexes.total();
        if (max !== undefined && failedTotal > max) ctx.finished = failure(REASON_MAX_FAILED_INDEXES_EXCEEDED, MESSAGE_MAX_FAILED_INDEXES_EXCEEDED);
        else if (failedTotal > 0 && failedTotal + ctx.succeededIndexes.total() >= count) ctx.finished = failure(REASON_FAILED_INDEXES, MESSAGE_FAILED_INDEXES);
      }
      ctx.podsWithDelayedDeletionPerIndex = podsWithDelayedDeletion(ctx);
    }
    if (!ctx.finished) {
      const sp = jobSpec(job).successPolicy;
      const message = matchSuccessPolicy(sp && typeof sp === 'object' ? (sp as Record<string, unknown>) : undefined, count, ctx.succeededIndexes);
      if (message) ctx.finished = newCondition('SuccessCriteriaMet', 'True', REASON_SUCCESS_POLICY, message, now);
    }
  }

  let suspendChanged = false;
  let manageError: unknown;
  if (ctx.finished) {
    const r = await deleteActivePods(deps, job, activePods);
    // Not finished yet while pods may remain or some are not in the cache yet.
    if (r.removed !== active || !satisfied) ctx.finished = undefined;
    active -= r.removed;
    ctx.terminating += r.removed;
    ctx.ready -= r.removedReady;
    manageError = r.error;
  } else {
    let managed = false;
    if (satisfied && !job.metadata?.deletionTimestamp) {
      const r = await manageJob(deps, ctx);
      active = r.active;
      manageError = r.error;
      managed = true;
    }
    const c = completions(job);
    const complete = c === undefined ? ctx.succeeded > 0 && active === 0 : ctx.succeeded >= c && active === 0;
    if (complete) ctx.finished = newCondition('SuccessCriteriaMet', 'True', REASON_COMPLETIONS_REACHED, MESSAGE_COMPLETIONS_REACHED, now);
    else if (managed) {
      if (isSuspended(job)) {
        if (ensureConditionStatus(conditions, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now)) {
          suspendChanged = true;
          deps.recorder.emit(job, { type: 'Normal', reason: 'Suspended', message: 'Job suspended' });
        }
      } else if (ensureConditionStatus(conditions, 'Suspended', 'False', 'JobResumed', 'Job resumed', now)) {
        suspendChanged = true;
        deps.recorder.emit(job, { type: 'Normal', reason: 'Resumed', message: 'Job resumed' });
        // activeDeadlineSeconds counts the time a Job is continuously active: it starts again.
        status.startTime = rfc3339(now);
      }
    }
  }

  const needsUpdate =
    suspendChanged || active !== (num(status.active) ?? 0) || ctx.ready !== num(status.ready) || ctx.terminating !== num(status.terminating);
  status.active = active;
  status.ready = ctx.ready;
  status.terminating = ctx.terminating;
  await trackJobStatusAndRemoveFinalizers(deps, ctx, needsUpdate);
  if (manageError) throw manageError;
}
