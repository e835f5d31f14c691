// kube-controller-manager's CronJob controller (cronjob_controllerv2): on
// the cluster Clock, each CronJob's next run is a timer; when it comes (or
// the Clock is moved past it) the controller creates that run's Job — only
// the most recent of several missed runs, never one older than
// startingDeadlineSeconds — honouring concurrencyPolicy (Allow, Forbid,
// Replace) and suspend, keeps status.active / lastScheduleTime /
// lastSuccessfulTime, and deletes finished Jobs beyond the history limits.
// Events are kube's, recorded as "cronjob-controller".

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { errorMessage, isAlreadyExists, isConflict, isNotFound } from '../client/api-error';
import { objectKey } from '../client/informer';
import { resourcePath, type GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { isNamespaceTerminating } from '../runtime/namespaces';
import { WorkQueue } from '../runtime/work-queue';
import { ClockRequeue } from '../workloads';
import { controllerRef, finishedCondition, isJobFinished, isJobSucceeded } from '../job/job-model';
import { arr, clone, num, rec, str, timeMs, type Obj } from '../job/json';
import { parseSchedule, ScheduleError, type Schedule } from './cron-schedule';
import { jobFromTemplate, jobNameFor } from './job-from-template';
import { InvalidScheduleError, nextScheduleDelayMs, scheduleTimeToRun, type CronTimes } from './schedule-times';
import { loadZone, UTC } from './zoned-time';

export const CRONJOB_CONTROLLER = 'cronjob-controller';
export const CRONJOBS: GroupVersionResource = { group: 'batch', version: 'v1', resource: 'cronjobs' };
export const JOBS: GroupVersionResource = { group: 'batch', version: 'v1', resource: 'jobs' };

interface JobRef {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
}

const activeOf = (cj: KubeObject): JobRef[] => arr(rec(cj.status).active).map((r) => rec(r) as JobRef);
const inActiveList = (cj: KubeObject, uid: string | undefined) => activeOf(cj).some((r) => r.uid === uid);
function deleteFromActiveList(cj: KubeObject, uid: string | undefined): void {
  cj.status = { ...rec(cj.status), active: activeOf(cj).filter((r) => r.uid !== uid) };
}

/** time.RFC1123Z in UTC: "Wed, 11 Dec 2024 12:05:00 +0000". */
function rfc1123z(ms: number): string {
  const d = new Date(ms);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${p(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** byJobStartTime: started before not started, earlier first, then by name. */
function byJobStartTime(a: KubeObject, b: KubeObject): number {
  const sa = timeMs(rec(a.status).startTime);
  const sb = timeMs(rec(b.status).startTime);
  if (sa === undefined && sb !== undefined) return 1;
  if (sa !== undefined && sb === undefined) return -1;
  if (sa === sb) return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
  return sa! - sb!;
}

/** The ObjectReference kube keeps in status.active. */
const jobRef = (job: KubeObject): JobRef => ({
  kind: 'Job',
  namespace: job.metadata?.namespace,
  name: job.metadata?.name,
  uid: job.metadata?.uid,
  apiVersion: 'batch/v1',
  resourceVersion: job.metadata?.resourceVersion,
});

export function cronJobController(ctx: ControllerContext): Controller {
  const cronJobs = ctx.informers.for(CRONJOBS);
  const jobs = ctx.informers.for(JOBS);
  const recorder = ctx.recorder(CRONJOB_CONTROLLER);
  const unsubscribe: (() => void)[] = [];
  const event = (cj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string) => recorder.emit(cj, { type, reason, message });

  const times = (cj: KubeObject): CronTimes => ({
    lastScheduleMs: timeMs(rec(cj.status).lastScheduleTime),
    creationMs: timeMs(cj.metadata?.creationTimestamp) ?? ctx.clock.now(),
    startingDeadlineSeconds: num(rec(cj.spec).startingDeadlineSeconds),
  });

  /** formatSchedule: the schedule with the CronJob's time zone as a TZ= prefix. */
  const formatSchedule = (cj: KubeObject, warn: boolean): string => {
    const schedule = str(rec(cj.spec).schedule);
    if (schedule.includes('TZ')) {
      if (warn) {
        event(cj, 'Warning', 'UnsupportedSchedule', `CRON_TZ or TZ used in schedule ${JSON.stringify(schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`);
      }
      return schedule;
    }
    const tz = rec(cj.spec).timeZone;
    if (typeof tz === 'string' && loadZone(tz)) return `TZ=${tz} ${schedule}`;
    return schedule;
  };

  async function deleteJob(cj: KubeObject, job: KubeObject): Promise<boolean> {
    try {
      await ctx.client.delete(JOBS, job.metadata?.namespace ?? '', job.metadata?.name ?? '', { propagationPolicy: 'Background' });
    } catch (err) {
      event(cj, 'Warning', 'FailedDelete', `Deleted job: ${errorMessage(err)}`);
      return false;
    }
    deleteFromActiveList(cj, job.metadata?.uid);
    event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata?.name ?? ''}`);
    return true;
  }

  async function cleanupFinishedJobs(cj: KubeObject, children: readonly KubeObject[]): Promise<boolean> {
    const spec = rec(cj.spec);
    const successfulLimit = num(spec.successfulJobsHistoryLimit);
    const failedLimit = num(spec.failedJobsHistoryLimit);
    if (successfulLimit === undefined && failedLimit === undefined) return false;
    const successful: KubeObject[] = [];
    const failed: KubeObject[] = [];
    for (const job of children) {
      const c = finishedCondition(job);
      if (c?.type === 'Complete') successful.push(job);
      else if (c?.type === 'Failed') failed.push(job);
    }
    let updated = false;
    for (const [list, limit] of [
      [successful, successfulLimit],
      [failed, failedLimit],
    ] as const) {
      if (limit === undefined || list.length <= limit) continue;
      const sorted = [...list].sort(byJobStartTime);
      for (const job of sorted.slice(0, list.length - limit)) if (await deleteJob(cj, job)) updated = true;
    }
    return updated;
  }

  /** syncCronJob: returns when to look again and whether the status changed. */
  async function syncCronJob(cjIn: KubeObject, children: readonly KubeObject[]): Promise<{ cj: KubeObject; requeueMs?: number; update: boolean }> {
    let cj = cjIn;
    const now = ctx.clock.now();
    let update = false;
    const childUids = new Set<string>();
    for (const job of children) {
      const uid = job.metadata?.uid ?? '';
      childUids.add(uid);
      const found = inActiveList(cj, uid);
      if (!found && !isJobFinished(job)) {
        const fresh = await ctx.client.get(CRONJOBS, cj.metadata?.namespace ?? '', cj.metadata?.name ?? '');
        if (inActiveList(fresh, uid)) {
          cj = fresh;
          continue;
        }
        event(cj, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${job.metadata?.name ?? ''}`);
      } else if (found && isJobFinished(job)) {
        deleteFromActiveList(cj, uid);
        event(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${job.metadata?.name ?? ''}, condition: ${finishedCondition(job)!.type}`);
        update = true;
      } else if (isJobSucceeded(job)) {
        // Not in the active list, but succeeded: its completion time is the last success, if later.
        const completed = str(rec(job.status).completionTime);
        const last = str(rec(cj.status).lastSuccessfulTime);
        if (completed && (!last || (timeMs(completed) ?? 0) > (timeMs(last) ?? 0))) {
          cj.status = { ...rec(cj.status), lastSuccessfulTime: completed };
          update = true;
        }
      }
    }
    for (const ref of activeOf(cj)) {
      if (childUids.has(ref.uid ?? '')) continue;
      try {
        await ctx.client.get(JOBS, ref.namespace ?? cj.metadata?.namespace ?? '', ref.name ?? '');
      } catch (err) {
        if (!isNotFound(err)) throw err;
        event(cj, 'Normal', 'MissingJob', `Active job went missing: ${ref.name ?? ''}`);
        deleteFromActiveList(cj, ref.uid);
        update = true;
      }
    }
    if (cj.metadata?.deletionTimestamp) return { cj, update };

    const spec = rec(cj.spec);
    const tz = spec.timeZone;
    if (typeof tz === 'string' && !loadZone(tz)) {
      event(cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(tz)}: unknown time zone ${tz}`);
      return { cj, update };
    }
    if (spec.suspend === true) return { cj, update };

    let schedule: Schedule;
    try {
      schedule = parseSchedule(formatSchedule(cj, true));
    } catch (err) {
      if (!(err instanceof ScheduleError)) throw err;
      event(cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(str(spec.schedule))} : ${err.message}`);
      return { cj, update };
    }
    const t = times(cj);
    const next = () => nextScheduleDelayMs(times(cj), now, schedule);
    let run: { time: number | undefined; tooManyMissed: boolean };
    try {
      run = scheduleTimeToRun(t, now, schedule);
    } catch (err) {
      if (!(err instanceof InvalidScheduleError)) throw err;
      event(cj, 'Warning', 'InvalidSchedule', `invalid schedule: ${str(spec.schedule)} : ${err.message}`);
      return { cj, update };
    }
    if (run.tooManyMissed) {
      event(cj, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
    }
    const scheduled = run.time;
    if (scheduled === undefined) return { cj, requeueMs: next(), update };
    const sds = num(spec.startingDeadlineSeconds);
    if (sds !== undefined && scheduled + sds * 1000 < now) {
      event(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
      return { cj, requeueMs: next(), update };
    }
    const name = jobNameFor(cj.metadata?.name ?? '', scheduled);
    if (activeOf(cj).some((r) => r.name === name) || timeMs(rec(cj.status).lastScheduleTime) === scheduled) return { cj, requeueMs: next(), update };
    if (spec.concurrencyPolicy === 'Forbid' && activeOf(cj).length > 0) {
      event(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      return { cj, requeueMs: next(), update };
    }
    if (spec.concurrencyPolicy === 'Replace') {
      for (const ref of activeOf(cj)) {
        let job: KubeObject;
        try {
          job = await ctx.client.get(JOBS, ref.namespace ?? '', ref.name ?? '');
        } catch (err) {
          event(cj, 'Warning', 'FailedGet', `Get job: ${errorMessage(err)}`);
          throw err;
        }
        if (!(await deleteJob(cj, job))) throw new Error(`could not replace job ${job.metadata?.namespace}/${job.metadata?.name}`);
        update = true;
      }
    }

    const zone = loadZone(typeof tz === 'string' ? tz : '') ?? UTC;
    const request = jobFromTemplate(cj, scheduled, zone);
    const ns = cj.metadata?.namespace ?? '';
    let created: KubeObject;
    let existed = false;
    try {
      created = await ctx.client.create(JOBS, ns, request);
    } catch (err) {
      if (isNamespaceTerminating(err)) throw err;
      if (!isAlreadyExists(err)) {
        event(cj, 'Warning', 'FailedCreate', `Error creating job: ${errorMessage(err)}`);
        throw err;
      }
      // Created before but not recorded (or by someone else): record it only if it is ours and not listed.
      existed = true;
      created = await ctx.client.get(JOBS, ns, request.metadata?.name ?? '');
      if (controllerRef(created)?.uid !== cj.metadata?.uid) return { cj, update };
      if (inActiveList(cj, created.metadata?.uid)) return { cj, update };
    }
    if (!existed) event(cj, 'Normal', 'SuccessfulCreate', `Created job ${created.metadata?.name ?? ''}`);
    cj.status = { ...rec(cj.status), active: [...activeOf(cj), jobRef(created)], lastScheduleTime: rfc3339(scheduled) };
    update = true;
    return { cj, requeueMs: next(), update };
  }

  async function updateStatus(cj: KubeObject): Promise<void> {
    const s = rec(cj.status);
    const status: Obj = {};
    const active = activeOf(cj);
    if (active.length > 0) status.active = active;
    if (s.lastScheduleTime) status.lastScheduleTime = s.lastScheduleTime;
    if (s.lastSuccessfulTime) status.lastSuccessfulTime = s.lastSuccessfulTime;
    await ctx.client.call('PUT', resourcePath(CRONJOBS, { namespace: cj.metadata?.namespace, name: cj.metadata?.name, subresource: 'status' }), { ...cj, status });
  }

  const queue = new WorkQueue(
    CRONJOB_CONTROLLER,
    ctx.activity,
    async (key) => {
      const slash = key.indexOf('/');
      const cached = cronJobs.get(key.slice(0, slash), key.slice(slash + 1));
      if (!cached) {
        requeue.forget(key);
        return;
      }
      const uid = cached.metadata?.uid;
      const children = jobs.list(cached.metadata?.namespace ?? '').filter((j) => {
        const ref = controllerRef(j);
        return ref?.kind === 'CronJob' && ref.name === cached.metadata?.name && ref.uid === uid;
      });
      const copy = clone(cached);
      try {
        const cleaned = await cleanupFinishedJobs(copy, children);
        let result: Awaited<ReturnType<typeof syncCronJob>>;
        let syncError: unknown;
        try {
          result = await syncCronJob(copy, children);
        } catch (err) {
          syncError = err;
          result = { cj: copy, update: false };
        }
        if (cleaned || result.update) await updateStatus(result.cj);
        if (result.requeueMs !== undefined) requeue.after(key, result.requeueMs);
        if (syncError) throw syncError;
      } catch (err) {
        // A stale cached CronJob: its newer version is on the way through the informer and queues it again.
        if (isConflict(err)) return;
        throw err;
      }
    },
    ctx.log,
  );
  const requeue = new ClockRequeue(ctx.timers, (key) => queue.add(key));

  const resolve = (job: KubeObject): KubeObject | undefined => {
    const ref = controllerRef(job);
    if (!ref || ref.kind !== 'CronJob') return undefined;
    const cj = cronJobs.get(job.metadata?.namespace ?? '', ref.name);
    return cj && cj.metadata?.uid === ref.uid ? cj : undefined;
  };
  const enqueue = (cj: KubeObject | undefined) => {
    if (cj) queue.add(objectKey(cj));
  };

  const cronJobUpdated = (old: KubeObject, cur: KubeObject) => {
    const o = rec(old.spec);
    const c = rec(cur.spec);
    if (o.schedule === c.schedule && o.timeZone === c.timeZone) return enqueue(cur);
    // A new schedule: look again at its next time (the sync would find nothing to run before).
    let schedule: Schedule;
    try {
      schedule = parseSchedule(formatSchedule(cur, false));
    } catch {
      event(cur, 'Warning', 'UnParseableCronJobSchedule', `unparseable schedule for cronjob: ${str(c.schedule)}`);
      return;
    }
    const delay = nextScheduleDelayMs(times(cur), ctx.clock.now(), schedule);
    if (delay !== undefined) requeue.after(objectKey(cur), delay);
  };

  return {
    name: CRONJOB_CONTROLLER,
    start() {
      void Promise.all([cronJobs.synced, jobs.synced]).then(() => {
        unsubscribe.push(
          jobs.addHandler({
            onAdd: (job) => enqueue(resolve(job)),
            onUpdate: (old, cur) => {
              if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
              const oldOwner = resolve(old);
              const curOwner = resolve(cur);
              if (oldOwner && oldOwner !== curOwner) enqueue(oldOwner);
              enqueue(curOwner);
            },
            onDelete: (job) => enqueue(resolve(job)),
          }),
        );
        unsubscribe.push(cronJobs.addHandler({ onAdd: enqueue, onUpdate: cronJobUpdated, onDelete: (cj) => queue.add(objectKey(cj)) }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      requeue.stop();
      await queue.stop();
    },
  };
}
