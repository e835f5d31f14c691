// kube-controller-manager's Job controller (pkg/controller/job): runs each
// batch/v1 Job's pods to completion. Jobs and pods are watched through the
// shared informers; pod events wake the owning Job (observing the
// controller's expectations); a finished or deleted Job's pods and orphans
// lose the tracking finalizer through a second queue. Every wait — the pod
// failure back-off, activeDeadlineSeconds — is a timer on the cluster
// Clock. Events are recorded as "job-controller".

import type { KubeObject } from '../../kinds/types';
import { labelSelectorAsSelector } from '../../selectors';
import { isConflict, isNotFound } from '../client/api-error';
import { objectKey } from '../client/informer';
import type { GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import type { BackoffRecord } from './backoff';
import { ClockRequeue, CountingExpectations } from '../workloads';
import { FinalizerExpectations } from './expectations';
import { controllerRef, hasTrackingFinalizer, isJobFinished, jobSpec, managedByExternalController } from './job-model';
import { syncJob } from './job-sync';
import { num, timeMs } from './json';
import { PodControl, PODS } from './pod-control';
import type { JobDeps } from './sync-context';

export const JOB_CONTROLLER = 'job-controller';
export const JOBS: GroupVersionResource = { group: 'batch', version: 'v1', resource: 'jobs' };

export function jobController(ctx: ControllerContext): Controller {
  const jobs = ctx.informers.for(JOBS);
  const pods = ctx.informers.for(PODS);
  const recorder = ctx.recorder(JOB_CONTROLLER);
  const unsubscribe: (() => void)[] = [];
  const now = () => ctx.clock.now();

  const queue: WorkQueue = new WorkQueue(
    JOB_CONTROLLER,
    ctx.activity,
    async (key) => {
      try {
        await syncJob(deps, jobs, pods, key);
      } catch (err) {
        // The cached Job was older than the stored one (often our own status write not seen yet):
        // its update reaches the informer and queues the Job again, so this is no failure to retry.
        if (isConflict(err)) return;
        throw err;
      }
    },
    ctx.log,
  );
  const requeue = new ClockRequeue(ctx.timers, (key) => queue.add(key));
  const deps: JobDeps = {
    client: ctx.client,
    podControl: new PodControl(ctx.client, recorder),
    recorder,
    expectations: new CountingExpectations(ctx.clock),
    finalizerExpectations: new FinalizerExpectations(),
    backoffs: new Map<string, BackoffRecord>(),
    requeue,
    now,
    log: ctx.log,
  };

  // Orphan pods (and pods of finished or deleted Jobs) that still carry the tracking finalizer.
  const orphanQueue = new WorkQueue(
    `${JOB_CONTROLLER}/orphan-pods`,
    ctx.activity,
    async (key) => {
      const slash = key.indexOf('/');
      const pod = pods.get(key.slice(0, slash), key.slice(slash + 1));
      if (!pod) return;
      const ref = controllerRef(pod);
      if (ref) {
        if (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1') return;
        const job = resolve(pod.metadata?.namespace ?? '', ref);
        if (job && managedByExternalController(job)) return;
        // Adopted meanwhile by a Job still running: its finalizer stays.
        if (job && !isJobFinished(job)) return;
      }
      try {
        await deps.podControl.removeTrackingFinalizer(pod);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
    ctx.log,
  );

  const resolve = (namespace: string, ref: { kind: string; name: string; uid: string }): KubeObject | undefined => {
    if (ref.kind !== 'Job') return undefined;
    const job = jobs.get(namespace, ref.name);
    return job && job.metadata?.uid === ref.uid ? job : undefined;
  };
  const enqueue = (job: KubeObject) => {
    if (!managedByExternalController(job)) queue.add(objectKey(job));
  };
  const enqueueOrphan = (pod: KubeObject) => orphanQueue.add(objectKey(pod));

  /** Jobs of the pod's namespace whose selector matches it (who might adopt an orphan). */
  const podJobs = (pod: KubeObject): KubeObject[] =>
    jobs.list(pod.metadata?.namespace ?? '').filter((job) => {
      try {
        const sel = jobSpec(job).selector;
        return !!sel && labelSelectorAsSelector(sel as never).matches(pod.metadata?.labels ?? {});
      } catch {
        return false;
      }
    });

  const cleanupPodFinalizers = (job: KubeObject) => {
    let selector;
    try {
      selector = labelSelectorAsSelector(jobSpec(job).selector as never);
    } catch {
      return;
    }
    for (const pod of pods.list(job.metadata?.namespace ?? '')) {
      if (!selector.matches(pod.metadata?.labels ?? {})) continue;
      if (controllerRef(pod)?.uid === job.metadata?.uid && hasTrackingFinalizer(pod)) enqueueOrphan(pod);
    }
  };

  const podDeleted = (pod: KubeObject, final: boolean) => {
    const ref = controllerRef(pod);
    const hasFinalizer = hasTrackingFinalizer(pod);
    if (!ref) {
      if (hasFinalizer) enqueueOrphan(pod);
      return;
    }
    const job = resolve(pod.metadata?.namespace ?? '', ref);
    if (!job || isJobFinished(job)) {
      if (hasFinalizer) enqueueOrphan(pod);
      return;
    }
    const key = objectKey(job);
    deps.expectations.deletionObserved(key);
    if (final || !hasFinalizer) deps.finalizerExpectations.observed(key, pod.metadata?.uid ?? '');
    enqueue(job);
  };

  const podAdded = (pod: KubeObject) => {
    if (pod.metadata?.deletionTimestamp) return podDeleted(pod, false);
    const ref = controllerRef(pod);
    if (ref) {
      const job = resolve(pod.metadata?.namespace ?? '', ref);
      if (!job) return;
      deps.expectations.creationObserved(objectKey(job));
      enqueue(job);
      return;
    }
    if (hasTrackingFinalizer(pod)) enqueueOrphan(pod);
    podJobs(pod).forEach(enqueue);
  };

  const podUpdated = (old: KubeObject, cur: KubeObject) => {
    if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
    if (cur.metadata?.deletionTimestamp) return podDeleted(cur, false);
    const finalizerRemoved = !hasTrackingFinalizer(cur);
    const curRef = controllerRef(cur);
    const oldRef = controllerRef(old);
    const refChanged = JSON.stringify(curRef) !== JSON.stringify(oldRef);
    const ns = cur.metadata?.namespace ?? '';
    if (refChanged && oldRef) {
      const job = resolve(ns, oldRef);
      if (job) {
        if (finalizerRemoved) deps.finalizerExpectations.observed(objectKey(job), cur.metadata?.uid ?? '');
        enqueue(job);
      }
    }
    if (curRef) {
      const job = resolve(ns, curRef);
      if (!job) return;
      if (finalizerRemoved) deps.finalizerExpectations.observed(objectKey(job), cur.metadata?.uid ?? '');
      enqueue(job);
      return;
    }
    if (hasTrackingFinalizer(cur)) enqueueOrphan(cur);
    if (refChanged || JSON.stringify(cur.metadata?.labels ?? {}) !== JSON.stringify(old.metadata?.labels ?? {})) podJobs(cur).forEach(enqueue);
  };

  const jobUpdated = (old: KubeObject, cur: KubeObject) => {
    enqueue(cur);
    // A backup: a finished Job's pods must not keep the finalizer.
    if (isJobFinished(cur)) cleanupPodFinalizers(cur);
    const start = timeMs((cur.status as { startTime?: string } | undefined)?.startTime);
    const ads = num(jobSpec(cur).activeDeadlineSeconds);
    if (start !== undefined && ads !== undefined && ads !== num(jobSpec(old).activeDeadlineSeconds)) {
      requeue.at(objectKey(cur), start + ads * 1000);
    }
  };

  return {
    name: JOB_CONTROLLER,
    start() {
      void Promise.all([jobs.synced, pods.synced]).then(() => {
        unsubscribe.push(
          jobs.addHandler({
            onAdd: enqueue,
            onUpdate: jobUpdated,
            onDelete: (job) => {
              queue.add(objectKey(job));
              cleanupPodFinalizers(job);
            },
          }),
        );
        unsubscribe.push(pods.addHandler({ onAdd: podAdded, onUpdate: podUpdated, onDelete: (pod) => podDeleted(pod, true) }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      requeue.stop();
      await Promise.all([queue.stop(), orphanQueue.stop()]);
    },
  };
}
