// The Job controller through the real server: pods are made from the
// template and finished here through pods/status, as a kubelet would; the
// Job's status, conditions and events are what a client reads.

import { afterEach, describe, expect, it } from 'vitest';
import { jobManifest, startBatchTestBed, type BatchTestBed } from './job-test-support';

const JOBS = '/apis/batch/v1/namespaces/default/jobs';
let bed: BatchTestBed | undefined;
afterEach(async () => {
  // Nothing failed along the way (a sync error is logged and retried).
  expect(bed?.logs.filter((l) => /error|failed/i.test(l)) ?? []).toEqual([]);
  await bed?.close();
  bed = undefined;
});

const start = async () => (bed = await startBatchTestBed(['job', 'garbagecollector']));
const cond = (job: { status?: { conditions?: { type: string }[] } }, type: string) => job.status?.conditions?.find((c) => c.type === type);

describe('job controller', () => {
  it('runs a job of completions 3 and parallelism 2 to Complete', async () => {
    const b = await start();
    expect((await b.ts.post(JOBS, jobManifest('pi', { completions: 3, parallelism: 2 }))).status).toBe(201);
    await b.idle();
    let pods = await b.pods('job-name=pi');
    expect(pods).toHaveLength(2);
    const uid = (await b.job('pi')).metadata.uid;
    expect(pods[0].metadata.generateName).toBe('pi-');
    expect(pods[0].metadata.labels).toMatchObject({ 'batch.kubernetes.io/job-name': 'pi', 'job-name': 'pi', 'batch.kubernetes.io/controller-uid': uid, 'controller-uid': uid });
    expect(pods[0].metadata.finalizers).toEqual(['batch.kubernetes.io/job-tracking']);
    expect(pods[0].metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid, controller: true, blockOwnerDeletion: true }]);
    let job = await b.job('pi');
    expect(job.status).toMatchObject({ active: 2, ready: 0, terminating: 0, startTime: '2024-12-11T12:00:00Z', uncountedTerminatedPods: {} });

    await b.finishPod(pods[0].metadata.name, 0);
    pods = await b.pods('job-name=pi');
    expect(pods).toHaveLength(3);
    expect(pods.find((p) => p.status.phase === 'Succeeded').metadata.finalizers).toBeUndefined();
    job = await b.job('pi');
    expect(job.status).toMatchObject({ active: 2, succeeded: 1 });

    for (const p of pods.filter((x) => x.status.phase !== 'Succeeded')) await b.finishPod(p.metadata.name, 0);
    job = await b.job('pi');
    expect(job.status.succeeded).toBe(3);
    expect(job.status.active).toBeUndefined();
    expect(job.status.completionTime).toBe('2024-12-11T12:00:00Z');
    expect(job.status.conditions).toEqual([
      { type: 'SuccessCriteriaMet', status: 'True', lastProbeTime: '2024-12-11T12:00:00Z', lastTransitionTime: '2024-12-11T12:00:00Z', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
      { type: 'Complete', status: 'True', lastProbeTime: '2024-12-11T12:00:00Z', lastTransitionTime: '2024-12-11T12:00:00Z', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
    ]);
    const events = (await b.events()).filter((e) => e.involvedObject.kind === 'Job');
    expect(events.filter((e) => e.reason === 'SuccessfulCreate')).toHaveLength(3);
    expect(events.find((e) => e.reason === 'Completed')).toMatchObject({ type: 'Normal', message: 'Job completed', source: { component: 'job-controller' } });
    expect(events.find((e) => e.reason === 'SuccessfulCreate')!.message).toMatch(/^Created pod: pi-[a-z0-9]{5}$/);
    // The table kubectl prints.
    const table = await b.ts.get(`${JOBS}/pi`, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.rows[0].cells.slice(0, 3)).toEqual(['pi', 'Complete', '3/3']);
  });

  it('fails with BackoffLimitExceeded after back-offs of 10 s and 20 s', async () => {
    const b = await start();
    await b.ts.post(JOBS, jobManifest('fail', { backoffLimit: 2 }));
    await b.idle();
    let pods = await b.pods('job-name=fail');
    expect(pods).toHaveLength(1);
    await b.finishPod(pods[0].metadata.name, 1);
    // Nothing new before the 10 s back-off has passed.
    expect(await b.pods('job-name=fail')).toHaveLength(1);
    expect((await b.job('fail')).status).toMatchObject({ failed: 1 });
    await b.advance(9_000);
    expect(await b.pods('job-name=fail')).toHaveLength(1);
    await b.advance(1_000);
    pods = await b.pods('job-name=fail');
    expect(pods).toHaveLength(2);
    await b.finishPod(pods.find((p) => p.status.phase !== 'Failed').metadata.name, 1);
    await b.advance(19_000);
    expect(await b.pods('job-name=fail')).toHaveLength(2);
    await b.advance(1_000);
    pods = await b.pods('job-name=fail');
    expect(pods).toHaveLength(3);
    await b.finishPod(pods.find((p) => p.status.phase !== 'Failed').metadata.name, 1);
    const job = await b.job('fail');
    expect(job.status.failed).toBe(3);
    expect(cond(job, 'FailureTarget')).toMatchObject({ status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
    expect(cond(job, 'Failed')).toMatchObject({ status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
    expect(job.status.completionTime).toBeUndefined();
    const events = await b.events();
    expect(events.find((e) => e.reason === 'BackoffLimitExceeded')).toMatchObject({ type: 'Warning', message: 'Job has reached the specified backoff limit' });
    // All pods released their finalizer.
    for (const p of await b.pods('job-name=fail')) expect(p.metadata.finalizers).toBeUndefined();
    const table = await b.ts.get(`${JOBS}/fail`, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.rows[0].cells.slice(0, 3)).toEqual(['fail', 'Failed', '0/1']);
  });

  it('runs an Indexed job: index annotation, label, hostname, env and completedIndexes', async () => {
    const b = await start();
    await b.ts.post(JOBS, jobManifest('idx', { completions: 3, parallelism: 3, completionMode: 'Indexed' }));
    await b.idle();
    const pods = await b.pods('job-name=idx');
    expect(pods).toHaveLength(3);
    const byIndex = new Map(pods.map((p) => [p.metadata.annotations['batch.kubernetes.io/job-completion-index'], p]));
    expect([...byIndex.keys()].sort()).toEqual(['0', '1', '2']);
    const p1 = byIndex.get('1');
    expect(p1.metadata.generateName).toBe('idx-1-');
    expect(p1.metadata.labels['batch.kubernetes.io/job-completion-index']).toBe('1');
    expect(p1.spec.hostname).toBe('idx-1');
    expect(p1.spec.containers[0].env).toEqual([
      { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" } } },
    ]);
    await b.finishPod(byIndex.get('0').metadata.name, 0);
    await b.finishPod(byIndex.get('2').metadata.name, 0);
    expect((await b.job('idx')).status).toMatchObject({ completedIndexes: '0,2', succeeded: 2, active: 1 });
    await b.finishPod(p1.metadata.name, 0);
    const job = await b.job('idx');
    expect(job.status).toMatchObject({ completedIndexes: '0-2', succeeded: 3 });
    expect(cond(job, 'Complete')).toMatchObject({ status: 'True' });
  });

  it('fails an Indexed job with backoffLimitPerIndex when an index fails (FailedIndexes)', async () => {
    const b = await start();
    await b.ts.post(JOBS, jobManifest('pi-idx', { completions: 2, parallelism: 2, completionMode: 'Indexed', backoffLimitPerIndex: 0 }));
    await b.idle();
    const pods = await b.pods('job-name=pi-idx');
    expect(pods.map((p) => p.metadata.annotations['batch.kubernetes.io/job-index-failure-count'])).toEqual(['0', '0']);
    const byIndex = new Map(pods.map((p) => [p.metadata.annotations['batch.kubernetes.io/job-completion-index'], p]));
    await b.finishPod(byIndex.get('0').metadata.name, 1);
    let job = await b.job('pi-idx');
    expect(job.status).toMatchObject({ failedIndexes: '0', failed: 1, active: 1 });
    // The failed index is not retried.
    expect(await b.pods('job-name=pi-idx')).toHaveLength(2);
    await b.finishPod(byIndex.get('1').metadata.name, 0);
    job = await b.job('pi-idx');
    expect(job.status).toMatchObject({ failedIndexes: '0', completedIndexes: '1', succeeded: 1, failed: 1 });
    expect(cond(job, 'Failed')).toMatchObject({ reason: 'FailedIndexes', message: 'Job has failed indexes' });
  });

  it('suspends and resumes', async () => {
    const b = await start();
    await b.ts.post(JOBS, jobManifest('s', { suspend: true, parallelism: 2, completions: 4 }));
    await b.idle();
    expect(await b.pods('job-name=s')).toHaveLength(0);
    let job = await b.job('s');
    expect(cond(job, 'Suspended')).toMatchObject({ status: 'True', reason: 'JobSuspended', message: 'Job suspended' });
    expect(job.status.startTime).toBeUndefined();
    await b.ts.patch(`${JOBS}/s`, { spec: { suspend: false } }, 'application/merge-patch+json');
    await b.idle();
    expect(await b.pods('job-name=s')).toHaveLength(2);
    job = await b.job('s');
    expect(cond(job, 'Suspended')).toMatchObject({ status: 'False', reason: 'JobResumed', message: 'Job resumed' });
    expect(job.status.startTime).toBeDefined();
    await b.ts.patch(`${JOBS}/s`, { spec: { suspend: true } }, 'application/merge-patch+json');
    await b.idle();
    expect(await b.pods('job-name=s')).toHaveLength(0);
    job = await b.job('s');
    expect(job.status.active).toBeUndefined();
    expect(job.status.failed).toBeUndefined();
    const reasons = (await b.events()).map((e) => e.reason);
    expect(reasons).toEqual(expect.arrayContaining(['Suspended', 'Resumed', 'SuccessfulDelete']));
  });

  it('fails with DeadlineExceeded when activeDeadlineSeconds passes on the clock', async () => {
    const b = await start();
    await b.ts.post(JOBS, jobManifest('d', { activeDeadlineSeconds: 30 }));
    await b.idle();
    expect(await b.pods('job-name=d')).toHaveLength(1);
    await b.advance(29_000);
    expect(cond(await b.job('d'), 'Failed')).toBeUndefined();
    await b.advance(1_000);
    const job = await b.job('d');
    expect(cond(job, 'Failed')).toMatchObject({ reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' });
    expect(job.status.failed).toBe(1);
    expect(await b.pods('job-name=d')).toHaveLength(0);
    expect((await b.events()).find((e) => e.reason === 'DeadlineExceeded')).toMatchObject({ type: 'Warning' });
  });

  it('fails the job at once on a FailJob pod failure policy rule', async () => {
    const b = await start();
    await b.ts.post(
      JOBS,
      jobManifest('pfp', { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'c', operator: 'In', values: [42] } }] } }),
    );
    await b.idle();
    const [pod] = await b.pods('job-name=pfp');
    await b.finishPod(pod.metadata.name, 42);
    const job = await b.job('pfp');
    expect(cond(job, 'Failed')).toMatchObject({
      reason: 'PodFailurePolicy',
      message: `Container c for pod default/${pod.metadata.name} failed with exit code 42 matching FailJob rule at index 0`,
    });
  });
});
