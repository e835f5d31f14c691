// apiextensions.k8s.io/v1 customresourcedefinitions, declared as a resource:
// names and conversion defaults, the name = <plural>.<group> rule, status
// with storedVersions and empty acceptedNames on create, generation. Serving
// the custom resources, schema checks and the Established/NamesAccepted
// conditions belong to the CRD machinery (services[CRD_VALIDATOR] adds its
// checks here when present).

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition, StrategyContext } from '../../types';
import { defineResource, statusSubresource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { arr, rec, str } from '../common/table';

export const CRD_VALIDATOR = 'crdValidator';

/** Extra CRD validation supplied by the CRD machinery (structural schema, versions, …). */
export interface CRDValidator {
  validate(crd: KubeObject): FieldError[];
  validateUpdate(crd: KubeObject, old: KubeObject): FieldError[];
}

function crdValidator(ctx: StrategyContext): CRDValidator | undefined {
  return ctx.services[CRD_VALIDATOR] as CRDValidator | undefined;
}

function defaultCRD(crd: KubeObject): void {
  const spec = rec(crd.spec);
  crd.spec = spec;
  const names = rec(spec.names);
  spec.names = names;
  if (!names.singular && str(names.kind)) names.singular = str(names.kind).toLowerCase();
  if (!names.listKind && str(names.kind)) names.listKind = `${str(names.kind)}List`;
  if (spec.conversion === undefined || spec.conversion === null) spec.conversion = { strategy: 'None' };
  const webhook = rec(rec(spec.conversion).webhook);
  const service = rec(webhook.clientConfig).service;
  if (service !== undefined && service !== null && (rec(service).port === undefined || rec(service).port === null)) rec(service).port = 443;
}

function validateCRDName(crd: KubeObject): FieldError[] {
  const spec = rec(crd.spec);
  const expected = `${str(rec(spec.names).plural)}.${str(spec.group)}`;
  const name = crd.metadata?.name ?? '';
  if (name && name !== expected) return [fieldErrors.invalid('metadata.name', name, `must be spec.names.plural+"."+spec.group`)];
  return [];
}

export const customResourceDefinitionsResource: ResourceDefinition = defineResource({
  group: 'apiextensions.k8s.io',
  plural: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  namespaced: false,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  versions: [version('v1', 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition')],
  subresources: [statusSubresource('CustomResourceDefinition')],
  strategy: standardStrategy({
    namespaced: false,
    statusFields: ['status'],
    generationFields: ['spec'],
    initialStatus: (obj) => {
      const storage = arr(rec(obj.spec).versions).map(rec).find((v) => v.storage === true);
      return { acceptedNames: { plural: '', kind: '' }, storedVersions: storage ? [str(storage.name)] : [] };
    },
    default: (o) => defaultCRD(o),
    validate: (o, ctx) => [...validateCRDName(o), ...(crdValidator(ctx)?.validate(o) ?? [])],
    updateValidatesNew: false,
    validateUpdate: (o, old, ctx) => [...validateCRDName(o), ...(crdValidator(ctx)?.validateUpdate(o, old) ?? [])],
  }),
});

export function apiExtensionsResources(): ResourceDefinition[] {
  return [customResourceDefinitionsResource];
}
