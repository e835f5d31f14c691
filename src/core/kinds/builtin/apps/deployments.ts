// apps/v1 deployments: 25%/25% rolling update, 10 revisions, 600 s progress
// deadline and one replica by default; generation bumped by spec or
// annotation changes; the selector immutable; READY/UP-TO-DATE/AVAILABLE.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { deepEqual } from '../../validation/deep-equal';
import { regexError } from '../../validation/names';
import { defineResource, scaleSubresource, statusSubresource, version } from '../common/define';
import { goIntOrString, goLabelSelector, goStrategy } from '../common/go-format';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, col, labelSelectorString, num, rec, table, wide, type LabelSelector } from '../common/table';
import { containerCells, nonnegative, validateTemplateForSelector, validateWorkloadSelector } from '../common/workload';
import { defaultPodTemplate } from '../core/pod-spec/defaults';

type Obj = Record<string, unknown>;

function defaultDeployment(d: KubeObject): void {
  const spec = rec(d.spec);
  d.spec = spec;
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  const strategy = rec(spec.strategy);
  spec.strategy = strategy;
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = rec(strategy.rollingUpdate);
    strategy.rollingUpdate = ru;
    if (ru.maxUnavailable === undefined || ru.maxUnavailable === null) ru.maxUnavailable = '25%';
    if (ru.maxSurge === undefined || ru.maxSurge === null) ru.maxSurge = '25%';
  }
  if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = 10;
  if (spec.progressDeadlineSeconds === undefined || spec.progressDeadlineSeconds === null) spec.progressDeadlineSeconds = 600;
  defaultPodTemplate(spec.template ?? (spec.template = {}));
}

const PERCENT_RE = /^[0-9]+%$/;

/** ValidatePositiveIntOrPercent. */
export function validatePositiveIntOrPercent(value: unknown, path: string): FieldError[] {
  if (typeof value === 'string') {
    if (!PERCENT_RE.test(value)) return [fieldErrors.invalid(path, goIntOrString(value), regexError("a valid percent string must be a numeric string followed by an ending '%'", '[0-9]+%', '1%', '93%'))];
    return [];
  }
  if (typeof value === 'number' && value < 0) return [fieldErrors.invalid(path, value, 'must be greater than or equal to 0')];
  return [];
}

function intOrPercentValue(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && PERCENT_RE.test(value)) return Number(value.slice(0, -1));
  return 0;
}

export function notMoreThan100Percent(value: unknown, path: string): FieldError[] {
  if (typeof value === 'string' && PERCENT_RE.test(value) && Number(value.slice(0, -1)) > 100) {
    return [fieldErrors.invalid(path, goIntOrString(value), 'must not be greater than 100%')];
  }
  return [];
}

function validateStrategy(strategy: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  switch (strategy.type) {
    case 'Recreate':
      if (strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) {
        errs.push(fieldErrors.forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'"));
      }
      break;
    case 'RollingUpdate': {
      if (strategy.rollingUpdate === undefined || strategy.rollingUpdate === null) {
        errs.push(fieldErrors.required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil'));
        break;
      }
      const ru = rec(strategy.rollingUpdate);
      errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, `${path}.rollingUpdate.maxUnavailable`));
      errs.push(...validatePositiveIntOrPercent(ru.maxSurge, `${path}.rollingUpdate.maxSurge`));
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
        errs.push(fieldErrors.invalid(`${path}.rollingUpdate.maxUnavailable`, goIntOrString(ru.maxUnavailable), 'may not be 0 when `maxSurge` is 0'));
      }
      errs.push(...notMoreThan100Percent(ru.maxUnavailable, `${path}.rollingUpdate.maxUnavailable`));
      break;
    }
    default:
      // kube reports the whole *apps.DeploymentStrategy.
      errs.push(fieldErrors.notSupported(path, goStrategy('apps.DeploymentStrategy', 'apps.RollingUpdateDeployment', strategy), ['Recreate', 'RollingUpdate']));
  }
  return errs;
}

function validateDeploymentSpec(d: KubeObject): FieldError[] {
  const spec = rec(d.spec);
  const errs: FieldError[] = [];
  errs.push(...nonnegative(spec.replicas, 'spec.replicas'));
  errs.push(...validateWorkloadSelector(spec.selector, 'spec.selector'));
  errs.push(...validateTemplateForSelector(spec.template, spec.selector as LabelSelector | undefined, 'spec.template', 'ReplicaSet'));
  errs.push(...validateStrategy(rec(spec.strategy), 'spec.strategy'));
  errs.push(...nonnegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...nonnegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (typeof spec.progressDeadlineSeconds === 'number') {
    errs.push(...nonnegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    if (spec.progressDeadlineSeconds <= num(spec.minReadySeconds)) {
      errs.push(fieldErrors.invalid('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

export const DEPLOYMENT_TABLE = table(
  [
    col('Ready', 'string', 'Ready pods out of desired replicas'),
    col('Up-to-date', 'string', 'Pods running the current template'),
    col('Available', 'string', 'Pods available for at least minReadySeconds'),
    AGE_COLUMN,
    wide('Containers', 'string', 'Container names of the pod template'),
    wide('Images', 'string', 'Container images of the pod template'),
    wide('Selector', 'string', 'Label selector of the managed pods'),
  ],
  (d, now) => {
    const spec = rec(d.spec);
    const status = rec(d.status);
    const [names, images] = containerCells(rec(spec.template).spec);
    return [
      `${num(status.readyReplicas)}/${num(spec.replicas)}`,
      num(status.updatedReplicas),
      num(status.availableReplicas),
      age(d, now),
      names,
      images,
      // printDeployment prints LabelSelectorAsSelector(...).String(), not FormatLabelSelector.
      labelSelectorString(spec.selector as LabelSelector | undefined) ?? '<invalid>',
    ];
  },
);

export const deploymentsResource: ResourceDefinition = defineResource({
  group: 'apps',
  plural: 'deployments',
  kind: 'Deployment',
  namespaced: true,
  shortNames: ['deploy'],
  categories: ['all'],
  versions: [version('v1', 'io.k8s.api.apps.v1.Deployment', { table: DEPLOYMENT_TABLE })],
  subresources: [scaleSubresource(), statusSubresource('Deployment')],
  strategy: standardStrategy({
    namespaced: true,
    statusFields: ['status'],
    initialStatus: () => ({}),
    generationFields: ['spec'],
    default: (o) => defaultDeployment(o),
    prepareForUpdate(obj, old) {
      // Annotations are copied to the ReplicaSets, so their change also bumps the generation.
      if (!deepEqual(obj.metadata?.annotations, old.metadata?.annotations) && obj.metadata?.generation === (old.metadata?.generation ?? 0)) {
        obj.metadata = { ...(obj.metadata ?? {}), generation: (old.metadata?.generation ?? 0) + 1 };
      }
    },
    prepareForStatusUpdate(obj, old) {
      obj.metadata = { ...(obj.metadata ?? {}), labels: old.metadata?.labels };
      if (old.metadata?.labels === undefined) delete obj.metadata.labels;
    },
    validate: (o) => validateDeploymentSpec(o),
    validateUpdate: (o, old) => selectorImmutable(o, old),
  }),
});

/** apps/v1 forbids any selector change (after the spec checks). */
export function selectorImmutable(obj: KubeObject, old: KubeObject): FieldError[] {
  const next = rec(obj.spec).selector;
  const prev = rec(old.spec).selector;
  return deepEqual(next, prev) ? [] : [fieldErrors.invalid('spec.selector', goLabelSelector(next), 'field is immutable')];
}
