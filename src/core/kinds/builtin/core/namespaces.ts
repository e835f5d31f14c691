// core/v1 namespaces: a DNS-1123 label name, the kubernetes.io/metadata.name
// label, the `kubernetes` finalizer added on create, phase Active, the status
// and finalize subresources, no deletecollection.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { nameIsDNSLabel, isQualifiedName } from '../../validation/names';
import { defineResource, statusSubresource, version, VERBS_NO_DELETECOLLECTION } from '../common/define';
import { clone, keepFields, standardStrategy } from '../common/strategy';
import { age, arr, col, rec, str, table, AGE_COLUMN } from '../common/table';

export const METADATA_NAME_LABEL = 'kubernetes.io/metadata.name';
const STANDARD_FINALIZERS = new Set(['kubernetes']);

/** The namespace's own name as a label (SetDefaults_Namespace and Canonicalize). */
function setNameLabel(ns: KubeObject): void {
  const name = ns.metadata?.name;
  if (!name) return;
  ns.metadata = ns.metadata ?? {};
  ns.metadata.labels = { ...(ns.metadata.labels ?? {}), [METADATA_NAME_LABEL]: name };
}

/** The core ValidateFinalizerName: qualified, or one of the standard names. */
function validateSpecFinalizers(finalizers: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of arr(finalizers)) {
    const name = String(f);
    for (const msg of isQualifiedName(name)) errs.push(fieldErrors.invalid(path, name, msg));
    if (!name.includes('/') && !STANDARD_FINALIZERS.has(name)) {
      errs.push(fieldErrors.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  return errs;
}

function validateNamespaceStatus(ns: KubeObject): FieldError[] {
  const phase = str(rec(ns.status).phase);
  if (!ns.metadata?.deletionTimestamp) {
    if (phase !== 'Active') return [fieldErrors.invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  } else if (phase !== 'Terminating') {
    return [fieldErrors.invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
  }
  return [];
}

export const NAMESPACE_TABLE = table([col('Status', 'string', 'Phase of the namespace'), AGE_COLUMN], (o, now) => [str(rec(o.status).phase), age(o, now)]);

export const namespacesResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
  shortNames: ['ns'],
  verbs: VERBS_NO_DELETECOLLECTION,
  versions: [version('v1', 'io.k8s.api.core.v1.Namespace', { table: NAMESPACE_TABLE })],
  subresources: [
    { name: 'finalize', kind: 'Namespace', verbs: ['update'], type: 'status', fields: ['spec'] },
    statusSubresource('Namespace'),
  ],
  strategy: {
    ...namespaceStrategy(),
    // A deleted namespace stays, Terminating, until the namespace controller empties it and removes spec.finalizers.
    pendingFinalizers: (obj) => arr(rec(obj.spec).finalizers).map(String),
    prepareForDeletion(obj) {
      obj.status = { ...rec(obj.status), phase: 'Terminating' };
    },
  },
  fieldSelectors: {
    'status.phase': (o) => str(rec(o.status).phase),
    // kube keeps the legacy "name" field selector for namespaces.
    name: (o) => o.metadata?.name ?? '',
  },
});

function namespaceStrategy() {
  return standardStrategy({
    namespaced: false,
    nameRule: nameIsDNSLabel,
    statusFields: ['status'],
    default(obj) {
      setNameLabel(obj);
      const status = rec(obj.status);
      if (obj.status !== undefined && !status.phase) obj.status = { ...status, phase: 'Active' };
    },
    initialStatus: () => ({ phase: 'Active' }),
    prepareForCreate(obj) {
      // The name is known by now (generated names too), so the label can be set here as well as in canonicalize.
      setNameLabel(obj);
      // The kubernetes finalizer is required on create; it may be removed later through finalize.
      const spec = rec(obj.spec);
      const finalizers = arr(spec.finalizers).map(String);
      if (!finalizers.includes('kubernetes')) finalizers.push('kubernetes');
      obj.spec = { ...spec, finalizers };
    },
    prepareForUpdate(obj, old) {
      // spec.finalizers only change through the finalize subresource.
      const spec = rec(obj.spec);
      const oldFinalizers = rec(old.spec).finalizers;
      if (oldFinalizers === undefined) delete spec.finalizers;
      else spec.finalizers = clone(oldFinalizers);
      obj.spec = spec;
    },
    prepareForSubresourceUpdate(sub, obj, old) {
      if (sub === 'finalize') keepFields(obj, old, ['status']);
    },
    canonicalize: (obj) => setNameLabel(obj),
    validate: (obj) => validateSpecFinalizers(rec(obj.spec).finalizers, 'spec.finalizers'),
    validateStatusUpdate: (obj) => validateNamespaceStatus(obj),
    validateSubresourceUpdate: (sub, obj) => (sub === 'finalize' ? validateSpecFinalizers(rec(obj.spec).finalizers, 'spec.finalizers') : []),
  });
}
