// apps/v1 replicasets: one replica by default, the template/selector checks,
// the selector immutable, DESIRED/CURRENT/READY and the status.replicas field selector.

import type { FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { defineResource, scaleSubresource, statusSubresource, version } from '../common/define';
import { clone, standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, col, formatLabelSelector, num, rec, table, wide, type LabelSelector } from '../common/table';
import { containerCells, nonnegative, validateTemplateForSelector, validateWorkloadSelector } from '../common/workload';
import { defaultPodTemplate } from '../core/pod-spec/defaults';
import { selectorImmutable } from './deployments';

function defaultReplicaSet(rs: KubeObject): void {
  const spec = rec(rs.spec);
  rs.spec = spec;
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  defaultPodTemplate(spec.template ?? (spec.template = {}));
}

function validateReplicaSet(rs: KubeObject): FieldError[] {
  const spec = rec(rs.spec);
  return [
    ...nonnegative(spec.replicas, 'spec.replicas'),
    ...nonnegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...validateWorkloadSelector(spec.selector, 'spec.selector'),
    ...validateTemplateForSelector(spec.template, spec.selector as LabelSelector | undefined, 'spec.template', 'ReplicaSet'),
  ];
}

export const REPLICA_SET_TABLE = table(
  [
    col('Desired', 'integer', 'Replicas asked for in the spec'),
    col('Current', 'integer', 'Replicas last observed'),
    col('Ready', 'integer', 'Replicas that are ready'),
    AGE_COLUMN,
    wide('Containers', 'string', 'Container names of the pod template'),
    wide('Images', 'string', 'Container images of the pod template'),
    wide('Selector', 'string', 'Label selector of the managed pods'),
  ],
  (rs, now) => {
    const spec = rec(rs.spec);
    const status = rec(rs.status);
    const [names, images] = containerCells(rec(spec.template).spec);
    return [num(spec.replicas), num(status.replicas), num(status.readyReplicas), age(rs, now), names, images, formatLabelSelector(spec.selector as LabelSelector | undefined)];
  },
);

export const replicaSetsResource: ResourceDefinition = defineResource({
  group: 'apps',
  plural: 'replicasets',
  kind: 'ReplicaSet',
  namespaced: true,
  shortNames: ['rs'],
  categories: ['all'],
  versions: [version('v1', 'io.k8s.api.apps.v1.ReplicaSet', { table: REPLICA_SET_TABLE })],
  subresources: [scaleSubresource(), statusSubresource('ReplicaSet')],
  strategy: standardStrategy({
    namespaced: true,
    statusFields: ['status'],
    initialStatus: () => ({ replicas: 0 }),
    generationFields: ['spec'],
    default: (o) => defaultReplicaSet(o),
    prepareForStatusUpdate(obj, old) {
      obj.metadata = { ...(obj.metadata ?? {}), labels: clone(old.metadata?.labels) };
      if (old.metadata?.labels === undefined) delete obj.metadata.labels;
    },
    validate: (o) => validateReplicaSet(o),
    validateUpdate: (o, old) => selectorImmutable(o, old),
  }),
  fieldSelectors: { 'status.replicas': (o) => String(num(rec(o.status).replicas)) },
});
