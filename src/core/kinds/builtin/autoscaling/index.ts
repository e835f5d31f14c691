// autoscaling horizontalpodautoscalers, served as v2 (storage, preferred) and
// v1: minReplicas 1, the default CPU 80% metric and the scaling behaviour
// defaults of v2, the printer's REFERENCE/TARGETS/MINPODS/MAXPODS/REPLICAS.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { nameIsPathSegment } from '../../validation/names';
import { defineResource, statusSubresource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, num, rec, str, table } from '../common/table';
import { hpaV1ToV2, hpaV2ToV1 } from './hpa-conversion';
import { hpaTargets } from './hpa-targets';

type Obj = Record<string, unknown>;

const SCALE_UP_POLICIES = [
  { type: 'Pods', value: 4, periodSeconds: 15 },
  { type: 'Percent', value: 100, periodSeconds: 15 },
];
const SCALE_DOWN_POLICIES = [{ type: 'Percent', value: 100, periodSeconds: 15 }];

function defaultRules(rules: unknown, window: number, policies: Obj[]): Obj {
  const r = rules === undefined || rules === null ? {} : { ...rec(rules) };
  if (r.stabilizationWindowSeconds === undefined || r.stabilizationWindowSeconds === null) r.stabilizationWindowSeconds = window;
  if (!r.selectPolicy) r.selectPolicy = 'Max';
  if (!arr(r.policies).length) r.policies = policies.map((p) => ({ ...p }));
  return r;
}

/** SetDefaults_HorizontalPodAutoscaler (autoscaling/v2). */
function defaultHPA(hpa: KubeObject): void {
  const spec = rec(hpa.spec);
  hpa.spec = spec;
  if (spec.minReplicas === undefined || spec.minReplicas === null) spec.minReplicas = 1;
  if (!arr(spec.metrics).length) spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  if (spec.behavior !== undefined && spec.behavior !== null) {
    const b = rec(spec.behavior);
    b.scaleUp = defaultRules(b.scaleUp, 0, SCALE_UP_POLICIES);
    b.scaleDown = defaultRules(b.scaleDown, 300, SCALE_DOWN_POLICIES);
    spec.behavior = b;
  }
}

const METRIC_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];

function validateHPA(hpa: KubeObject): FieldError[] {
  const spec = rec(hpa.spec);
  const errs: FieldError[] = [];
  const ref = rec(spec.scaleTargetRef);
  if (!str(ref.kind)) errs.push(fieldErrors.required('spec.scaleTargetRef.kind'));
  if (!str(ref.name)) errs.push(fieldErrors.required('spec.scaleTargetRef.name'));
  else for (const msg of nameIsPathSegment(str(ref.name), false)) errs.push(fieldErrors.invalid('spec.scaleTargetRef.name', ref.name, msg));
  if (typeof spec.minReplicas === 'number' && spec.minReplicas < 1) {
    errs.push(fieldErrors.invalid('spec.minReplicas', spec.minReplicas, 'must be greater than or equal to 1'));
  }
  const max = num(spec.maxReplicas);
  if (max < 1) errs.push(fieldErrors.invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (typeof spec.minReplicas === 'number' && max < spec.minReplicas) {
    errs.push(fieldErrors.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  }
  arr(spec.metrics).forEach((m, i) => {
    const metric = rec(m);
    const p = `spec.metrics[${i}]`;
    if (!metric.type) errs.push(fieldErrors.required(`${p}.type`, 'must specify a metric source type'));
    else if (!METRIC_TYPES.includes(str(metric.type))) errs.push(fieldErrors.notSupported(`${p}.type`, metric.type, METRIC_TYPES));
  });
  return errs;
}

export const HPA_TABLE = table(
  [
    col('Reference', 'string', 'Kind/name of the scaled workload'),
    col('Targets', 'string', 'Current and target metric values'),
    col('MinPods', 'string', 'Lowest replica count allowed'),
    col('MaxPods', 'string', 'Highest replica count allowed'),
    col('Replicas', 'string', 'Replica count last seen'),
    AGE_COLUMN,
  ],
  (hpa, now) => {
    const spec = rec(hpa.spec);
    const ref = rec(spec.scaleTargetRef);
    const min = spec.minReplicas === undefined || spec.minReplicas === null ? '<unset>' : num(spec.minReplicas);
    return [`${str(ref.kind)}/${str(ref.name)}`, hpaTargets(hpa), min, num(spec.maxReplicas), num(rec(hpa.status).currentReplicas), age(hpa, now)];
  },
);

export const horizontalPodAutoscalersResource: ResourceDefinition = defineResource({
  group: 'autoscaling',
  plural: 'horizontalpodautoscalers',
  kind: 'HorizontalPodAutoscaler',
  namespaced: true,
  shortNames: ['hpa'],
  categories: ['all'],
  versions: [
    version('v2', 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler', { table: HPA_TABLE }),
    version('v1', 'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler', { storage: false, table: { columns: HPA_TABLE.columns, cells: (o, now) => HPA_TABLE.cells(hpaV1ToV2(o), now) } }),
  ],
  subresources: [statusSubresource('HorizontalPodAutoscaler')],
  convert: (obj, toVersion) => {
    const from = obj.apiVersion === 'autoscaling/v1' ? 'v1' : 'v2';
    if (from === toVersion) return obj;
    return toVersion === 'v1' ? hpaV2ToV1(obj) : hpaV1ToV2(obj);
  },
  strategy: standardStrategy({
    namespaced: true,
    statusFields: ['status'],
    // v2's HorizontalPodAutoscalerStatus{}: only desiredReplicas is serialised when zero.
    initialStatus: () => ({ desiredReplicas: 0 }),
    default: (o) => defaultHPA(o),
    validate: (o) => validateHPA(o),
  }),
});

export function autoscalingResources(): ResourceDefinition[] {
  return [horizontalPodAutoscalersResource];
}
