// apps/v1 daemonsets: RollingUpdate maxUnavailable 1 / maxSurge 0 and 10
// revisions by default; the selector immutable; the DaemonSet columns.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { defineResource, statusSubresource, version } from '../common/define';
import { clone, standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, col, formatLabels, formatLabelSelector, num, rec, table, wide, type LabelSelector } from '../common/table';
import { goIntOrString, goLabels, goLabelSelector, goStrategy } from '../common/go-format';
import { containerCells, isEmptySelector, nonnegative, selectorMatches, validateLabelSelector } from '../common/workload';
import { validatePodTemplateSpec } from '../core/pod-spec/validation';
import { defaultPodTemplate } from '../core/pod-spec/defaults';
import { notMoreThan100Percent, selectorImmutable, validatePositiveIntOrPercent } from './deployments';
import { deepEqual } from '../../validation/deep-equal';

/** The apps/v1 form of the internal spec.templateGeneration (kube's v1 conversion keeps it here). */
const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

function defaultDaemonSet(ds: KubeObject): void {
  const spec = rec(ds.spec);
  ds.spec = spec;
  const us = rec(spec.updateStrategy);
  spec.updateStrategy = us;
  if (!us.type) us.type = 'RollingUpdate';
  if (us.type === 'RollingUpdate') {
    const ru = rec(us.rollingUpdate);
    us.rollingUpdate = ru;
    if (ru.maxUnavailable === undefined || ru.maxUnavailable === null) ru.maxUnavailable = 1;
    if (ru.maxSurge === undefined || ru.maxSurge === null) ru.maxSurge = 0;
  }
  if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = 10;
  defaultPodTemplate(spec.template ?? (spec.template = {}));
}

function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^[0-9]+%$/.test(v)) return Number(v.slice(0, -1));
  return 0;
}

function validateDaemonSet(ds: KubeObject): FieldError[] {
  const spec = rec(ds.spec);
  const errs: FieldError[] = [];
  // ValidateDaemonSetSpec: selector syntax, template labels, then an empty selector; a missing one only fails the labels check.
  errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  const templateLabels = rec(rec(rec(spec.template).metadata).labels) as Record<string, string>;
  const selector = spec.selector as LabelSelector | undefined;
  if ((selector === undefined || selector === null || !isEmptySelector(selector)) && !selectorMatches(selector ?? undefined, templateLabels)) {
    errs.push(fieldErrors.invalid('spec.template.metadata.labels', goLabels(rec(rec(spec.template).metadata).labels), '`selector` does not match template `labels`'));
  }
  if (selector !== undefined && selector !== null && isEmptySelector(selector)) {
    errs.push(fieldErrors.invalid('spec.selector', goLabelSelector(selector), 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplateSpec(spec.template, 'spec.template'));
  const podSpec = rec(rec(spec.template).spec);
  if (podSpec.restartPolicy !== 'Always') errs.push(fieldErrors.notSupported('spec.template.spec.restartPolicy', podSpec.restartPolicy ?? '', ['Always']));
  if (podSpec.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    errs.push(fieldErrors.invalid('spec.template.spec.activeDeadlineSeconds', podSpec.activeDeadlineSeconds, 'activeDeadlineSeconds must be nil for daemon set pods'));
  }
  errs.push(...nonnegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...nonnegative(spec.templateGeneration, 'spec.templateGeneration'));
  const us = rec(spec.updateStrategy);
  switch (us.type) {
    case 'OnDelete':
      break;
    case 'RollingUpdate': {
      const ru = rec(us.rollingUpdate);
      const p = 'spec.updateStrategy.rollingUpdate';
      // ValidateRollingUpdateDaemonSet: values, then ≤ 100%, then exactly one of the two non-zero.
      errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, `${p}.maxUnavailable`));
      errs.push(...validatePositiveIntOrPercent(ru.maxSurge, `${p}.maxSurge`));
      errs.push(...notMoreThan100Percent(ru.maxUnavailable, `${p}.maxUnavailable`));
      errs.push(...notMoreThan100Percent(ru.maxSurge, `${p}.maxSurge`));
      const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
      const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
      if (hasUnavailable && hasSurge) errs.push(fieldErrors.invalid(`${p}.maxSurge`, goIntOrString(ru.maxSurge), 'may not be set when maxUnavailable is non-zero'));
      else if (!hasUnavailable && !hasSurge) errs.push(fieldErrors.required(`${p}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
      break;
    }
    default:
      // kube reports the whole strategy, listing RollingUpdate first.
      errs.push(fieldErrors.notSupported('spec.updateStrategy', goStrategy('apps.DaemonSetUpdateStrategy', 'apps.RollingUpdateDaemonSet', us), ['RollingUpdate', 'OnDelete']));
  }
  errs.push(...nonnegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errs;
}

export const DAEMON_SET_TABLE = table(
  [
    col('Desired', 'integer', 'Nodes that should run a daemon pod'),
    col('Current', 'integer', 'Nodes running a daemon pod that should'),
    col('Ready', 'integer', 'Nodes whose daemon pod is ready'),
    col('Up-to-date', 'integer', 'Nodes running the current template'),
    col('Available', 'integer', 'Nodes whose daemon pod is available'),
    col('Node Selector', 'string', 'Node labels the daemon pods require'),
    AGE_COLUMN,
    wide('Containers', 'string', 'Container names of the pod template'),
    wide('Images', 'string', 'Container images of the pod template'),
    wide('Selector', 'string', 'Label selector of the managed pods'),
  ],
  (ds, now) => {
    const spec = rec(ds.spec);
    const status = rec(ds.status);
    const podSpec = rec(rec(spec.template).spec);
    const [names, images] = containerCells(podSpec);
    return [
      num(status.desiredNumberScheduled),
      num(status.currentNumberScheduled),
      num(status.numberReady),
      num(status.updatedNumberScheduled),
      num(status.numberAvailable),
      formatLabels(podSpec.nodeSelector as Record<string, string> | undefined),
      age(ds, now),
      names,
      images,
      formatLabelSelector(spec.selector as LabelSelector | undefined),
    ];
  },
);

export const daemonSetsResource: ResourceDefinition = defineResource({
  group: 'apps',
  plural: 'daemonsets',
  kind: 'DaemonSet',
  namespaced: true,
  shortNames: ['ds'],
  categories: ['all'],
  versions: [version('v1', 'io.k8s.api.apps.v1.DaemonSet', { table: DAEMON_SET_TABLE })],
  subresources: [statusSubresource('DaemonSet')],
  strategy: standardStrategy({
    namespaced: true,
    statusFields: ['status'],
    initialStatus: () => ({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 }),
    generationFields: ['spec'],
    default: (o) => defaultDaemonSet(o),
    // spec.templateGeneration of the internal type shows in apps/v1 as this annotation: 1 on create, one more per template change.
    prepareForCreate(obj) {
      obj.metadata = { ...(obj.metadata ?? {}), annotations: { ...(obj.metadata?.annotations ?? {}), [TEMPLATE_GENERATION_ANNOTATION]: '1' } };
    },
    prepareForUpdate(obj, old) {
      const previous = Number.parseInt(old.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION] ?? '', 10);
      const base = Number.isNaN(previous) ? 1 : previous;
      const generation = deepEqual(rec(obj.spec).template, rec(old.spec).template) ? base : base + 1;
      obj.metadata = { ...(obj.metadata ?? {}), annotations: { ...(obj.metadata?.annotations ?? {}), [TEMPLATE_GENERATION_ANNOTATION]: String(generation) } };
    },
    prepareForStatusUpdate(obj, old) {
      obj.metadata = { ...(obj.metadata ?? {}), labels: clone(old.metadata?.labels) };
      if (old.metadata?.labels === undefined) delete obj.metadata.labels;
    },
    validate: (o) => validateDaemonSet(o),
    validateUpdate: (o, old) => selectorImmutable(o, old),
  }),
});
