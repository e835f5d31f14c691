// apps/v1 controllerrevisions: data required and immutable, the CONTROLLER
// and REVISION columns.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { validateImmutableField } from '../../validation/object-meta';
import { defineResource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, col, num, table } from '../common/table';

function validateControllerRevision(cr: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (cr.data === undefined || cr.data === null) errs.push(fieldErrors.required('data'));
  if (num(cr.revision) < 0) errs.push(fieldErrors.invalid('revision', cr.revision, 'must be greater than or equal to 0'));
  return errs;
}

/** The owning controller as "kind.group/name" (formatResourceName). */
export function controllerOf(obj: KubeObject): string {
  const ref = (obj.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const group = ref.apiVersion.includes('/') ? ref.apiVersion.slice(0, ref.apiVersion.indexOf('/')) : '';
  const gk = group ? `${ref.kind}.${group}` : ref.kind;
  return `${gk.toLowerCase()}/${ref.name}`;
}

export const CONTROLLER_REVISION_TABLE = table(
  [col('Controller', 'string', 'Kind/name of the owning controller'), col('Revision', 'string', 'Revision number of this snapshot'), AGE_COLUMN],
  (cr, now) => [controllerOf(cr), num(cr.revision), age(cr, now)],
);

export const controllerRevisionsResource: ResourceDefinition = defineResource({
  group: 'apps',
  plural: 'controllerrevisions',
  kind: 'ControllerRevision',
  namespaced: true,
  versions: [version('v1', 'io.k8s.api.apps.v1.ControllerRevision', { table: CONTROLLER_REVISION_TABLE })],
  strategy: standardStrategy({
    namespaced: true,
    validate: (o) => validateControllerRevision(o),
    validateUpdate: (o, old) => validateImmutableField(o.data, old.data, 'data'),
  }),
});
