// scheduling.k8s.io/v1 priorityclasses: PreemptLowerPriority by default, the
// value and policy immutable, user classes at most 1e9 and not named system-*.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { validateImmutableField } from '../../validation/object-meta';
import { defineResource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, col, num, str, table } from '../common/table';
import { validateEnum } from '../core/pod-spec/validation';

export const HIGHEST_USER_PRIORITY = 1000000000;
const SYSTEM_CLASSES: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

function validatePriorityClass(pc: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = pc.metadata?.name ?? '';
  const value = num(pc.value);
  if (name in SYSTEM_CLASSES) {
    if (SYSTEM_CLASSES[name] !== value) errs.push(fieldErrors.forbidden('metadata.name', `${name} is a reserved system priority class name or value`));
  } else {
    if (value > HIGHEST_USER_PRIORITY) errs.push(fieldErrors.forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_PRIORITY}`));
    if (name.startsWith('system-')) errs.push(fieldErrors.forbidden('metadata.name', "priority class names with 'system-' prefix are reserved"));
  }
  if (pc.preemptionPolicy !== undefined && pc.preemptionPolicy !== null) errs.push(...validateEnum(pc.preemptionPolicy, 'preemptionPolicy', ['Never', 'PreemptLowerPriority']));
  return errs;
}

export const PRIORITY_CLASS_TABLE = table(
  [
    col('Value', 'integer', 'Priority given to pods of this class'),
    col('Global-Default', 'boolean', 'Whether this is the default class'),
    AGE_COLUMN,
    col('PreemptionPolicy', 'string', 'Whether such pods may preempt others'),
  ],
  (pc, now) => [num(pc.value), pc.globalDefault === true, age(pc, now), str(pc.preemptionPolicy)],
);

export const priorityClassesResource: ResourceDefinition = defineResource({
  group: 'scheduling.k8s.io',
  plural: 'priorityclasses',
  kind: 'PriorityClass',
  namespaced: false,
  shortNames: ['pc'],
  versions: [version('v1', 'io.k8s.api.scheduling.v1.PriorityClass', { table: PRIORITY_CLASS_TABLE })],
  strategy: standardStrategy({
    namespaced: false,
    default: (o) => {
      if (!o.preemptionPolicy) o.preemptionPolicy = 'PreemptLowerPriority';
    },
    validate: (o) => validatePriorityClass(o),
    validateUpdate: (o, old) => [
      ...validateImmutableField(o.value ?? 0, old.value ?? 0, 'value'),
      ...validateImmutableField(o.preemptionPolicy, old.preemptionPolicy, 'preemptionPolicy'),
    ],
  }),
});

export function schedulingResources(): ResourceDefinition[] {
  return [priorityClassesResource];
}
