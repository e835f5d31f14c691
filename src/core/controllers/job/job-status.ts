// trackJobStatusAndRemoveFinalizers: how a finished pod is counted exactly
// once. Its UID first goes into status.uncountedTerminatedPods (written),
// then its tracking finalizer is removed, then it moves from the uncounted
// list into status.succeeded / status.failed (Indexed Jobs count indexes in
// status.completedIndexes instead). The interim FailureTarget or
// SuccessCriteriaMet condition is written before finalizers go; the final
// Failed or Complete only once nothing is uncounted and no pod of the Job is
// still terminating — with the Job's Completed or failure event.

import type { KubeObject } from '../../kinds/types';
import { isNotFound } from '../client/api-error';
import { resourcePath } from '../client/resource-path';
import { completionIndex, UNKNOWN_INDEX } from './indexes';
import {
  completions,
  conditionsOf,
  ensureConditionStatus,
  findCondition,
  hasBackoffLimitPerIndex,
  hasTrackingFinalizer,
  isIndexedJob,
  isPodFailed,
  newCondition,
  podFailurePolicy,
  podPhase,
  type JobCondition,
} from './job-model';
import { num, rec, str } from './json';
import { matchPodFailurePolicy } from './pod-failure-policy';
import { orderedStatus, uncountedOf, type JobDeps, type SyncContext, type UncountedStatus } from './sync-context';

export const JOBS = { group: 'batch', version: 'v1', resource: 'jobs' };
/** MaxUncountedPods: how many UIDs status.uncountedTerminatedPods holds at most. */
export const MAX_UNCOUNTED_PODS = 500;

export const isSuccessCriteriaMet = (c: JobCondition | undefined): boolean => c?.type === 'SuccessCriteriaMet' && c.status === 'True';

/** Writes the Job's status (PUT jobs/status) and continues with what the server answered. */
export async function updateStatus(deps: JobDeps, ctx: SyncContext): Promise<void> {
  const job = ctx.job;
  const body = { ...job, status: orderedStatus(ctx.status) };
  const updated = await deps.client.call<KubeObject>('PUT', resourcePath(JOBS, { namespace: job.metadata?.namespace, name: job.metadata?.name, subresource: 'status' }), body);
  ctx.job = updated;
  ctx.status = { ...rec(updated.status) };
  ctx.status.conditions = conditionsOf(updated);
  ctx.status.uncountedTerminatedPods = uncountedOf(ctx.status);
}

const uncountedIn = (ctx: SyncContext): UncountedStatus => ctx.status.uncountedTerminatedPods as UncountedStatus;

/** cleanUncountedPodsWithoutFinalizers: uncounted pods whose finalizer is gone move into the counters. */
function cleanUncounted(ctx: SyncContext, withFinalizer: ReadonlySet<string>): boolean {
  const u = uncountedIn(ctx);
  let updated = false;
  const keepS = u.succeeded.filter((uid) => withFinalizer.has(uid));
  if (keepS.length !== u.succeeded.length) {
    updated = true;
    ctx.status.succeeded = (num(ctx.status.succeeded) ?? 0) + u.succeeded.length - keepS.length;
    u.succeeded = keepS;
  }
  const keepF = u.failed.filter((uid) => withFinalizer.has(uid));
  if (keepF.length !== u.failed.length) {
    updated = true;
    ctx.status.failed = (num(ctx.status.failed) ?? 0) + u.failed.length - keepF.length;
    u.failed = keepF;
  }
  return updated;
}

/** canRemoveFinalizer. */
function canRemoveFinalizer(ctx: SyncContext, pod: KubeObject, considerFailed: boolean): boolean {
  if (ctx.job.metadata?.deletionTimestamp || ctx.finished || podPhase(pod) === 'Succeeded') return true;
  if (!considerFailed) return false;
  if (hasBackoffLimitPerIndex(ctx.job)) {
    const ix = completionIndex(pod);
    const delayed = ix === UNKNOWN_INDEX ? undefined : ctx.podsWithDelayedDeletionPerIndex.get(ix);
    if (delayed && delayed.metadata?.uid === pod.metadata?.uid) return false;
  }
  return true;
}

async function removeFinalizers(deps: JobDeps, ctx: SyncContext, pods: readonly KubeObject[]): Promise<{ removed: boolean[]; error?: unknown }> {
  const uids = pods.map((p) => p.metadata?.uid ?? '');
  deps.finalizerExpectations.expectRemoved(ctx.key, uids);
  let error: unknown;
  const removed = await Promise.all(
    pods.map(async (pod) => {
      try {
        await deps.podControl.removeTrackingFinalizer(pod);
        return true;
      } catch (err) {
        deps.finalizerExpectations.observed(ctx.key, pod.metadata?.uid ?? '');
        if (isNotFound(err)) return true;
        error ??= err;
        return false;
      }
    }),
  );
  return { removed, error };
}

/** enactJobFinished: the final condition, once nothing is uncounted or terminating. */
function enactJobFinished(deps: JobDeps, ctx: SyncContext): boolean {
  const finished = ctx.finished;
  if (!finished) return false;
  const u = uncountedIn(ctx);
  if (u.succeeded.length + u.failed.length > 0) return false;
  if (ctx.terminating > 0) return false;
  const conditions = ctx.status.conditions as JobCondition[];
  ensureConditionStatus(conditions, finished.type, finished.status, finished.reason ?? '', finished.message ?? '', deps.now());
  if (finished.type === 'Complete') ctx.status.completionTime = finished.lastTransitionTime;
  return true;
}

function recordJobFinished(deps: JobDeps, ctx: SyncContext): void {
  const finished = ctx.finished!;
  const job = ctx.job;
  if (finished.type === 'Complete') {
    const c = completions(job);
    if (c !== undefined && (num(ctx.status.succeeded) ?? 0) > c) {
      deps.recorder.emit(job, { type: 'Warning', reason: 'TooManySucceededPods', message: 'Too many succeeded pods running after completion count reached' });
    }
    deps.recorder.emit(job, { type: 'Normal', reason: 'Completed', message: 'Job completed' });
  } else {
    deps.recorder.emit(job, { type: 'Warning', reason: finished.reason ?? '', message: finished.message ?? '' });
  }
}

export async function trackJobStatusAndRemoveFinalizers(deps: JobDeps, ctx: SyncContext, needsFlushIn: boolean): Promise<void> {
  let needsFlush = needsFlushIn;
  const job = ctx.job;
  const indexed = isIndexedJob(job);
  const count = completions(job) ?? 0;
  const pods = indexed ? [...ctx.pods].sort((a, b) => completionIndex(a) - completionIndex(b)) : ctx.pods;
  const withFinalizer = new Set<string>();
  for (const p of pods) {
    const uid = p.metadata?.uid ?? '';
    if (hasTrackingFinalizer(p) && !ctx.expectedRmFinalizers.has(uid)) withFinalizer.add(uid);
  }
  if (cleanUncounted(ctx, withFinalizer)) needsFlush = true;

  const toRemove: KubeObject[] = [];
  const newSucceededIndexes: number[] = [];
  let reachedMax = false;
  const u = uncountedIn(ctx);
  const policy = podFailurePolicy(job);
  for (const pod of pods) {
    const uid = pod.metadata?.uid ?? '';
    if (!hasTrackingFinalizer(pod) || ctx.expectedRmFinalizers.has(uid)) continue;
    const considerFailed = isPodFailed(pod, job);
    if (!canRemoveFinalizer(ctx, pod, considerFailed)) continue;
    toRemove.push(pod);
    if (podPhase(pod) === 'Succeeded' && !ctx.uncounted.failed.has(uid)) {
      if (indexed) {
        const ix = completionIndex(pod);
        if (ix !== UNKNOWN_INDEX && ix < count && !ctx.prevSucceededIndexes.has(ix)) {
          newSucceededIndexes.push(ix);
          needsFlush = true;
        }
      } else if (!ctx.uncounted.succeeded.has(uid)) {
        needsFlush = true;
        u.succeeded.push(uid);
      }
    } else if (considerFailed || (ctx.finished && !isSuccessCriteriaMet(ctx.finished))) {
      // When the Job is finishing, every pod not terminated yet counts as failed.
      const ix = completionIndex(pod);
      if (!ctx.uncounted.failed.has(uid) && (!indexed || (ix !== UNKNOWN_INDEX && ix < count))) {
        if (!policy || matchPodFailurePolicy(policy, pod).countFailed) {
          needsFlush = true;
          u.failed.push(uid);
        }
      }
    }
    if (newSucceededIndexes.length + u.succeeded.length + u.failed.length >= MAX_UNCOUNTED_PODS) {
      // The rest waits for the next sync, so the status stays small and other Jobs get their turn.
      reachedMax = true;
      break;
    }
  }
  if (indexed) {
    ctx.succeededIndexes = ctx.succeededIndexes.withIndexes([...new Set(newSucceededIndexes)].sort((a, b) => a - b));
    const text = ctx.succeededIndexes.toString();
    if (text !== str(ctx.status.completedIndexes)) needsFlush = true;
    ctx.status.succeeded = ctx.succeededIndexes.total();
    ctx.status.completedIndexes = text;
    const failedText = ctx.failedIndexes?.toString();
    const current = typeof ctx.status.failedIndexes === 'string' ? ctx.status.failedIndexes : undefined;
    if (failedText !== current) {
      if (failedText === undefined) delete ctx.status.failedIndexes;
      else ctx.status.failedIndexes = failedText;
      needsFlush = true;
    }
  }
  const conditions = ctx.status.conditions as JobCondition[];
  if (ctx.finished?.type === 'FailureTarget') {
    conditions.push(ctx.finished);
    needsFlush = true;
    ctx.finished = newCondition('Failed', 'True', ctx.finished.reason ?? '', ctx.finished.message ?? '', deps.now());
  }
  if (isSuccessCriteriaMet(ctx.finished)) {
    const has = findCondition(conditions, 'SuccessCriteriaMet');
    if (!(has && has.status === 'True')) {
      conditions.push(ctx.finished!);
      needsFlush = true;
    }
    ctx.finished = newCondition('Complete', 'True', ctx.finished!.reason ?? '', ctx.finished!.message ?? '', deps.now());
  }

  // flushUncountedAndRemoveFinalizers
  if (needsFlush) {
    await updateStatus(deps, ctx);
    deps.backoffs.set(ctx.key, ctx.newBackoff);
    needsFlush = false;
  }
  if (toRemove.length > 0) {
    const { removed, error } = await removeFinalizers(deps, ctx, toRemove);
    toRemove.forEach((p, i) => {
      if (removed[i]) withFinalizer.delete(p.metadata?.uid ?? '');
    });
    if (cleanUncounted(ctx, withFinalizer)) needsFlush = true;
    if (error) {
      if (needsFlush) await updateStatus(deps, ctx);
      throw error;
    }
  } else if (cleanUncounted(ctx, withFinalizer)) needsFlush = true;

  const jobFinished = !reachedMax && enactJobFinished(deps, ctx);
  if (jobFinished) needsFlush = true;
  if (needsFlush) {
    await updateStatus(deps, ctx);
    if (jobFinished) recordJobFinished(deps, ctx);
  }
}
