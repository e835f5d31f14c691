// manageJob: brings the Job's active pods to what it wants — none while
// suspended, else min(parallelism, completions left) — deleting the pods
// least far along first, or creating pods (with the index, for Indexed Jobs)
// once the failure back-off allows, in slow-start batches (1, 2, 4, …) that
// stop at the first failure, at most 500 per sync. Also the deletion of
// active pods when a Job finishes.

import type { KubeObject } from '../../kinds/types';
import { isNotFound } from '../client/api-error';
import { isNamespaceTerminating } from '../runtime/namespaces';
import { compareActivePods } from './active-pods';
import { remainingBackoffMs } from './backoff';
import { firstPendingIndexes, generateNameWithIndex, indexesOf } from './indexes';
import { addCompletionIndexEnv, creatableIndexes, duplicatedIndexPods, templateForIndex } from './indexed-job';
import { completions, hasBackoffLimitPerIndex, isIndexedJob, isPodReady, isPodTerminating, isSuspended, JOB_TRACKING_FINALIZER, jobSpec, onlyReplaceFailedPods, parallelism } from './job-model';
import { clone, rec, type Obj } from './json';
import type { JobDeps, SyncContext } from './sync-context';

/** MaxPodCreateDeletePerSync. */
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500;
/** The shortest delay before a sync that waits for a back-off (syncJobBatchPeriod). */
const MIN_DELAY_MS = 1000;

/** activePodsForRemoval. */
export function activePodsForRemoval(job: KubeObject, pods: readonly KubeObject[], rmAtLeast: number): KubeObject[] {
  let rm: KubeObject[] = [];
  let left: KubeObject[];
  if (isIndexedJob(job)) ({ rm, left } = duplicatedIndexPods(pods, completions(job) ?? 0));
  else left = [...pods];
  if (rm.length < rmAtLeast) {
    left.sort(compareActivePods);
    rm = [...rm, ...left.slice(0, rmAtLeast - rm.length)];
  }
  return rm;
}

interface Removal {
  removedReady: number;
  removed: number;
  error?: unknown;
}

/** deleteJobPods: tracking finalizer off, then delete (these pods are not counted as failed). */
async function deleteJobPods(deps: JobDeps, job: KubeObject, key: string, pods: readonly KubeObject[]): Promise<Removal> {
  let removed = pods.length;
  let removedReady = 0;
  let error: unknown;
  const fail = (err: unknown) => {
    deps.expectations.deletionObserved(key);
    if (!isNotFound(err)) {
      removed--;
      error ??= err;
    }
  };
  await Promise.all(
    pods.map(async (pod) => {
      try {
        await deps.podControl.removeTrackingFinalizer(pod);
      } catch (err) {
        fail(err);
        return;
      }
      try {
        await deps.podControl.delete(job, pod);
      } catch (err) {
        fail(err);
      }
      if (isPodReady(pod)) removedReady++;
    }),
  );
  return { removed, removedReady, error };
}

/** deleteActivePods: delete keeping the finalizers (they are counted as failed), for a Job that finishes. */
export async function deleteActivePods(deps: JobDeps, job: KubeObject, pods: readonly KubeObject[]): Promise<Removal> {
  let removed = pods.length;
  let removedReady = 0;
  let error: unknown;
  await Promise.all(
    pods.map(async (pod) => {
      try {
        await deps.podControl.delete(job, pod);
      } catch (err) {
        if (!isNotFound(err)) {
          removed--;
          error ??= err;
        }
      }
      if (isPodReady(pod)) removedReady++;
    }),
  );
  return { removed, removedReady, error };
}

/** Runs manageJob; returns the number of active pods to report and the error to retry on. */
export async function manageJob(deps: JobDeps, ctx: SyncContext): Promise<{ active: number; error?: unknown }> {
  const job = ctx.job;
  const key = ctx.key;
  let active = ctx.activePods.length;

  if (isSuspended(job)) {
    const toDelete = activePodsForRemoval(job, ctx.activePods, active);
    deps.expectations.expectDeletions(key, toDelete.length);
    const r = await deleteJobPods(deps, job, key, toDelete);
    ctx.terminating += r.removed;
    ctx.ready -= r.removedReady;
    return { active: active - r.removed, error: r.error };
  }

  const want = (() => {
    const c = completions(job);
    if (c === undefined) return ctx.succeeded > 0 ? active : parallelism(job);
    return Math.max(0, Math.min(c - ctx.succeeded, parallelism(job)));
  })();

  const rmAtLeast = Math.max(0, active - want);
  const toDelete = activePodsForRemoval(job, ctx.activePods, rmAtLeast).slice(0, MAX_POD_CREATE_DELETE_PER_SYNC);
  if (toDelete.length > 0) {
    deps.expectations.expectDeletions(key, toDelete.length);
    const r = await deleteJobPods(deps, job, key, toDelete);
    ctx.terminating += r.removed;
    ctx.ready -= r.removedReady;
    return { active: active - r.removed, error: r.error };
  }

  const terminating = onlyReplaceFailedPods(job) ? ctx.terminating : 0;
  let diff = want - terminating - active;
  if (diff <= 0) return { active };

  const perIndex = hasBackoffLimitPerIndex(job);
  if (!perIndex) {
    const wait = remainingBackoffMs(ctx.newBackoff.failuresAfterLastSuccess, ctx.newBackoff.lastFailureTime, deps.now());
    if (wait > 0) {
      deps.requeue.after(key, Math.max(wait, MIN_DELAY_MS));
      // As kube: while waiting out the back-off, the sync reports no active pods.
      return { active: 0 };
    }
  }
  diff = Math.min(diff, MAX_POD_CREATE_DELETE_PER_SYNC);

  let indexesToAdd: number[] = [];
  if (isIndexedJob(job)) {
    const count = completions(job) ?? 0;
    let nonPending = ctx.succeededIndexes.withIndexes(indexesOf(ctx.activePods));
    if (onlyReplaceFailedPods(job)) nonPending = nonPending.withIndexes(indexesOf(ctx.pods.filter(isPodTerminating)));
    if (ctx.failedIndexes) nonPending = nonPending.merge(ctx.failedIndexes);
    indexesToAdd = firstPendingIndexes(nonPending, diff, count);
    if (perIndex) {
      const c = creatableIndexes(indexesToAdd, ctx.podsWithDelayedDeletionPerIndex, deps.now());
      if (c.waitMs > 0) {
        deps.requeue.after(key, Math.max(c.waitMs, MIN_DELAY_MS));
        return { active: 0 };
      }
      indexesToAdd = c.indexes;
    }
    diff = indexesToAdd.length;
  }

  deps.expectations.expectCreations(key, diff);
  active += diff;
  const template = clone(rec(jobSpec(job).template));
  if (isIndexedJob(job)) addCompletionIndexEnv(template);
  const meta = rec(template.metadata);
  const finalizers = Array.isArray(meta.finalizers) ? [...(meta.finalizers as string[])] : [];
  if (!finalizers.includes(JOB_TRACKING_FINALIZER)) finalizers.push(JOB_TRACKING_FINALIZER);
  template.metadata = { ...meta, finalizers };

  let error: unknown;
  const name = job.metadata?.name ?? '';
  for (let batch = Math.min(diff, 1); diff > 0; batch = Math.min(2 * batch, diff)) {
    let failedInBatch = false;
    const creations: Promise<void>[] = [];
    for (let i = 0; i < batch; i++) {
      const index = indexesToAdd.shift();
      let podTemplate: Obj = template;
      let generateName = `${name}-`;
      if (index !== undefined) {
        podTemplate = templateForIndex(template, job, index, ctx.podsWithDelayedDeletionPerIndex.get(index), perIndex);
        generateName = generateNameWithIndex(name, index);
      }
      creations.push(
        deps.podControl.create(job, podTemplate, generateName).then(
          () => undefined,
          (err) => {
            // A namespace being deleted refuses every pod: nothing to retry (kube returns here too).
            if (isNamespaceTerminating(err)) return;
            deps.expectations.creationObserved(key);
            active--;
            failedInBatch = true;
            error ??= err;
          },
        ),
      );
    }
    await Promise.all(creations);
    const skipped = diff - batch;
    if (failedInBatch && skipped > 0) {
      active -= skipped;
      for (let i = 0; i < skipped; i++) deps.expectations.creationObserved(key);
      break;
    }
    diff -= batch;
  }
  return { active, error };
}
