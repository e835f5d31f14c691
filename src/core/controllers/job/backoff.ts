// The Job controller's delay before it replaces failed pods: 10 s after the
// first failure since the last success, doubling with each further one, at
// most 10 minutes (pkg/controller/job DefaultJobPodFailureBackOff,
// MaxJobPodFailureBackOff). A record per Job counts the failures since the
// last success and when the latest happened; a success resets it.

import type { KubeObject } from '../../kinds/types';
import { podCondition } from './job-model';
import { arr, num, rec, timeMs } from './json';

export const DEFAULT_POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_POD_FAILURE_BACKOFF_MS = 10 * 60_000;

export interface BackoffRecord {
  readonly failuresAfterLastSuccess: number;
  readonly lastFailureTime: number | undefined;
}

export const NO_BACKOFF: BackoffRecord = { failuresAfterLastSuccess: 0, lastFailureTime: undefined };

/**
 * When a pod finished: the latest finishedAt of its containers (when all are
 * terminated), else when Ready turned False, else its deletion time less its
 * grace, else its creation.
 */
export function finishedTime(pod: KubeObject): number {
  const fromContainers = (() => {
    let latest: number | undefined;
    const statuses = arr(rec(pod.status).containerStatuses).map(rec);
    if (statuses.length === 0) return undefined;
    for (const s of statuses) {
      const finishedAt = timeMs(rec(rec(s.state).terminated).finishedAt);
      if (finishedAt === undefined) return undefined;
      if (latest === undefined || finishedAt > latest) latest = finishedAt;
    }
    return latest;
  })();
  if (fromContainers !== undefined) return fromContainers;
  const ready = podCondition(pod, 'Ready');
  const readyFalse = ready?.status === 'False' ? timeMs(ready.lastTransitionTime) : undefined;
  if (readyFalse !== undefined) return readyFalse;
  const deletion = timeMs(pod.metadata?.deletionTimestamp);
  if (deletion !== undefined) return deletion - (pod.metadata?.deletionGracePeriodSeconds ?? 0) * 1000;
  return timeMs(pod.metadata?.creationTimestamp) ?? 0;
}

const byFinishedTime = (pods: readonly KubeObject[]) => [...pods].sort((a, b) => finishedTime(a) - finishedTime(b));

/** newBackoffRecord: the record after these newly finished pods. */
export function nextBackoffRecord(old: BackoffRecord, newSucceeded: readonly KubeObject[], newFailed: readonly KubeObject[]): BackoffRecord {
  const succeeded = byFinishedTime(newSucceeded);
  const failed = byFinishedTime(newFailed);
  if (succeeded.length === 0) {
    if (failed.length === 0) return old;
    return { failuresAfterLastSuccess: old.failuresAfterLastSuccess + failed.length, lastFailureTime: finishedTime(failed[failed.length - 1]!) };
  }
  if (failed.length === 0) return NO_BACKOFF;
  const lastSuccess = finishedTime(succeeded[succeeded.length - 1]!);
  let failures = 0;
  let lastFailureTime: number | undefined;
  for (let i = failed.length - 1; i >= 0; i--) {
    const t = finishedTime(failed[i]!);
    if (t <= lastSuccess) break;
    lastFailureTime ??= t;
    failures++;
  }
  return { failuresAfterLastSuccess: failures, lastFailureTime };
}

/** How long to wait, from `nowMs`, after `failures` failures the latest at `lastFailureTime`. */
export function remainingBackoffMs(failures: number, lastFailureTime: number | undefined, nowMs: number): number {
  if (failures === 0 || lastFailureTime === undefined) return 0;
  let backoff = DEFAULT_POD_FAILURE_BACKOFF_MS;
  for (let i = 1; i < failures; i++) {
    backoff *= 2;
    if (backoff >= MAX_POD_FAILURE_BACKOFF_MS) {
      backoff = MAX_POD_FAILURE_BACKOFF_MS;
      break;
    }
  }
  const elapsed = nowMs - lastFailureTime;
  return backoff < elapsed ? 0 : backoff - elapsed;
}

/** A count annotation (index failure counts) as kube parses it: 0 unless a non-negative int32. */
export function parseCount(v: string | undefined): number {
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return 0;
  const n = Number(v);
  return n < 0 || n > 2147483647 ? 0 : n;
}

export const numOr = (v: unknown, fallback: number): number => num(v) ?? fallback;
