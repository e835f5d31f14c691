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
    col('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
    col('Timezone', 'string', 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones'),
    col('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.'),
    col('Active', 'integer', 'A list of pointers to currently running jobs.'),
    col('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
    AGE_COLUMN,
    wide('Containers', 'string', 'Names of each container in the template.'),
    wide('Images', 'string', 'Images referenced by each container in the template.'),
    wide('Selector', 'string', 'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors'),
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
