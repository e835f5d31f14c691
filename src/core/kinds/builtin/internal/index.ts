// The alpha groups a default 1.32 server knows but does not serve:
// internal.apiserver.k8s.io/v1alpha1 storageversions and
// storagemigration.k8s.io/v1alpha1 storageversionmigrations.

import { fieldErrors } from '../../../errors/field-errors';
import type { ResourceDefinition } from '../../types';
import { nameIsPathSegment } from '../../validation/names';
import { validateImmutableField } from '../../validation/object-meta';
import { defineResource, statusSubresource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { rec, str } from '../common/table';

export const storageVersionsResource: ResourceDefinition = defineResource({
  group: 'internal.apiserver.k8s.io',
  plural: 'storageversions',
  kind: 'StorageVersion',
  namespaced: false,
  versions: [{ ...version('v1alpha1', 'io.k8s.api.apiserverinternal.v1alpha1.StorageVersion'), enabledByDefault: false }],
  subresources: [statusSubresource('StorageVersion')],
  strategy: standardStrategy({ namespaced: false, nameRule: nameIsPathSegment, statusFields: ['status'], initialStatus: () => ({}) }),
});

export const storageVersionMigrationsResource: ResourceDefinition = defineResource({
  group: 'storagemigration.k8s.io',
  plural: 'storageversionmigrations',
  kind: 'StorageVersionMigration',
  namespaced: false,
  versions: [{ ...version('v1alpha1', 'io.k8s.api.storagemigration.v1alpha1.StorageVersionMigration'), enabledByDefault: false }],
  subresources: [statusSubresource('StorageVersionMigration')],
  strategy: standardStrategy({
    namespaced: false,
    statusFields: ['status'],
    initialStatus: () => ({}),
    generationFields: ['spec'],
    validate: (o) => (str(rec(rec(o.spec).resource).resource) ? [] : [fieldErrors.required('spec.resource.resource')]),
    validateUpdate: (o, old) => validateImmutableField(rec(o.spec).resource, rec(old.spec).resource, 'spec.resource'),
  }),
});

export function internalResources(): ResourceDefinition[] {
  return [storageVersionsResource, storageVersionMigrationsResource];
}
