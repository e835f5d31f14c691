// The CronJob controller through the real server on a manual Clock: moving
// the Clock fires the due run (only the latest of many missed), the Jobs it
// creates carry kube's names, annotation and owner; concurrency policies,
// history limits and status read as on a real cluster. Jobs are finished
// here by writing their status, as the Job controller would.

import { afterEach, describe, expect, it } from 'vitest';
import { rfc3339 } from '../../clock';
import { startBatchTestBed, type BatchTestBed } from '../job/job-test-support';

const CJ = '/apis/batch/v1/namespaces/default/cronjobs';
const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const T0 = Date.UTC(2024, 11, 11, 12, 0, 0);
const MIN = 60_000;
let bed: BatchTestBed | undefined;
afterEach(async () => {
  expect(bed?.logs.filter((l) => /error|failed/i.test(l)) ?? []).toEqual([]);
  await bed?.close();
  bed = undefined;
});

const cronJob = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name },
  spec: {
    schedule: '*/5 * * * *',
    ...spec,
    jobTemplate: { metadata: { labels: { app: name } }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } },
  },
});

async function jobs(b: BatchTestBed): Promise<any[]> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return ((await b.ts.get(JOBS)).body.items as { metadata: { name: string } }[]).sort((x, y) => (x.metadata.name < y.metadata.name ? -1 : 1));
}

/** Finishes a Job as the Job controller would write it. */
async function finishJob(b: BatchTestBed, name: string, type: 'Complete' | 'Failed'): Promise<void> {
  const job = (await b.ts.get(`${JOBS}/${name}`)).body;
  const now = rfc3339(b.ts.clock.now());
  const c = (t: string, reason: string) => ({ type: t, status: 'True', lastProbeTime: now, lastTransitionTime: now, reason, message: '' });
  job.status =
    type === 'Complete'
      ? { startTime: now, completionTime: now, succeeded: 1, conditions: [c('SuccessCriteriaMet', 'CompletionsReached'), c('Complete', 'CompletionsReached')] }
      : { startTime: now, failed: 1, conditions: [c('FailureTarget', 'BackoffLimitExceeded'), c('Failed', 'BackoffLimitExceeded')] };
  const res = await b.ts.put(`${JOBS}/${name}/status`, job);
  if (res.status !== 200) throw new Error(`jobs/status: ${res.status} ${res.text}`);
  await b.idle();
}

const start = async () => (bed = await startBatchTestBed(['cronjob', 'garbagecollector']));
const reasons = async (b: BatchTestBed) => (await b.events()).filter((e) => e.involvedObject.kind === 'CronJob').map((e) => `${e.reason}: ${e.message}`);

describe('cronjob controller', () => {
  it('creates the run when the Clock reaches it, with kube’s name, annotation and owner', async () => {
    const b = await start();
    expect((await b.ts.post(CJ, cronJob('hello'))).status).toBe(201);
    await b.idle();
    expect(await jobs(b)).toHaveLength(0);
    await b.advance(5 * MIN - 1000);
    expect(await jobs(b)).toHaveLength(0);
    await b.advance(1001 + 100);
    const [job] = await jobs(b);
    const minutes = (T0 + 5 * MIN) / MIN;
    const cj = (await b.ts.get(`${CJ}/hello`)).body;
    expect(job.metadata.name).toBe(`hello-${minutes}`);
    expect(job.metadata.labels).toEqual({ app: 'hello' });
    expect(job.metadata.annotations).toEqual({ 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2024-12-11T12:05:00Z' });
    expect(job.metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: cj.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(cj.status.lastScheduleTime).toBe('2024-12-11T12:05:00Z');
    expect(cj.status.active).toEqual([{ kind: 'Job', namespace: 'default', name: job.metadata.name, uid: job.metadata.uid, apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion }]);
    expect(await reasons(b)).toContain(`SuccessfulCreate: Created job hello-${minutes}`);

    await finishJob(b, job.metadata.name, 'Complete');
    const after = (await b.ts.get(`${CJ}/hello`)).body;
    expect(after.status.active).toBeUndefined();
    expect(after.status.lastSuccessfulTime).toBe(rfc3339(b.ts.clock.now()));
    expect(await reasons(b)).toContain(`SawCompletedJob: Saw completed job: hello-${minutes}, condition: Complete`);
  });

  it('starts only the most recent missed run, and warns when more than 100 were missed', async () => {
    const b = await start();
    await b.ts.post(CJ, cronJob('every', { schedule: '* * * * *' }));
    await b.idle();
    await b.advance(3 * 60 * MIN + 30_000);
    const all = await jobs(b);
    expect(all.map((j) => j.metadata.name)).toEqual([`every-${T0 / MIN + 180}`]);
    expect(await reasons(b)).toContain('TooManyMissedTimes: too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
  });

  it('honours a time zone: a 09:00 Europe/Berlin run is 08:00 UTC in December', async () => {
    const b = await start();
    await b.ts.post(CJ, cronJob('tz', { schedule: '0 9 * * *', timeZone: 'Europe/Berlin' }));
    await b.idle();
    await b.advance(20 * 60 * MIN + 1000);
    const [job] = await jobs(b);
    expect(job.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe('2024-12-12T09:00:00+01:00');
    expect((await b.ts.get(`${CJ}/tz`)).body.status.lastScheduleTime).toBe('2024-12-12T08:00:00Z');
  });

  it('Forbid skips a run while one is active; Replace deletes the active one', async () => {
    const b = await start();
    await b.ts.post(CJ, cronJob('forbid', { concurrencyPolicy: 'Forbid' }));
    await b.ts.post(CJ, cronJob('replace', { concurrencyPolicy: 'Replace' }));
    await b.idle();
    await b.advance(5 * MIN + 1000);
    await b.advance(5 * MIN);
    const names = (await jobs(b)).map((j) => j.metadata.name);
    expect(names.filter((n) => n.startsWith('forbid-'))).toEqual([`forbid-${T0 / MIN + 5}`]);
    expect(names.filter((n) => n.startsWith('replace-'))).toEqual([`replace-${T0 / MIN + 10}`]);
    const r = await reasons(b);
    expect(r).toContain('JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid');
    expect(r).toContain(`SuccessfulDelete: Deleted job replace-${T0 / MIN + 5}`);
    const replace = (await b.ts.get(`${CJ}/replace`)).body;
    expect(replace.status.active.map((a: { name: string }) => a.name)).toEqual([`replace-${T0 / MIN + 10}`]);
  });

  it('keeps successfulJobsHistoryLimit finished jobs and suspends', async () => {
    const b = await start();
    await b.ts.post(CJ, cronJob('hist', { successfulJobsHistoryLimit: 1 }));
    await b.idle();
    await b.advance(5 * MIN + 1000);
    await finishJob(b, `hist-${T0 / MIN + 5}`, 'Complete');
    await b.advance(5 * MIN);
    await finishJob(b, `hist-${T0 / MIN + 10}`, 'Complete');
    expect((await jobs(b)).map((j) => j.metadata.name)).toEqual([`hist-${T0 / MIN + 10}`]);
    expect(await reasons(b)).toContain(`SuccessfulDelete: Deleted job hist-${T0 / MIN + 5}`);
    await b.ts.patch(`${CJ}/hist`, { spec: { suspend: true } }, 'application/merge-patch+json');
    await b.idle();
    await b.advance(10 * MIN);
    expect((await jobs(b)).map((j) => j.metadata.name)).toEqual([`hist-${T0 / MIN + 10}`]);
  });

  it('skips a run missed by more than startingDeadlineSeconds', async () => {
    const b = await start();
    await b.ts.post(CJ, cronJob('late', { schedule: '0 * * * *', startingDeadlineSeconds: 30 }));
    await b.idle();
    // The clock jumps past 13:00 by two minutes at once: that run is too late to start.
    b.ts.clock.advance(62 * MIN);
    await b.advance(0);
    expect(await jobs(b)).toHaveLength(0);
    await b.advance(58 * MIN + 1000);
    expect((await jobs(b)).map((j) => j.metadata.name)).toEqual([`late-${T0 / MIN + 120}`]);
  });
});
