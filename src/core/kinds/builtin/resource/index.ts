// resource.k8s.io (dynamic resource allocation): deviceclasses,
// resourceclaims, resourceclaimtemplates and resourceslices at v1beta1 and
// v1alpha3. A default 1.32 server serves neither (DynamicResourceAllocation
// is off); --runtime-config can enable them.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition, ResourceVersionDefinition, TableDefinition } from '../../types';
import { validateImmutableField } from '../../validation/object-meta';
import { defineResource, statusSubresource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, rec, str, table } from '../common/table';

const GROUP = 'resource.k8s.io';

function versionsOf(kind: string, t?: TableDefinition): ResourceVersionDefinition[] {
  return [
    { ...version('v1beta1', `io.k8s.api.resource.v1beta1.${kind}`, t ? { table: t } : {}), enabledByDefault: false },
    { ...version('v1alpha3', `io.k8s.api.resource.v1alpha3.${kind}`, t ? { storage: false, table: t } : { storage: false }), enabledByDefault: false },
  ];
}

const sameShape = (obj: KubeObject, toVersion: string): KubeObject => ({ ...obj, apiVersion: `${GROUP}/${toVersion}` });

function claimState(claim: KubeObject): string {
  const status = rec(claim.status);
  const states: string[] = [];
  if (claim.metadata?.deletionTimestamp) states.push('deleted');
  if (status.allocation === undefined || status.allocation === null) {
    if (!claim.metadata?.deletionTimestamp) states.push('pending');
  } else {
    states.push('allocated');
    if (arr(status.reservedFor).length) states.push('reserved');
    else if (claim.metadata?.deletionTimestamp) states.push('deallocating');
  }
  return states.join(',');
}

export const deviceClassesResource = defineResource({
  group: GROUP,
  plural: 'deviceclasses',
  kind: 'DeviceClass',
  namespaced: false,
  versions: versionsOf('DeviceClass', table([AGE_COLUMN], (o, now) => [age(o, now)])),
  convert: sameShape,
  strategy: standardStrategy({ namespaced: false, generationFields: ['spec'] }),
});

export const resourceClaimsResource = defineResource({
  group: GROUP,
  plural: 'resourceclaims',
  kind: 'ResourceClaim',
  namespaced: true,
  versions: versionsOf('ResourceClaim', table([col('State', 'string', 'Allocation and reservation state'), AGE_COLUMN], (o, now) => [claimState(o), age(o, now)])),
  subresources: [statusSubresource('ResourceClaim')],
  convert: sameShape,
  strategy: standardStrategy({
    namespaced: true,
    statusFields: ['status'],
    validate: (o) => (arr(rec(rec(o.spec).devices).requests).length > 32 ? [fieldErrors.tooMany('spec.devices.requests', arr(rec(rec(o.spec).devices).requests).length, 32)] : []),
    validateUpdate: (o, old) => validateImmutableField(o.spec, old.spec, 'spec'),
  }),
});

export const resourceClaimTemplatesResource = defineResource({
  group: GROUP,
  plural: 'resourceclaimtemplates',
  kind: 'ResourceClaimTemplate',
  namespaced: true,
  versions: versionsOf('ResourceClaimTemplate', table([AGE_COLUMN], (o, now) => [age(o, now)])),
  convert: sameShape,
  strategy: standardStrategy({ namespaced: true, validateUpdate: (o, old) => validateImmutableField(o.spec, old.spec, 'spec') }),
});

function validateSlice(s: KubeObject): FieldError[] {
  const spec = rec(s.spec);
  const errs: FieldError[] = [];
  if (!str(spec.driver)) errs.push(fieldErrors.required('spec.driver'));
  if (!str(rec(spec.pool).name)) errs.push(fieldErrors.required('spec.pool.name'));
  const selectors = [str(spec.nodeName) ? 1 : 0, spec.nodeSelector ? 1 : 0, spec.allNodes === true ? 1 : 0].reduce((a, b) => a + b, 0);
  if (selectors !== 1) errs.push(fieldErrors.invalid('spec', '{`nodeName`, `nodeSelector`, `allNodes`}', 'exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required'));
  return errs;
}

export const resourceSlicesResource = defineResource({
  group: GROUP,
  plural: 'resourceslices',
  kind: 'ResourceSlice',
  namespaced: false,
  versions: versionsOf(
    'ResourceSlice',
    table([col('Node', 'string'), col('Driver', 'string'), col('Pool', 'string'), AGE_COLUMN], (o, now) => {
      const spec = rec(o.spec);
      return [str(spec.nodeName) || '<none>', str(spec.driver), str(rec(spec.pool).name), age(o, now)];
    }),
  ),
  convert: sameShape,
  strategy: standardStrategy({ namespaced: false, generationFields: ['spec'], validate: (o) => validateSlice(o) }),
  fieldSelectors: { 'spec.nodeName': (o) => str(rec(o.spec).nodeName), 'spec.driver': (o) => str(rec(o.spec).driver) },
});

export function resourceResources(): ResourceDefinition[] {
  return [deviceClassesResource, resourceClaimsResource, resourceClaimTemplatesResource, resourceSlicesResource];
}
