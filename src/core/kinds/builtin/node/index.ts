// node.k8s.io/v1 runtimeclasses: a DNS-label handler, immutable; HANDLER column.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { isDNS1123Label } from '../../validation/names';
import { validateImmutableField } from '../../validation/object-meta';
import { defineResource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, col, str, table } from '../common/table';

function validateRuntimeClass(rc: KubeObject): FieldError[] {
  const handler = str(rc.handler);
  if (!handler) return [fieldErrors.required('handler')];
  return isDNS1123Label(handler).map((m) => fieldErrors.invalid('handler', handler, m));
}

export const RUNTIME_CLASS_TABLE = table([col('Handler', 'string', 'Runtime handler on the node'), AGE_COLUMN], (o, now) => [str(o.handler), age(o, now)]);

export const runtimeClassesResource: ResourceDefinition = defineResource({
  group: 'node.k8s.io',
  plural: 'runtimeclasses',
  kind: 'RuntimeClass',
  namespaced: false,
  versions: [version('v1', 'io.k8s.api.node.v1.RuntimeClass', { table: RUNTIME_CLASS_TABLE })],
  strategy: standardStrategy({
    namespaced: false,
    validate: (o) => validateRuntimeClass(o),
    validateUpdate: (o, old) => validateImmutableField(o.handler, old.handler, 'handler'),
  }),
});

export function nodeResources(): ResourceDefinition[] {
  return [runtimeClassesResource];
}
