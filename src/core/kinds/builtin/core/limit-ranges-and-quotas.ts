// core/v1 limitranges (container defaults derived from max/default/min) and
// resourcequotas (status reset on create, REQUEST and LIMIT columns).

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { parseQuantity } from '../common/quantity';
import { defineResource, statusSubresource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, rec, table } from '../common/table';
import { validateEnum } from './pod-spec/validation';

function defaultLimitRange(lr: KubeObject): void {
  for (const item of arr(rec(lr.spec).limits).map(rec)) {
    if (item.type !== 'Container') continue;
    const def = { ...rec(item.default) };
    const defReq = { ...rec(item.defaultRequest) };
    for (const [k, v] of Object.entries(rec(item.max))) if (!Object.hasOwn(def, k)) def[k] = v;
    for (const [k, v] of Object.entries(def)) if (!Object.hasOwn(defReq, k)) defReq[k] = v;
    for (const [k, v] of Object.entries(rec(item.min))) if (!Object.hasOwn(defReq, k)) defReq[k] = v;
    if (Object.keys(def).length) item.default = def;
    if (Object.keys(defReq).length) item.defaultRequest = defReq;
  }
}

const LIMIT_TYPES = ['Container', 'PersistentVolumeClaim', 'Pod'];

function validateLimitRange(lr: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  arr(rec(lr.spec).limits).forEach((it, i) => {
    const item = rec(it);
    const p = `spec.limits[${i}]`;
    errs.push(...validateEnum(item.type, `${p}.type`, LIMIT_TYPES));
    const min = rec(item.min);
    const max = rec(item.max);
    for (const [k, v] of Object.entries(min)) {
      const mx = max[k];
      if (mx !== undefined && (parseQuantity(v) ?? 0) > (parseQuantity(mx) ?? 0)) {
        errs.push(fieldErrors.invalid(`${p}.min[${k}]`, v, `min value ${String(v)} is greater than max value ${String(mx)}`));
      }
    }
  });
  return errs;
}

export const limitRangesResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'limitranges',
  kind: 'LimitRange',
  namespaced: true,
  shortNames: ['limits'],
  versions: [version('v1', 'io.k8s.api.core.v1.LimitRange')],
  strategy: standardStrategy({ namespaced: true, default: (o) => defaultLimitRange(o), validate: (o) => validateLimitRange(o) }),
});

function validateResourceQuota(q: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(rec(rec(q.spec).hard))) {
    const n = parseQuantity(v);
    if (n === undefined) continue;
    if (n < 0) errs.push(fieldErrors.invalid(`spec.hard[${k}]`, String(v), 'must be greater than or equal to 0'));
  }
  arr(rec(q.spec).scopes).forEach((s, i) => {
    const scopes = ['BestEffort', 'CrossNamespacePodAffinity', 'NotBestEffort', 'NotTerminating', 'PriorityClass', 'Terminating'];
    if (!scopes.includes(String(s))) errs.push(fieldErrors.notSupported(`spec.scopes[${i}]`, s, scopes));
  });
  return errs;
}

/** printResourceQuota: "name: used/hard" pairs, limits.* in the LIMIT column. */
function quotaColumns(q: KubeObject): [string, string] {
  const status = rec(q.status);
  const hard = rec(status.hard);
  const used = rec(status.used);
  const requests: string[] = [];
  const limits: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const text = `${name}: ${String(used[name] ?? '0')}/${String(hard[name])}`;
    (name.split('.').length > 1 && name.split('.')[0] === 'limits' ? limits : requests).push(text);
  }
  return [requests.join(', '), limits.join(', ')];
}

export const RESOURCE_QUOTA_TABLE = table([AGE_COLUMN, col('Request', 'string', 'Used/hard pairs of request quotas'), col('Limit', 'string', 'Used/hard pairs of limit quotas')], (q, now) => [
  age(q, now),
  ...quotaColumns(q),
]);

export const resourceQuotasResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'resourcequotas',
  kind: 'ResourceQuota',
  namespaced: true,
  shortNames: ['quota'],
  versions: [version('v1', 'io.k8s.api.core.v1.ResourceQuota', { table: RESOURCE_QUOTA_TABLE })],
  subresources: [statusSubresource('ResourceQuota')],
  strategy: standardStrategy({ namespaced: true, statusFields: ['status'], initialStatus: () => ({}), validate: (o) => validateResourceQuota(o) }),
});

