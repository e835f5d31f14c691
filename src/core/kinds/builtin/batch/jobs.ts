// batch/v1 jobs: completions/parallelism 1, backoffLimit 6, NonIndexed,
// not suspended, podReplacementPolicy TerminatingOrFailed; the generated
// selector (controller-uid) and job-name labels on create; restartPolicy
// OnFailure or Never; selector and template immutable; Orphan as the default
// propagation (batch/v1 keeps it for compatibility); the Job columns.

import { fieldErrors, GoLiteral, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { deepEqual } from '../../validation/deep-equal';
import { validateImmutableField } from '../../validation/object-meta';
import { defineResource, statusSubresource, version } from '../common/define';
import { goLabels, goLabelSelector } from '../common/go-format';
import { humanDuration } from '../common/human-duration';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, formatLabelSelector, num, rec, str, table, wide, type LabelSelector } from '../common/table';
import { containerCells, nonnegative, selectorMatches, validateLabelSelector } from '../common/workload';
import { defaultPodTemplate } from '../core/pod-spec/defaults';
import { validatePodTemplateSpec } from '../core/pod-spec/validation';

type Obj = Record<string, unknown>;

export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
export const LEGACY_JOB_NAME_LABEL = 'job-name';
export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';

export function defaultJob(job: KubeObject): void {
  const spec = rec(job.spec);
  job.spec = spec;
  if ((spec.completions === undefined || spec.completions === null) && (spec.parallelism === undefined || spec.parallelism === null)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  if (spec.parallelism === undefined || spec.parallelism === null) spec.parallelism = 1;
  if (spec.backoffLimit === undefined || spec.backoffLimit === null) {
    spec.backoffLimit = spec.backoffLimitPerIndex !== undefined && spec.backoffLimitPerIndex !== null ? 2147483647 : 6;
  }
  const template = rec(spec.template);
  spec.template = template;
  const templateLabels = rec(template.metadata).labels;
  if (templateLabels && Object.keys(job.metadata?.labels ?? {}).length === 0) {
    job.metadata = { ...(job.metadata ?? {}), labels: { ...(templateLabels as Record<string, string>) } };
  }
  if (!spec.completionMode) spec.completionMode = 'NonIndexed';
  if (spec.suspend === undefined || spec.suspend === null) spec.suspend = false;
  const policy = spec.podFailurePolicy === undefined || spec.podFailurePolicy === null ? undefined : rec(spec.podFailurePolicy);
  for (const rule of arr(policy?.rules).map(rec)) for (const p of arr(rule.onPodConditions).map(rec)) if (!p.status) p.status = 'True';
  if (!spec.podReplacementPolicy) spec.podReplacementPolicy = policy ? 'Failed' : 'TerminatingOrFailed';
  defaultPodTemplate(template);
}

/** generateSelector: job-name and controller-uid labels on the template, controller-uid in the selector. */
function generateSelector(job: KubeObject): void {
  const spec = rec(job.spec);
  const template = rec(spec.template);
  const meta = rec(template.metadata);
  const labels = { ...(rec(meta.labels) as Record<string, string>) };
  const name = job.metadata?.name ?? '';
  const uid = job.metadata?.uid ?? '';
  for (const key of [LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL]) if (!(key in labels)) labels[key] = name;
  for (const key of [LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL]) if (!(key in labels)) labels[key] = uid;
  template.metadata = { ...meta, labels };
  spec.template = template;
  const selector = rec(spec.selector);
  const matchLabels = { ...(rec(selector.matchLabels) as Record<string, string>) };
  if (!(CONTROLLER_UID_LABEL in matchLabels)) matchLabels[CONTROLLER_UID_LABEL] = uid;
  spec.selector = { ...selector, matchLabels };
  job.spec = spec;
}

function validateGeneratedSelector(job: KubeObject): FieldError[] {
  const spec = rec(job.spec);
  if (spec.manualSelector === true) return [];
  const selector = rec(spec.selector);
  const uid = job.metadata?.uid ?? '';
  const matchLabels = rec(selector.matchLabels);
  const extra = Object.keys(matchLabels).some((k) => k !== CONTROLLER_UID_LABEL) || arr(selector.matchExpressions).length > 0;
  if (extra || (uid && matchLabels[CONTROLLER_UID_LABEL] !== uid)) {
    return [fieldErrors.invalid('spec.selector', goLabelSelector(spec.selector), 'selector not auto-generated')];
  }
  return [];
}

/** The checks ValidateJobSpec and ValidateJobTemplateSpec share, under `path`. */
export function validateJobSpec(spec: Obj, path: string, requireSelector: boolean): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...nonnegative(spec.parallelism, `${path}.parallelism`));
  errs.push(...nonnegative(spec.completions, `${path}.completions`));
  if (typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds <= 0) {
    errs.push(fieldErrors.invalid(`${path}.activeDeadlineSeconds`, spec.activeDeadlineSeconds, 'must be greater than 0'));
  }
  errs.push(...nonnegative(spec.backoffLimit, `${path}.backoffLimit`));
  errs.push(...nonnegative(spec.ttlSecondsAfterFinished, `${path}.ttlSecondsAfterFinished`));
  if (spec.completionMode !== undefined && spec.completionMode !== 'NonIndexed' && spec.completionMode !== 'Indexed') {
    errs.push(fieldErrors.notSupported(`${path}.completionMode`, spec.completionMode, ['NonIndexed', 'Indexed']));
  }
  if (spec.completionMode === 'Indexed' && (spec.completions === undefined || spec.completions === null)) {
    errs.push(fieldErrors.required(`${path}.completions`, 'when completion mode is Indexed'));
  }
  if (spec.selector === undefined || spec.selector === null) {
    if (requireSelector) errs.push(fieldErrors.required(`${path}.selector`));
  } else {
    errs.push(...validateLabelSelector(spec.selector, `${path}.selector`));
  }
  const template = rec(spec.template);
  const labels = rec(template.metadata).labels as Record<string, string> | undefined;
  if (spec.selector !== undefined && spec.selector !== null && !selectorMatches(spec.selector as LabelSelector, labels)) {
    errs.push(fieldErrors.invalid(`${path}.template.metadata.labels`, goLabels(labels), '`selector` does not match template `labels`'));
  }
  // validatePodReplacementPolicy runs before the template checks.
  if (spec.podReplacementPolicy !== undefined && spec.podReplacementPolicy !== null) {
    const allowed = spec.podFailurePolicy !== undefined && spec.podFailurePolicy !== null ? ['Failed'] : ['Failed', 'TerminatingOrFailed'];
    if (!allowed.includes(str(spec.podReplacementPolicy))) errs.push(fieldErrors.notSupported(`${path}.podReplacementPolicy`, spec.podReplacementPolicy, allowed));
  }
  errs.push(...validatePodTemplateSpec(spec.template, `${path}.template`));
  // SetDefaults_PodSpec turns a missing restartPolicy into Always, so 1.32
  // reports Always (or empty) as a missing value, other values as unsupported.
  const restartPolicy = rec(template.spec).restartPolicy;
  const restartPath = `${path}.template.spec.restartPolicy`;
  if (restartPolicy === 'Always' || restartPolicy === undefined || restartPolicy === null || restartPolicy === '') {
    errs.push(fieldErrors.required(restartPath, 'valid values: "OnFailure", "Never"'));
  } else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    errs.push(fieldErrors.notSupported(restartPath, restartPolicy, ['OnFailure', 'Never']));
  } else if (spec.podFailurePolicy !== undefined && spec.podFailurePolicy !== null && restartPolicy !== 'Never') {
    errs.push(fieldErrors.invalid(restartPath, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  }
  return errs;
}

function validateJob(job: KubeObject): FieldError[] {
  return [...validateGeneratedSelector(job), ...validateJobSpec(rec(job.spec), 'spec', true)];
}

function templateLiteral(template: unknown): GoLiteral {
  // kube prints the whole core.PodTemplateSpec; the JSON stands in for it.
  return new GoLiteral(`core.PodTemplateSpec${JSON.stringify(template ?? {})}`);
}

function validateJobUpdate(job: KubeObject, old: KubeObject): FieldError[] {
  const spec = rec(job.spec);
  const oldSpec = rec(old.spec);
  const errs: FieldError[] = [];
  if (!(spec.completionMode === 'Indexed' && oldSpec.completionMode === 'Indexed' && spec.completions === spec.parallelism)) {
    errs.push(...validateImmutableField(spec.completions, oldSpec.completions, 'spec.completions'));
  }
  if (!deepEqual(spec.selector, oldSpec.selector)) errs.push(fieldErrors.invalid('spec.selector', goLabelSelector(spec.selector), 'field is immutable'));
  if (!deepEqual(spec.template, oldSpec.template)) errs.push(fieldErrors.invalid('spec.template', templateLiteral(spec.template), 'field is immutable'));
  errs.push(...validateImmutableField(spec.completionMode, oldSpec.completionMode, 'spec.completionMode'));
  errs.push(...validateImmutableField(spec.podFailurePolicy, oldSpec.podFailurePolicy, 'spec.podFailurePolicy'));
  errs.push(...validateImmutableField(spec.backoffLimitPerIndex, oldSpec.backoffLimitPerIndex, 'spec.backoffLimitPerIndex'));
  errs.push(...validateImmutableField(spec.managedBy, oldSpec.managedBy, 'spec.managedBy'));
  return errs;
}

/** hasJobCondition: the first condition of the type decides. */
function hasCondition(job: KubeObject, type: string): boolean {
  const c = arr(rec(job.status).conditions).map(rec).find((x) => x.type === type);
  return c?.status === 'True';
}

function jobStatusText(job: KubeObject): string {
  if (hasCondition(job, 'Complete')) return 'Complete';
  if (hasCondition(job, 'Failed')) return 'Failed';
  if (job.metadata?.deletionTimestamp) return 'Terminating';
  if (hasCondition(job, 'Suspended')) return 'Suspended';
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget';
  // 1.32 has no SuccessCriteriaMet case (kubernetes#132832 added it in 1.34): such a job reads Running.
  return 'Running';
}

export const JOB_TABLE = table(
  [
    col('Status', 'string', 'Summary state of the job'),
    col('Completions', 'string', 'Succeeded pods out of completions wanted'),
    col('Duration', 'string', 'How long the job has run or ran'),
    AGE_COLUMN,
    wide('Containers', 'string', 'Container names of the pod template'),
    wide('Images', 'string', 'Container images of the pod template'),
    wide('Selector', 'string', 'Label selector of the job pods'),
  ],
  (job, now) => {
    const spec = rec(job.spec);
    const status = rec(job.status);
    const succeeded = num(status.succeeded);
    let completions: string;
    if (typeof spec.completions === 'number') completions = `${succeeded}/${spec.completions}`;
    else {
      const parallelism = num(spec.parallelism);
      completions = parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
    }
    let duration = '';
    const start = str(status.startTime);
    const completion = str(status.completionTime);
    if (start && !completion) duration = humanDuration(now - Date.parse(start));
    else if (start && completion) duration = humanDuration(Date.parse(completion) - Date.parse(start));
    const [names, images] = containerCells(rec(spec.template).spec);
    return [jobStatusText(job), completions, duration, age(job, now), names, images, formatLabelSelector(spec.selector as LabelSelector | undefined)];
  },
);

export const jobsResource: ResourceDefinition = defineResource({
  group: 'batch',
  plural: 'jobs',
  kind: 'Job',
  namespaced: true,
  categories: ['all'],
  versions: [version('v1', 'io.k8s.api.batch.v1.Job', { table: JOB_TABLE })],
  subresources: [statusSubresource('Job')],
  defaultPropagationPolicy: 'Orphan',
  strategy: standardStrategy({
    namespaced: true,
    statusFields: ['status'],
    initialStatus: () => ({}),
    generationFields: ['spec'],
    default: (o) => defaultJob(o),
    prepareForCreate(obj) {
      // Needs metadata.name and metadata.uid, which the handlers set before this hook (as BeforeCreate).
      if (rec(obj.spec).manualSelector !== true) generateSelector(obj);
    },
    validate: (o) => validateJob(o),
    updateValidatesNew: false,
    validateUpdate: (o, old) => [...validateJobSpec(rec(o.spec), 'spec', true), ...validateJobUpdate(o, old)],
    warningsOnCreate: (o) => jobWarnings(o),
  }),
  fieldSelectors: { 'status.successful': (o) => String(num(rec(o.status).succeeded)) },
});

function jobWarnings(job: KubeObject): string[] {
  const spec = rec(job.spec);
  if (spec.completionMode === 'Indexed' && typeof spec.completions === 'number' && spec.completions > 100000 && typeof spec.parallelism === 'number' && spec.parallelism > 10000) {
    return ['spec.completions > 100000 and spec.parallelism > 10000 in an Indexed Job may lead to performance issues'];
  }
  return [];
}
