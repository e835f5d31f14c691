// apiregistration.k8s.io/v1 apiservices: named <version>.<group>, priorities
// in range, service port 443 by default; SERVICE ("Local" for built-in
// groups) and AVAILABLE columns.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { defineResource, statusSubresource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { isValidPathSegmentName, nameIsPathSegment } from '../../validation/names';
import { age, AGE_COLUMN, arr, col, num, rec, str, table } from '../common/table';

function defaultAPIService(s: KubeObject): void {
  const service = rec(s.spec).service;
  if (service !== undefined && service !== null && (rec(service).port === undefined || rec(service).port === null)) rec(service).port = 443;
}

function validateAPIService(s: KubeObject): FieldError[] {
  const spec = rec(s.spec);
  const errs: FieldError[] = [];
  const name = s.metadata?.name ?? '';
  const expected = `${str(spec.version)}.${str(spec.group)}`;
  if (!str(spec.group) && str(spec.version) !== 'v1') errs.push(fieldErrors.required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  // kube's name rule for APIServices: a path segment that is exactly version.group ("v1." for the core group).
  if (isValidPathSegmentName(name).length === 0 && name !== expected) errs.push(fieldErrors.invalid('metadata.name', name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(expected)}`));
  if (!str(spec.version)) errs.push(fieldErrors.required('spec.version'));
  const gpm = num(spec.groupPriorityMinimum);
  if (gpm <= 0 || gpm > 20000) errs.push(fieldErrors.invalid('spec.groupPriorityMinimum', gpm, 'must be positive and less than 20000'));
  const vp = num(spec.versionPriority);
  if (vp <= 0 || vp > 1000) errs.push(fieldErrors.invalid('spec.versionPriority', vp, 'must be positive and less than 1000'));
  if (spec.service === undefined || spec.service === null) {
    if (spec.caBundle) errs.push(fieldErrors.invalid('spec.caBundle', `${String(spec.caBundle).length} bytes`, 'local APIServices may not have a caBundle'));
    if (spec.insecureSkipTLSVerify) errs.push(fieldErrors.invalid('spec.insecureSkipTLSVerify', spec.insecureSkipTLSVerify, 'local APIServices may not have insecureSkipTLSVerify'));
  } else {
    const svc = rec(spec.service);
    if (!str(svc.namespace)) errs.push(fieldErrors.required('spec.service.namespace'));
    if (!str(svc.name)) errs.push(fieldErrors.required('spec.service.name'));
    if (spec.insecureSkipTLSVerify && spec.caBundle) {
      errs.push(fieldErrors.invalid('spec.insecureSkipTLSVerify', spec.insecureSkipTLSVerify, 'may not be true if caBundle is present'));
    }
  }
  return errs;
}

export const API_SERVICE_TABLE = table(
  [col('Service', 'string', 'Namespace/name of the backing service, or Local'), col('Available', 'string', 'Whether the API service is reachable'), AGE_COLUMN],
  (s, now) => {
    const svc = rec(s.spec).service;
    const service = svc === undefined || svc === null ? 'Local' : `${str(rec(svc).namespace)}/${str(rec(svc).name)}`;
    let status = 'Unknown';
    const available = arr(rec(s.status).conditions).map(rec).find((c) => c.type === 'Available');
    if (available) status = str(available.reason) && available.status !== 'True' ? `${str(available.status)} (${str(available.reason)})` : str(available.status);
    return [service, status, age(s, now)];
  },
);

export const apiServicesResource: ResourceDefinition = defineResource({
  group: 'apiregistration.k8s.io',
  plural: 'apiservices',
  kind: 'APIService',
  namespaced: false,
  categories: ['api-extensions'],
  versions: [version('v1', 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService', { table: API_SERVICE_TABLE })],
  subresources: [statusSubresource('APIService')],
  strategy: standardStrategy({
    namespaced: false,
    nameRule: nameIsPathSegment,
    statusFields: ['status'],
    initialStatus: () => ({}),
    default: (o) => defaultAPIService(o),
    validate: (o) => validateAPIService(o),
  }),
});

export function apiRegistrationResources(): ResourceDefinition[] {
  return [apiServicesResource];
}
