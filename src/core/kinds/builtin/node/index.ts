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

export const RUNTIME_CLASS_TABLE = table([col('Handler', 'string', 'handler specifies the underlying runtime and configuration that the CRI implementation will use to handle pods of this class. The possible values are specific to the node & CRI configuration.  It is assumed that all handlers are available on every node, and handlers of the same name are equivalent on every node. For example, a handler called "runc" might specify that the runc OCI runtime (using native Linux containers) will be used to run the containers in a pod. The Handler must be lowercase, conform to the DNS Label (RFC 1123) requirements, and is immutable.'), AGE_COLUMN], (o, now) => [str(o.handler), age(o, now)]);

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
