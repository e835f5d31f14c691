// kube-controller-manager's TTL-after-finished controller: a Job with
// spec.ttlSecondsAfterFinished is deleted (propagation Foreground, so its
// pods go first, and with its UID as precondition) once that many seconds
// have passed on the cluster Clock since it finished — the
// lastTransitionTime of its Complete or Failed condition. Before deleting it
// reads the Job fresh from the API, in case the TTL was changed.

import type { KubeObject } from '../../kinds/types';
import { isNotFound } from '../client/api-error';
import { objectKey } from '../client/informer';
import type { GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { ClockRequeue } from '../workloads';
import { finishedCondition } from '../job/job-model';
import { num, rec, timeMs } from '../job/json';

export const TTL_AFTER_FINISHED_CONTROLLER = 'ttl-after-finished-controller';
export const JOBS: GroupVersionResource = { group: 'batch', version: 'v1', resource: 'jobs' };

/** needsCleanup: finished, with a TTL. */
export function needsCleanup(job: KubeObject): boolean {
  return num(rec(job.spec).ttlSecondsAfterFinished) !== undefined && finishedCondition(job) !== undefined;
}

/** When the Job's TTL runs out (ms since the epoch), or undefined when it has none or its finish time is unknown. */
export function expiresAt(job: KubeObject): number | undefined {
  if (!needsCleanup(job)) return undefined;
  const finishedAt = timeMs(finishedCondition(job)!.lastTransitionTime);
  if (finishedAt === undefined) return undefined;
  return finishedAt + num(rec(job.spec).ttlSecondsAfterFinished)! * 1000;
}

export function ttlAfterFinishedController(ctx: ControllerContext): Controller {
  const jobs = ctx.informers.for(JOBS);
  const unsubscribe: (() => void)[] = [];

  /** processTTL: whether the TTL has run out; if it will later, a look again then. */
  const expired = (job: KubeObject): boolean => {
    if (job.metadata?.deletionTimestamp || !needsCleanup(job)) return false;
    const at = expiresAt(job);
    if (at === undefined) throw new Error(`unable to find the time when the Job ${job.metadata?.namespace}/${job.metadata?.name} finished`);
    if (at <= ctx.clock.now()) return true;
    requeue.at(objectKey(job), at);
    return false;
  };

  const queue = new WorkQueue(
    TTL_AFTER_FINISHED_CONTROLLER,
    ctx.activity,
    async (key) => {
      const slash = key.indexOf('/');
      const namespace = key.slice(0, slash);
      const name = key.slice(slash + 1);
      const job = jobs.get(namespace, name);
      if (!job || !expired(job)) return;
      let fresh: KubeObject;
      try {
        fresh = await ctx.client.get(JOBS, namespace, name);
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
      if (!expired(fresh)) return;
      try {
        await ctx.client.delete(JOBS, namespace, name, { propagationPolicy: 'Foreground', preconditions: { uid: fresh.metadata?.uid } });
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
    },
    ctx.log,
  );
  const requeue = new ClockRequeue(ctx.timers, (key) => queue.add(key));
  const enqueue = (job: KubeObject) => {
    if (!job.metadata?.deletionTimestamp && needsCleanup(job)) queue.add(objectKey(job));
  };

  return {
    name: TTL_AFTER_FINISHED_CONTROLLER,
    start() {
      void jobs.synced.then(() => {
        unsubscribe.push(jobs.addHandler({ onAdd: enqueue, onUpdate: (_old, cur) => enqueue(cur) }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      requeue.stop();
      await queue.stop();
    },
  };
}
