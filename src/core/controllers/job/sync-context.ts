// What one sync of a Job works with (pkg/controller/job's syncJobCtx) and the
// services it calls: the Job being reconciled (a private copy whose status
// the steps change), its pods, the condition it is finishing with, counters,
// and the controller's shared bookkeeping.

import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import type { EventRecorder } from '../runtime/event-recorder';
import type { BackoffRecord } from './backoff';
import type { ClockRequeue, CountingExpectations } from '../workloads';
import type { FinalizerExpectations } from './expectations';
import type { OrderedIntervals } from './indexes';
import type { JobCondition } from './job-model';
import type { Obj } from './json';
import type { PodControl } from './pod-control';

export interface UncountedStatus {
  succeeded: string[];
  failed: string[];
}

export interface SyncContext {
  readonly key: string;
  job: KubeObject;
  /** job.status, kept as the object the steps change. */
  status: Obj;
  readonly pods: KubeObject[];
  readonly activePods: KubeObject[];
  finished: JobCondition | undefined;
  succeeded: number;
  failed: number;
  prevSucceededIndexes: OrderedIntervals;
  succeededIndexes: OrderedIntervals;
  failedIndexes: OrderedIntervals | undefined;
  newBackoff: BackoffRecord;
  readonly expectedRmFinalizers: ReadonlySet<string>;
  /** The pods in status.uncountedTerminatedPods when the sync began. */
  readonly uncounted: { readonly succeeded: ReadonlySet<string>; readonly failed: ReadonlySet<string> };
  podsWithDelayedDeletionPerIndex: Map<number, KubeObject>;
  terminating: number;
  ready: number;
}

export interface JobDeps {
  readonly client: ApiClient;
  readonly podControl: PodControl;
  readonly recorder: EventRecorder;
  readonly expectations: CountingExpectations;
  readonly finalizerExpectations: FinalizerExpectations;
  readonly backoffs: Map<string, BackoffRecord>;
  readonly requeue: ClockRequeue;
  readonly now: () => number;
  readonly log: (message: string) => void;
}

export function uncountedOf(status: Obj): UncountedStatus {
  const u = status.uncountedTerminatedPods && typeof status.uncountedTerminatedPods === 'object' ? (status.uncountedTerminatedPods as Obj) : {};
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return { succeeded: list(u.succeeded), failed: list(u.failed) };
}

/** Job status with kube's field order and omissions (JobStatus's omitempty fields). */
export function orderedStatus(status: Obj): Obj {
  const uncounted = uncountedOf(status);
  const out: Obj = {};
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  if (conditions.length > 0) out.conditions = conditions;
  if (status.startTime) out.startTime = status.startTime;
  if (status.completionTime) out.completionTime = status.completionTime;
  for (const k of ['active', 'succeeded', 'failed'] as const) if (typeof status[k] === 'number' && status[k] !== 0) out[k] = status[k];
  if (typeof status.terminating === 'number') out.terminating = status.terminating;
  if (typeof status.completedIndexes === 'string' && status.completedIndexes) out.completedIndexes = status.completedIndexes;
  if (typeof status.failedIndexes === 'string') out.failedIndexes = status.failedIndexes;
  const u: Obj = {};
  if (uncounted.succeeded.length > 0) u.succeeded = uncounted.succeeded;
  if (uncounted.failed.length > 0) u.failed = uncounted.failed;
  out.uncountedTerminatedPods = u;
  if (typeof status.ready === 'number') out.ready = status.ready;
  return out;
}
