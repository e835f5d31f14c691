// Scheme defaulting of apiextensions.k8s.io/v1 CustomResourceDefinitions
// (SetDefaults_CustomResourceDefinition and _Spec): singular is the
// lower-cased kind, listKind is <kind>List, conversion strategy None, the
// storage version recorded in status.storedVersions, and a webhook service
// port of 443.

import type { CustomResourceDefinition } from './types';

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export function defaultCustomResourceDefinition(crd: CustomResourceDefinition): void {
  if (!isObject(crd.spec)) return;
  const spec = crd.spec;
  if (isObject(spec.names)) {
    const names = spec.names;
    if (!names.singular && typeof names.kind === 'string') names.singular = names.kind.toLowerCase();
    if (!names.listKind && typeof names.kind === 'string' && names.kind) names.listKind = `${names.kind}List`;
  }
  if (spec.conversion === undefined || spec.conversion === null) spec.conversion = { strategy: 'None' };
  const service = (spec.conversion as { webhook?: { clientConfig?: { service?: Record<string, unknown> } } }).webhook?.clientConfig?.service;
  if (isObject(service) && service.port === undefined) service.port = 443;
  if (Array.isArray(spec.versions)) {
    crd.status = isObject(crd.status) ? crd.status : {};
    if (!crd.status.storedVersions?.length) {
      const storage = spec.versions.find((v) => isObject(v) && v.storage === true);
      if (storage?.name) crd.status.storedVersions = [storage.name];
    }
  }
}
