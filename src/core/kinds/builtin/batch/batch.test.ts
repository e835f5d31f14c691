// batch/v1 against a 1.32 server: Job defaults and generated selector,
// restart policy and immutability messages, CronJob defaults, schedule and
// name checks, and both printers.

import { describe, expect, it } from 'vitest';
import { create, stored, update } from '../common/testing';
import { cronJobsResource } from './cronjobs';
import { jobsResource } from './jobs';

const jobTemplate = (restartPolicy = 'Never') => ({ spec: { restartPolicy, containers: [{ name: 'pi', image: 'perl:5.34' }] } });
const job = (extra: Record<string, unknown> = {}) => ({ metadata: { name: 'pi', namespace: 'd', uid: 'uid-1' }, spec: { template: jobTemplate(), ...extra } });

describe('jobs', () => {
  it('defaults completions/parallelism 1, backoffLimit 6, NonIndexed, suspend false, TerminatingOrFailed', async () => {
    const { obj, errors } = await create(jobsResource, job());
    expect(errors).toEqual([]);
    const spec = obj.spec as any;
    expect([spec.completions, spec.parallelism, spec.backoffLimit, spec.completionMode, spec.suspend, spec.podReplacementPolicy]).toEqual([1, 1, 6, 'NonIndexed', false, 'TerminatingOrFailed']);
  });

  it('generates the controller-uid selector and the job-name labels', async () => {
    const { obj } = await create(jobsResource, job());
    const spec = obj.spec as any;
    expect(spec.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': 'uid-1' } });
    expect(spec.template.metadata.labels).toEqual({
      'batch.kubernetes.io/controller-uid': 'uid-1',
      'batch.kubernetes.io/job-name': 'pi',
      'controller-uid': 'uid-1',
      'job-name': 'pi',
    });
  });

  it('refuses restartPolicy Always (the pod default) with kube\'s message', async () => {
    const { errors } = await create(jobsResource, { metadata: { name: 'pi', namespace: 'd', uid: 'u' }, spec: { template: { spec: { containers: [{ name: 'pi', image: 'perl' }] } } } });
    // validateJobSpec (1.32): a defaulted Always is reported as a missing value.
    expect(errors).toEqual(['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']);
  });

  it('refuses a user selector without manualSelector', async () => {
    const { errors } = await create(jobsResource, job({ selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: jobTemplate().spec } }));
    expect(errors[0]).toBe(
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b", "batch.kubernetes.io/controller-uid":"uid-1"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: selector not auto-generated',
    );
  });

  it('keeps the template immutable', async () => {
    const old = await stored(jobsResource, job());
    const next = JSON.parse(JSON.stringify(old));
    next.spec.template.spec.containers[0].image = 'perl:5.36';
    const { errors } = await update(jobsResource, next, old);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^spec\.template: Invalid value: core\.PodTemplateSpec.*: field is immutable$/);
  });

  it('defaults to the Orphan propagation policy (batch/v1 compatibility)', () => {
    expect(jobsResource.defaultPropagationPolicy).toBe('Orphan');
  });

  it('prints STATUS COMPLETIONS DURATION AGE', async () => {
    const j = await stored(jobsResource, job());
    j.status = { succeeded: 1, startTime: '2024-12-11T12:00:00Z', completionTime: '2024-12-11T12:00:07Z', conditions: [{ type: 'Complete', status: 'True' }] };
    const table = jobsResource.versions[0]!.table!;
    expect(table.columns.slice(0, 5).map((c) => c.name)).toEqual(['Name', 'Status', 'Completions', 'Duration', 'Age']);
    expect(table.cells(j, Date.parse('2024-12-11T12:01:00Z')).slice(0, 5)).toEqual(['pi', 'Complete', '1/1', '7s', '60s']);
    const running = await stored(jobsResource, job());
    expect(table.cells(running, Date.parse('2024-12-11T12:01:00Z')).slice(0, 5)).toEqual(['pi', 'Running', '0/1', '', '60s']);
    expect(jobsResource.fieldSelectors!['status.successful']!(j)).toBe('1');
  });
});

describe('cronjobs', () => {
  const cronJob = (extra: Record<string, unknown> = {}, name = 'hello') => ({
    metadata: { name, namespace: 'd' },
    spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: jobTemplate('OnFailure') } }, ...extra },
  });

  it('defaults Allow, suspend false, history 3 and 1', async () => {
    const { obj, errors } = await create(cronJobsResource, cronJob());
    expect(errors).toEqual([]);
    const spec = obj.spec as any;
    expect([spec.concurrencyPolicy, spec.suspend, spec.successfulJobsHistoryLimit, spec.failedJobsHistoryLimit]).toEqual(['Allow', false, 3, 1]);
    // SetDefaults_Job does not run on a job template.
    expect(spec.jobTemplate.spec.backoffLimit).toBeUndefined();
  });

  it('checks the schedule with robfig/cron messages', async () => {
    expect((await create(cronJobsResource, cronJob({ schedule: 'every minute' }))).errors).toEqual([
      'spec.schedule: Invalid value: "every minute": expected exactly 5 fields, found 2: [every minute]',
    ]);
    expect((await create(cronJobsResource, cronJob({ schedule: '61 * * * *' }))).errors).toEqual(['spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61']);
    expect((await create(cronJobsResource, cronJob({ schedule: 'TZ=UTC 0 * * * *' }))).errors).toEqual([
      'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    ]);
  });

  it('limits names to 52 characters', async () => {
    const name = 'a'.repeat(53);
    expect((await create(cronJobsResource, cronJob({}, name))).errors).toEqual([`metadata.name: Invalid value: "${name}": must be no more than 52 characters`]);
  });

  it('prints SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE', async () => {
    const cj = await stored(cronJobsResource, cronJob());
    expect(cronJobsResource.versions[0]!.table!.cells(cj, Date.parse('2024-12-11T12:00:05Z')).slice(0, 7)).toEqual(['hello', '*/5 * * * *', '<none>', 'False', 0, '<none>', '5s']);
  });
});
