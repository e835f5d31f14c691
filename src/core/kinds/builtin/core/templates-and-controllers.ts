// core/v1 podtemplates and replicationcontrollers.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { validateLabels } from '../../validation/object-meta';
import { defineResource, scaleSubresource, statusSubresource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, col, formatLabels, num, rec, table, wide } from '../common/table';
import { containerCells } from '../common/workload';
import { defaultPodTemplate } from './pod-spec/defaults';
import { validatePodTemplateSpec } from './pod-spec/validation';
import { validateNonnegative } from '../../validation/object-meta';

export const POD_TEMPLATE_TABLE = table([col('Containers'), col('Images'), col('Pod Labels')], (o) => {
  const template = rec(o.template);
  const [names, images] = containerCells(template.spec);
  return [names, images, formatLabels(rec(template.metadata).labels as Record<string, string> | undefined)];
});

export const podTemplatesResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'podtemplates',
  kind: 'PodTemplate',
  namespaced: true,
  versions: [version('v1', 'io.k8s.api.core.v1.PodTemplate', { table: POD_TEMPLATE_TABLE })],
  strategy: standardStrategy({
    namespaced: true,
    default: (o) => defaultPodTemplate(o.template),
    validate: (o) => validatePodTemplateSpec(o.template, 'template'),
  }),
});

function defaultReplicationController(rc: KubeObject): void {
  const spec = rec(rc.spec);
  rc.spec = spec;
  const template = spec.template === undefined || spec.template === null ? undefined : rec(spec.template);
  const labels = template ? (rec(template.metadata).labels as Record<string, string> | undefined) : undefined;
  if (labels) {
    if (Object.keys(rec(spec.selector)).length === 0) spec.selector = { ...labels };
    if (Object.keys(rc.metadata?.labels ?? {}).length === 0) rc.metadata = { ...(rc.metadata ?? {}), labels: { ...labels } };
  }
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  if (template) defaultPodTemplate(template);
}

function validateReplicationController(rc: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = rec(rc.spec);
  errs.push(...validateNonnegative(num(spec.replicas), 'spec.replicas'));
  errs.push(...validateNonnegative(num(spec.minReadySeconds), 'spec.minReadySeconds'));
  const selector = rec(spec.selector) as Record<string, string>;
  if (Object.keys(selector).length === 0) errs.push(fieldErrors.required('spec.selector'));
  else errs.push(...validateLabels(selector, 'spec.selector'));
  const template = spec.template;
  if (template === undefined || template === null) {
    errs.push(fieldErrors.required('spec.template'));
    return errs;
  }
  const labels = (rec(rec(template).metadata).labels ?? {}) as Record<string, string>;
  if (Object.keys(selector).length && Object.entries(selector).some(([k, v]) => labels[k] !== v)) {
    errs.push(fieldErrors.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(template, 'spec.template'));
  const restartPolicy = rec(rec(template).spec).restartPolicy;
  if (restartPolicy !== 'Always') errs.push(fieldErrors.notSupported('spec.template.spec.restartPolicy', restartPolicy ?? '', ['Always']));
  if (rec(rec(template).spec).activeDeadlineSeconds !== undefined) {
    errs.push(fieldErrors.forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errs;
}

export const REPLICATION_CONTROLLER_TABLE = table(
  [col('Desired', 'integer'), col('Current', 'integer'), col('Ready', 'integer'), AGE_COLUMN, wide('Containers'), wide('Images'), wide('Selector')],
  (rc, now) => {
    const spec = rec(rc.spec);
    const status = rec(rc.status);
    const [names, images] = containerCells(rec(spec.template).spec);
    return [num(spec.replicas), num(status.replicas), num(status.readyReplicas), age(rc, now), names, images, formatLabels(spec.selector as Record<string, string> | undefined)];
  },
);

export const replicationControllersResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'replicationcontrollers',
  kind: 'ReplicationController',
  namespaced: true,
  shortNames: ['rc'],
  categories: ['all'],
  versions: [version('v1', 'io.k8s.api.core.v1.ReplicationController', { table: REPLICATION_CONTROLLER_TABLE })],
  subresources: [{ ...scaleSubresource() }, statusSubresource('ReplicationController')],
  strategy: standardStrategy({
    namespaced: true,
    statusFields: ['status'],
    initialStatus: () => ({ replicas: 0 }),
    generationFields: ['spec'],
    default: (o) => defaultReplicationController(o),
    validate: (o) => validateReplicationController(o),
  }),
  fieldSelectors: { 'status.replicas': (o) => String(num(rec(o.status).replicas)) },
});
