// core/v1 serviceaccounts (with the token subresource), bindings and
// componentstatuses (computed, never stored).

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition, TableDefinition } from '../../types';
import { customSubresource, defineResource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, rec, str, table } from '../common/table';
import { isDNS1123Subdomain } from '../../validation/names';

function validateServiceAccount(sa: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  arr(sa.imagePullSecrets).forEach((s, i) => {
    const name = str(rec(s).name);
    if (!name) errs.push(fieldErrors.required(`imagePullSecrets[${i}].name`));
  });
  arr(sa.secrets).forEach((s, i) => {
    const name = str(rec(s).name);
    if (name) for (const msg of isDNS1123Subdomain(name)) errs.push(fieldErrors.invalid(`secrets[${i}].name`, name, msg));
  });
  return errs;
}

export const SERVICE_ACCOUNT_TABLE = table([col('Secrets', 'string', 'Number of secrets listed'), AGE_COLUMN], (o, now) => [arr(o.secrets).length, age(o, now)]);

export const serviceAccountsResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'serviceaccounts',
  kind: 'ServiceAccount',
  namespaced: true,
  shortNames: ['sa'],
  versions: [version('v1', 'io.k8s.api.core.v1.ServiceAccount', { table: SERVICE_ACCOUNT_TABLE })],
  subresources: [customSubresource('token', 'TokenRequest', ['create'], 'serviceaccount-token', { group: 'authentication.k8s.io', version: 'v1' })],
  strategy: standardStrategy({
    namespaced: true,
    validate: (o) => validateServiceAccount(o),
    warningsOnCreate: (o) => serviceAccountWarnings(o),
    warningsOnUpdate: (o) => serviceAccountWarnings(o),
  }),
});

/** 1.32 deprecates enforce-mountable-secrets and warns about it. */
function serviceAccountWarnings(sa: KubeObject): string[] {
  const ann = sa.metadata?.annotations ?? {};
  if (ann['kubernetes.io/enforce-mountable-secrets'] !== undefined) {
    return ['metadata.annotations[kubernetes.io/enforce-mountable-secrets]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets'];
  }
  return [];
}

export const bindingsResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'bindings',
  kind: 'Binding',
  namespaced: true,
  verbs: ['create'],
  versions: [version('v1', 'io.k8s.api.core.v1.Binding')],
  virtual: true,
  handler: 'pod-binding',
});

export const COMPONENT_STATUS_TABLE: TableDefinition = table([col('Status', 'string', 'Health of the component'), col('Message', 'string', 'Message of the health check'), col('Error', 'string', 'Error of the health check')], (o) => {
  const conditions = arr(o.conditions).map(rec);
  let status = 'Unknown';
  let message = '';
  let error = '';
  for (const c of conditions) {
    if (c.type !== 'Healthy') continue;
    status = c.status === 'True' ? 'Healthy' : 'Unhealthy';
    message = str(c.message);
    error = str(c.error);
    break; // the first Healthy condition decides
  }
  return [status, message, error];
});

export const componentStatusesResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'componentstatuses',
  kind: 'ComponentStatus',
  namespaced: false,
  shortNames: ['cs'],
  verbs: ['get', 'list'],
  versions: [
    version('v1', 'io.k8s.api.core.v1.ComponentStatus', {
      table: COMPONENT_STATUS_TABLE,
      deprecated: true,
      deprecationWarning: 'v1 ComponentStatus is deprecated in v1.19+',
    }),
  ],
  virtual: true,
  handler: 'componentstatuses',
});
