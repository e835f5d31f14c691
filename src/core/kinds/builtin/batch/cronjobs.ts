// batch/v1 cronjobs: Allow, not suspended, history 3/1 by default; schedule
// and time zone checked; names at most 52 characters (the Job names it
// makes get a suffix); SCHEDULE/TIMEZONE/SUSPEND/ACTIVE/LAST SCHEDULE.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { nameIsDNSSubdomain, type NameValidator } from '../../validation/names';
import { defineResource, statusSubresource, version } from '../common/define';
import { ageSince } from '../common/human-duration';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, formatLabelSelector, rec, str, table, wide, type LabelSelector } from '../common/table';
import { containerCells, nonnegative } from '../common/workload';
import { defaultPodTemplate } from '../core/pod-spec/defaults';
import { validateEnum } from '../core/pod-spec/validation';
import { cronScheduleError } from './cron-schedule';
import { validateJobSpec } from './jobs';

/** CronJob names leave room for the 11-character suffix of the Jobs they create. */
export const CRONJOB_NAME_MAX = 52;

const cronJobName: NameValidator = (name, prefix) => {
  const errs = nameIsDNSSubdomain(name, prefix);
  if (!prefix && name.length > CRONJOB_NAME_MAX) errs.push(`must be no more than ${CRONJOB_NAME_MAX} characters`);
  return errs;
};

function defaultCronJob(cj: KubeObject): void {
  const spec = rec(cj.spec);
  cj.spec = spec;
  if (!spec.concurrencyPolicy) spec.concurrencyPolicy = 'Allow';
  if (spec.suspend === undefined || spec.suspend === null) spec.suspend = false;
  if (spec.successfulJobsHistoryLimit === undefined || spec.successfulJobsHistoryLimit === null) spec.successfulJobsHistoryLimit = 3;
  if (spec.failedJobsHistoryLimit === undefined || spec.failedJobsHistoryLimit === null) spec.failedJobsHistoryLimit = 1;
  const jobTemplate = rec(spec.jobTemplate);
  spec.jobTemplate = jobTemplate;
  const jobSpec = rec(jobTemplate.spec);
  jobTemplate.spec = jobSpec;
  defaultPodTemplate(jobSpec.template ?? (jobSpec.template = {}));
}

/** Zones the IANA database knows; a host without Intl support accepts any Area/Location form. */
function isKnownTimeZone(tz: string): boolean {
  if (tz === 'UTC' || tz === 'Local') return tz === 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function validateCronJob(cj: KubeObject): FieldError[] {
  const spec = rec(cj.spec);
  const errs: FieldError[] = [];
  const schedule = str(spec.schedule);
  if (!schedule) errs.push(fieldErrors.required('spec.schedule'));
  else {
    if (/(^|\s)(CRON_)?TZ=/.test(schedule)) {
      errs.push(fieldErrors.invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
    } else {
      const err = cronScheduleError(schedule);
      if (err) errs.push(fieldErrors.invalid('spec.schedule', schedule, err));
    }
  }
  if (spec.timeZone !== undefined && spec.timeZone !== null) {
    const tz = str(spec.timeZone);
    if (tz === '' || tz === 'Local' || !isKnownTimeZone(tz)) errs.push(fieldErrors.invalid('spec.timeZone', tz, 'unknown time zone ' + tz));
  }
  errs.push(...nonnegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  errs.push(...validateEnum(spec.concurrencyPolicy, 'spec.concurrencyPolicy', ['Allow', 'Forbid', 'Replace']));
  errs.push(...nonnegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
  errs.push(...nonnegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
  const jobTemplate = rec(spec.jobTemplate);
  errs.push(...validateJobSpec(rec(jobTemplate.spec), 'spec.jobTemplate.spec', false));
  return errs;
}

export const CRONJOB_TABLE = table(
  [
    col('Schedule', 'string', 'Cron schedule'),
    col('Timezone', 'string', 'Time zone of the schedule'),
    col('Suspend', 'boolean', 'Whether new runs are held back'),
    col('Active', 'integer', 'How many jobs are running'),
    col('Last Schedule', 'string', 'Time since the last scheduled run'),
    AGE_COLUMN,
    wide('Containers', 'string', 'Container names of the job template'),
    wide('Images', 'string', 'Container images of the job template'),
    wide('Selector', 'string', 'Label selector of the job pods'),
  ],
  (cj, now) => {
    const spec = rec(cj.spec);
    const status = rec(cj.status);
    const jobSpec = rec(rec(spec.jobTemplate).spec);
    const [names, images] = containerCells(rec(jobSpec.template).spec);
    const suspend = spec.suspend === undefined || spec.suspend === null ? '<unset>' : spec.suspend === true ? 'True' : 'False';
    return [
      str(spec.schedule),
      spec.timeZone === undefined || spec.timeZone === null ? '<none>' : str(spec.timeZone),
      suspend,
      arr(status.active).length,
      status.lastScheduleTime ? ageSince(str(status.lastScheduleTime), now) : '<none>',
      age(cj, now),
      names,
      images,
      formatLabelSelector(jobSpec.selector as LabelSelector | undefined),
    ];
  },
);

export const cronJobsResource: ResourceDefinition = defineResource({
  group: 'batch',
  plural: 'cronjobs',
  kind: 'CronJob',
  namespaced: true,
  shortNames: ['cj'],
  categories: ['all'],
  versions: [version('v1', 'io.k8s.api.batch.v1.CronJob', { table: CRONJOB_TABLE })],
  subresources: [statusSubresource('CronJob')],
  strategy: standardStrategy({
    namespaced: true,
    nameRule: cronJobName,
    statusFields: ['status'],
    initialStatus: () => ({}),
    generationFields: ['spec'],
    default: (o) => defaultCronJob(o),
    validate: (o) => validateCronJob(o),
  }),
});
