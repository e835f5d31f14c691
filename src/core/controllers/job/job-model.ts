// What the Job controller reads from a batch/v1 Job and its pods, and the
// names kube gives things: labels, annotations, the tracking finalizer,
// condition types and reasons (k8s.io/api/batch/v1), and the condition
// helpers of pkg/controller/job (newCondition, ensureJobConditionStatus,
// IsJobFinished).

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { arr, num, rec, str, type Obj } from './json';

export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
export const JOB_COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';
export const JOB_INDEX_FAILURE_COUNT = 'batch.kubernetes.io/job-index-failure-count';
export const JOB_INDEX_IGNORED_FAILURE_COUNT = 'batch.kubernetes.io/job-index-ignored-failure-count';
export const COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';
/** spec.managedBy of a Job the built-in controller syncs (others belong to an external controller). */
export const JOB_CONTROLLER_NAME = 'kubernetes.io/job-controller';

export const REASON_BACKOFF_LIMIT_EXCEEDED = 'BackoffLimitExceeded';
export const REASON_DEADLINE_EXCEEDED = 'DeadlineExceeded';
export const REASON_POD_FAILURE_POLICY = 'PodFailurePolicy';
export const REASON_MAX_FAILED_INDEXES_EXCEEDED = 'MaxFailedIndexesExceeded';
export const REASON_FAILED_INDEXES = 'FailedIndexes';
export const REASON_SUCCESS_POLICY = 'SuccessPolicy';
export const REASON_COMPLETIONS_REACHED = 'CompletionsReached';

export const MESSAGE_BACKOFF_LIMIT_EXCEEDED = 'Job has reached the specified backoff limit';
export const MESSAGE_DEADLINE_EXCEEDED = 'Job was active longer than specified deadline';
export const MESSAGE_MAX_FAILED_INDEXES_EXCEEDED = 'Job has exceeded the specified maximal number of failed indexes';
export const MESSAGE_FAILED_INDEXES = 'Job has failed indexes';
export const MESSAGE_COMPLETIONS_REACHED = 'Reached expected number of succeeded pods';

export interface JobCondition {
  type: string;
  status: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export const jobSpec = (job: KubeObject): Obj => rec(job.spec);
export const jobStatus = (job: KubeObject): Obj => rec(job.status);
export const completions = (job: KubeObject): number | undefined => num(jobSpec(job).completions);
export const parallelism = (job: KubeObject): number => num(jobSpec(job).parallelism) ?? 1;
export const backoffLimit = (job: KubeObject): number => num(jobSpec(job).backoffLimit) ?? 6;
export const isIndexedJob = (job: KubeObject): boolean => jobSpec(job).completionMode === 'Indexed';
export const hasBackoffLimitPerIndex = (job: KubeObject): boolean => num(jobSpec(job).backoffLimitPerIndex) !== undefined;
export const isSuspended = (job: KubeObject): boolean => jobSpec(job).suspend === true;
export const podFailurePolicy = (job: KubeObject): Obj | undefined => {
  const p = jobSpec(job).podFailurePolicy;
  return p && typeof p === 'object' ? (p as Obj) : undefined;
};

/** onlyReplaceFailedPods: podReplacementPolicy Failed (always so with a pod failure policy). */
export const onlyReplaceFailedPods = (job: KubeObject): boolean => jobSpec(job).podReplacementPolicy === 'Failed' || podFailurePolicy(job) !== undefined;

/** A Job whose spec.managedBy names another controller: the built-in one leaves it alone. */
export function managedByExternalController(job: KubeObject): string | undefined {
  const by = jobSpec(job).managedBy;
  return typeof by === 'string' && by !== JOB_CONTROLLER_NAME ? by : undefined;
}

export const conditionsOf = (job: KubeObject): JobCondition[] => arr(jobStatus(job).conditions).map((c) => rec(c) as unknown as JobCondition);

export function findCondition(list: readonly JobCondition[], type: string): JobCondition | undefined {
  return list.find((c) => c.type === type);
}

/** IsJobFinished: a Complete or Failed condition that is True. */
export function finishedCondition(job: KubeObject): JobCondition | undefined {
  return conditionsOf(job).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}
export const isJobFinished = (job: KubeObject): boolean => finishedCondition(job) !== undefined;
export const isJobSucceeded = (job: KubeObject): boolean => conditionsOf(job).some((c) => c.type === 'Complete' && c.status === 'True');

export function newCondition(type: string, status: string, reason: string, message: string, nowMs: number): JobCondition {
  const t = rfc3339(nowMs);
  return { type, status, lastProbeTime: t, lastTransitionTime: t, reason, message };
}

/**
 * ensureJobConditionStatus: sets a condition of the type to the status,
 * reason and message (a new one only when not False); whether it changed.
 */
export function ensureConditionStatus(list: JobCondition[], type: string, status: string, reason: string, message: string, nowMs: number): boolean {
  const i = list.findIndex((c) => c.type === type);
  if (i >= 0) {
    const c = list[i]!;
    if (c.status === status && (c.reason ?? '') === reason && (c.message ?? '') === message) return false;
    list[i] = newCondition(type, status, reason, message, nowMs);
    return true;
  }
  if (status === 'False') return false;
  list.push(newCondition(type, status, reason, message, nowMs));
  return true;
}

// --- pods ---

export const podPhase = (pod: KubeObject): string => str(rec(pod.status).phase);
export const podAnnotations = (pod: KubeObject): Record<string, string> => pod.metadata?.annotations ?? {};
export const hasTrackingFinalizer = (pod: KubeObject): boolean => (pod.metadata?.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);

export function podCondition(pod: KubeObject, type: string): Obj | undefined {
  return arr(rec(pod.status).conditions).map(rec).find((c) => c.type === type);
}
export const isPodReady = (pod: KubeObject): boolean => podCondition(pod, 'Ready')?.status === 'True';

/** controller.FilterActivePods: neither Succeeded nor Failed, nor being deleted. */
export const isPodActive = (pod: KubeObject): boolean => {
  const phase = podPhase(pod);
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
};
/** controller.IsPodTerminating: being deleted but not terminal yet. */
export const isPodTerminating = (pod: KubeObject): boolean => {
  const phase = podPhase(pod);
  return !!pod.metadata?.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
};

/** isPodFailed: Failed, or (unless only failed pods are replaced) deleted before it succeeded. */
export function isPodFailed(pod: KubeObject, job: KubeObject): boolean {
  const phase = podPhase(pod);
  if (phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return !!pod.metadata?.deletionTimestamp && phase !== 'Succeeded';
}

/** The controller owner reference of an object, if any. */
export function controllerRef(obj: KubeObject): { apiVersion: string; kind: string; name: string; uid: string } | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}
