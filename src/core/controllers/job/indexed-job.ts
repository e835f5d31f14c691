// The parts of a sync particular to Indexed Jobs: which indexes succeeded or
// failed (with backoffLimitPerIndex), which failed pod stays (finalizer
// kept) until its index has a replacement that carries its failure count,
// the per-index back-off, duplicate or out-of-range pods to remove, and what
// each index's pod gets (annotation, label, hostname, JOB_COMPLETION_INDEX).

import type { KubeObject } from '../../kinds/types';
import { finishedTime, parseCount, remainingBackoffMs } from './backoff';
import { compareActivePods } from './active-pods';
import { completionIndex, OrderedIntervals, UNKNOWN_INDEX } from './indexes';
import {
  completions,
  COMPLETION_INDEX_ENV,
  hasTrackingFinalizer,
  isIndexedJob,
  isPodFailed,
  JOB_COMPLETION_INDEX,
  JOB_INDEX_FAILURE_COUNT,
  JOB_INDEX_IGNORED_FAILURE_COUNT,
  jobSpec,
  jobStatus,
  podAnnotations,
  podFailurePolicy,
  podPhase,
} from './job-model';
import { arr, num, rec, str, type Obj } from './json';
import { matchPodFailurePolicy } from './pod-failure-policy';
import type { SyncContext } from './sync-context';

const validIndex = (ix: number, job: KubeObject) => ix !== UNKNOWN_INDEX && ix < (completions(job) ?? 0);

/** calculateSucceededIndexes: the indexes in status, and those with the ones succeeded since. */
export function succeededIndexes(job: KubeObject, pods: readonly KubeObject[]): [OrderedIntervals, OrderedIntervals] {
  const prev = OrderedIntervals.parse(str(jobStatus(job).completedIndexes), completions(job) ?? 0);
  const fresh = new Set<number>();
  for (const p of pods) {
    const ix = completionIndex(p);
    if (podPhase(p) === 'Succeeded' && validIndex(ix, job) && hasTrackingFinalizer(p)) fresh.add(ix);
  }
  return [prev, prev.withIndexes([...fresh].sort((a, b) => a - b))];
}

export const indexFailureCount = (pod: KubeObject): number => parseCount(podAnnotations(pod)[JOB_INDEX_FAILURE_COUNT]);
export const indexAbsoluteFailureCount = (pod: KubeObject): number =>
  parseCount(podAnnotations(pod)[JOB_INDEX_FAILURE_COUNT]) + parseCount(podAnnotations(pod)[JOB_INDEX_IGNORED_FAILURE_COUNT]);

function isIndexFailed(job: KubeObject, pod: KubeObject): boolean {
  let counted = false;
  if (isPodFailed(pod, job)) {
    const policy = podFailurePolicy(job);
    if (policy) {
      const m = matchPodFailurePolicy(policy, pod);
      if (m.action === 'FailIndex') return true;
      counted = m.countFailed;
    } else counted = true;
  }
  return counted && indexFailureCount(pod) >= (num(jobSpec(job).backoffLimitPerIndex) ?? 0);
}

/** calculateFailedIndexes: status.failedIndexes and the indexes failed since. */
export function failedIndexes(job: KubeObject, pods: readonly KubeObject[]): OrderedIntervals {
  const prev = OrderedIntervals.parse(str(jobStatus(job).failedIndexes), completions(job) ?? 0);
  const fresh = new Set<number>();
  for (const p of pods) {
    const ix = completionIndex(p);
    if (validIndex(ix, job) && hasTrackingFinalizer(p) && isIndexFailed(job, p)) fresh.add(ix);
  }
  return prev.withIndexes([...fresh].sort((a, b) => a - b));
}

/** getPodsWithDelayedDeletionPerIndex: per index without a live pod, the failed pod to keep until it is replaced. */
export function podsWithDelayedDeletion(ctx: SyncContext): Map<number, KubeObject> {
  const activeIndexes = new Set(ctx.activePods.map(completionIndex));
  const result = new Map<number, KubeObject>();
  for (const p of ctx.pods) {
    const uid = p.metadata?.uid ?? '';
    if (!hasTrackingFinalizer(p) || ctx.expectedRmFinalizers.has(uid)) continue;
    const ix = completionIndex(p);
    if (!validIndex(ix, ctx.job) || !isPodFailed(p, ctx.job)) continue;
    if (ctx.succeededIndexes.has(ix) || ctx.failedIndexes?.has(ix) || activeIndexes.has(ix)) continue;
    const last = result.get(ix);
    if (!last || (indexAbsoluteFailureCount(last) <= indexAbsoluteFailureCount(p) && finishedTime(p) >= finishedTime(last))) result.set(ix, p);
  }
  return result;
}

/** Of the indexes to add, those whose back-off is over; or, when none is, the shortest wait. */
export function creatableIndexes(indexes: readonly number[], delayed: ReadonlyMap<number, KubeObject>, nowMs: number): { indexes: number[]; waitMs: number } {
  const now: number[] = [];
  let minWait: number | undefined;
  for (const ix of indexes) {
    const last = delayed.get(ix);
    const wait = last ? remainingBackoffMs(indexAbsoluteFailureCount(last) + 1, finishedTime(last), nowMs) : 0;
    if (wait === 0) now.push(ix);
    else if (minWait === undefined || wait < minWait) minWait = wait;
  }
  return now.length > 0 ? { indexes: now, waitMs: 0 } : { indexes: now, waitMs: minWait ?? 0 };
}

/** appendDuplicatedIndexPodsForRemoval: pods without an index or out of range, and all but one per repeated index. */
export function duplicatedIndexPods(pods: readonly KubeObject[], completionsCount: number): { rm: KubeObject[]; left: KubeObject[] } {
  const rm: KubeObject[] = [];
  const left: KubeObject[] = [];
  const byIndex = new Map<number, KubeObject[]>();
  for (const p of pods) {
    const ix = completionIndex(p);
    if (ix === UNKNOWN_INDEX || ix >= completionsCount) {
      rm.push(p);
      continue;
    }
    const group = byIndex.get(ix) ?? [];
    group.push(p);
    byIndex.set(ix, group);
  }
  for (const ix of [...byIndex.keys()].sort((a, b) => a - b)) {
    const group = byIndex.get(ix)!;
    if (group.length === 1) {
      left.push(group[0]!);
      continue;
    }
    group.sort(compareActivePods);
    rm.push(...group.slice(0, -1));
    left.push(group[group.length - 1]!);
  }
  return { rm, left };
}

/** The JOB_COMPLETION_INDEX env var (from the index label) on every container that lacks one. */
export function addCompletionIndexEnv(template: Obj): void {
  const spec = rec(template.spec);
  for (const field of ['initContainers', 'containers']) {
    for (const c of arr(spec[field]).map(rec)) {
      const env = Array.isArray(c.env) ? (c.env as Obj[]) : [];
      if (env.some((e) => rec(e).name === COMPLETION_INDEX_ENV)) continue;
      env.push({ name: COMPLETION_INDEX_ENV, valueFrom: { fieldRef: { fieldPath: `metadata.labels['${JOB_COMPLETION_INDEX}']` } } });
      c.env = env;
    }
  }
}

/** What an index's pod gets on top of the template: its index as annotation and label, hostname, failure counts. */
export function templateForIndex(template: Obj, job: KubeObject, index: number, replaced: KubeObject | undefined, perIndex: boolean): Obj {
  const t = JSON.parse(JSON.stringify(template)) as Obj;
  const meta = rec(t.metadata);
  const annotations: Record<string, string> = { ...(rec(meta.annotations) as Record<string, string>), [JOB_COMPLETION_INDEX]: String(index) };
  const labels = { ...(rec(meta.labels) as Record<string, string>), [JOB_COMPLETION_INDEX]: String(index) };
  if (perIndex) {
    let failures = 0;
    let ignored = 0;
    if (replaced) {
      failures = parseCount(podAnnotations(replaced)[JOB_INDEX_FAILURE_COUNT]);
      ignored = parseCount(podAnnotations(replaced)[JOB_INDEX_IGNORED_FAILURE_COUNT]);
      const policy = podFailurePolicy(job);
      if (!policy || matchPodFailurePolicy(policy, replaced).countFailed) failures++;
      else ignored++;
    }
    annotations[JOB_INDEX_FAILURE_COUNT] = String(failures);
    if (ignored > 0) annotations[JOB_INDEX_IGNORED_FAILURE_COUNT] = String(ignored);
  }
  t.metadata = { ...meta, annotations, labels };
  t.spec = { ...rec(t.spec), hostname: `${job.metadata?.name ?? ''}-${index}` };
  return t;
}

export { isIndexedJob };
