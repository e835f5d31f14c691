// apps/v1 statefulsets: OrderedReady, RollingUpdate with partition 0, PVC
// retention Retain/Retain, one replica and 10 revisions by default; the
// volume claim templates defaulted like PVCs; only replicas, ordinals,
// template, updateStrategy, persistentVolumeClaimRetentionPolicy and
// minReadySeconds may change; READY column. The pod template's spec is not
// validated here (kube-apiserver leaves it to the pods the controller creates:
// its volume mounts may name volumeClaimTemplates), only its metadata.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { deepEqual } from '../../validation/deep-equal';
import { defineResource, scaleSubresource, statusSubresource, version } from '../common/define';
import { clone, standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, num, rec, table, wide, type LabelSelector } from '../common/table';
import { containerCells, isEmptySelector, nonnegative, selectorMatches, validateWorkloadSelector } from '../common/workload';
import { goLabels } from '../common/go-format';
import { validateAnnotations, validateLabels } from '../../validation/object-meta';
import { defaultPodTemplate } from '../core/pod-spec/defaults';
import { dns1123Label, validateEnum } from '../core/pod-spec/validation';
import { notMoreThan100Percent, validatePositiveIntOrPercent } from './deployments';

function defaultStatefulSet(ss: KubeObject): void {
  const spec = rec(ss.spec);
  ss.spec = spec;
  if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
  const us = rec(spec.updateStrategy);
  spec.updateStrategy = us;
  if (!us.type) {
    us.type = 'RollingUpdate';
    if (us.rollingUpdate === undefined || us.rollingUpdate === null) us.rollingUpdate = {};
  }
  if (us.type === 'RollingUpdate' && us.rollingUpdate !== undefined && us.rollingUpdate !== null) {
    const ru = rec(us.rollingUpdate);
    if (ru.partition === undefined || ru.partition === null) ru.partition = 0;
    us.rollingUpdate = ru;
  }
  const retention = rec(spec.persistentVolumeClaimRetentionPolicy);
  if (!retention.whenDeleted) retention.whenDeleted = 'Retain';
  if (!retention.whenScaled) retention.whenScaled = 'Retain';
  spec.persistentVolumeClaimRetentionPolicy = retention;
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = 10;
  defaultPodTemplate(spec.template ?? (spec.template = {}));
  for (const claim of arr(spec.volumeClaimTemplates).map(rec)) {
    const claimSpec = rec(claim.spec);
    claim.spec = claimSpec;
    if (!claimSpec.volumeMode) claimSpec.volumeMode = 'Filesystem';
    const status = rec(claim.status);
    if (!status.phase) status.phase = 'Pending';
    claim.status = status;
  }
}

/**
 * ValidatePodTemplateSpecForStatefulSet and the restart checks after it: the
 * labels must match the selector; labels and annotations are checked (at
 * kube's paths `template.labels`/`template.annotations`), the pod spec is not,
 * since its volume mounts may name claims from volumeClaimTemplates.
 */
function validateStatefulSetTemplate(template: unknown, selector: LabelSelector | undefined, path: string): FieldError[] {
  if (template === undefined || template === null) return [fieldErrors.required(path)];
  const errs: FieldError[] = [];
  const meta = rec(rec(template).metadata);
  const labels = rec(meta.labels) as Record<string, string>;
  if ((selector === undefined || selector === null || !isEmptySelector(selector)) && !selectorMatches(selector ?? undefined, labels)) {
    errs.push(fieldErrors.invalid(`${path}.metadata.labels`, goLabels(meta.labels), '`selector` does not match template `labels`'));
  }
  errs.push(...validateLabels(meta.labels as Record<string, string> | undefined, `${path}.labels`));
  errs.push(...validateAnnotations(meta.annotations as Record<string, string> | undefined, `${path}.annotations`));
  const spec = rec(rec(template).spec);
  if (spec.restartPolicy !== 'Always') errs.push(fieldErrors.notSupported(`${path}.spec.restartPolicy`, spec.restartPolicy ?? '', ['Always']));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errs.push(fieldErrors.forbidden(`${path}.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in StatefulSet is not Supported'));
  }
  return errs;
}

function validateStatefulSet(ss: KubeObject): FieldError[] {
  const spec = rec(ss.spec);
  const errs: FieldError[] = [];
  errs.push(...validateEnum(spec.podManagementPolicy, 'spec.podManagementPolicy', ['OrderedReady', 'Parallel']));
  const us = rec(spec.updateStrategy);
  switch (us.type) {
    case 'OnDelete':
      if (us.rollingUpdate !== undefined && us.rollingUpdate !== null) {
        errs.push(fieldErrors.invalid('spec.updateStrategy.rollingUpdate', us.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'"));
      }
      break;
    case 'RollingUpdate': {
      const ru = rec(us.rollingUpdate);
      errs.push(...nonnegative(ru.partition, 'spec.updateStrategy.rollingUpdate.partition'));
      if (ru.maxUnavailable !== undefined) {
        errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, 'spec.updateStrategy.rollingUpdate.maxUnavailable'));
        errs.push(...notMoreThan100Percent(ru.maxUnavailable, 'spec.updateStrategy.rollingUpdate.maxUnavailable'));
      }
      break;
    }
    case '':
    case undefined:
      errs.push(fieldErrors.required('spec.updateStrategy', ''));
      break;
    default:
      errs.push(fieldErrors.invalid('spec.updateStrategy', us, "must be 'RollingUpdate' or 'OnDelete'"));
  }
  const retention = rec(spec.persistentVolumeClaimRetentionPolicy);
  errs.push(...validateEnum(retention.whenDeleted, 'spec.persistentVolumeClaimRetentionPolicy.whenDeleted', ['Retain', 'Delete']));
  errs.push(...validateEnum(retention.whenScaled, 'spec.persistentVolumeClaimRetentionPolicy.whenScaled', ['Retain', 'Delete']));
  errs.push(...nonnegative(spec.replicas, 'spec.replicas'));
  errs.push(...nonnegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  if (spec.ordinals !== undefined && spec.ordinals !== null) errs.push(...nonnegative(rec(spec.ordinals).start, 'spec.ordinals.start'));
  errs.push(...validateWorkloadSelector(spec.selector, 'spec.selector', 'empty selector is invalid for statefulset'));
  errs.push(...validateStatefulSetTemplate(spec.template, spec.selector as LabelSelector | undefined, 'spec.template'));
  if (typeof spec.serviceName === 'string' && spec.serviceName) errs.push(...dns1123Label(spec.serviceName, 'spec.serviceName'));
  return errs;
}

const MUTABLE_SPEC_FIELDS = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

function validateStatefulSetUpdate(ss: KubeObject, old: KubeObject): FieldError[] {
  const next = { ...rec(ss.spec) };
  const prev = { ...rec(old.spec) };
  for (const f of MUTABLE_SPEC_FIELDS) {
    delete next[f];
    delete prev[f];
  }
  if (!deepEqual(next, prev)) {
    return [
      fieldErrors.forbidden(
        'spec',
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    ];
  }
  return [];
}

export const STATEFUL_SET_TABLE = table(
  [
    col('Ready', 'string', 'Ready pods out of desired replicas'),
    AGE_COLUMN,
    wide('Containers', 'string', 'Container names of the pod template'),
    wide('Images', 'string', 'Container images of the pod template'),
  ],
  (ss, now) => {
    const spec = rec(ss.spec);
    const [names, images] = containerCells(rec(spec.template).spec);
    return [`${num(rec(ss.status).readyReplicas)}/${num(spec.replicas)}`, age(ss, now), names, images];
  },
);

export const statefulSetsResource: ResourceDefinition = defineResource({
  group: 'apps',
  plural: 'statefulsets',
  kind: 'StatefulSet',
  namespaced: true,
  shortNames: ['sts'],
  categories: ['all'],
  versions: [version('v1', 'io.k8s.api.apps.v1.StatefulSet', { table: STATEFUL_SET_TABLE })],
  subresources: [scaleSubresource(), statusSubresource('StatefulSet')],
  strategy: standardStrategy({
    namespaced: true,
    statusFields: ['status'],
    initialStatus: () => ({ replicas: 0, availableReplicas: 0 }),
    generationFields: ['spec'],
    default: (o) => defaultStatefulSet(o),
    prepareForStatusUpdate(obj, old) {
      obj.metadata = { ...(obj.metadata ?? {}), labels: clone(old.metadata?.labels) };
      if (old.metadata?.labels === undefined) delete obj.metadata.labels;
    },
    validate: (o) => validateStatefulSet(o),
    validateUpdate: (o, old) => validateStatefulSetUpdate(o, old),
  }),
});
