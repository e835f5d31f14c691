// apiextensions.k8s.io/v1 customresourcedefinitions: the resource and its
// strategy (apiextensions-apiserver's registry/customresourcedefinition):
// status cleared on create with the storage version recorded in
// status.storedVersions, generation bumped on spec changes, status writes that
// leave the spec alone, validation (crd-validation.ts), and deletion that
// waits for the custom resources to be removed.
//
// Deletion: kube's CRD storage adds the customresourcecleanup finalizer
// itself when a delete starts. Here the generic delete keeps a live CRD
// through `pendingFinalizers` and `prepareForDeletion` records the
// Terminating condition (InstanceDeletionPending); the controller
// (controller.ts) deletes the instances and then completes the deletion.

import { rfc3339 } from '../clock';
import type { ResourceDefinition, Strategy } from '../kinds/types';
import { deepEqual } from '../kinds/validation/deep-equal';
import { findCondition, setCondition, TERMINATING } from './conditions';
import { defaultCustomResourceDefinition } from './crd-defaults';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionStatusUpdate, validateCustomResourceDefinitionUpdate } from './crd-validation';
import { APIEXTENSIONS_GROUP, CLEANUP_FINALIZER, CRD_KIND, CRD_RESOURCE, type CustomResourceDefinition } from './types';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;

function clone<T>(x: T): T {
  return x === undefined ? x : (JSON.parse(JSON.stringify(x)) as T);
}

/** Adds the storage version to status.storedVersions when missing (PrepareForCreate/Update). */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = (crd.spec?.versions ?? []).find((v) => v?.storage === true);
  if (!storage?.name) return;
  crd.status = crd.status ?? {};
  const stored = crd.status.storedVersions ?? [];
  if (!stored.includes(storage.name)) crd.status.storedVersions = [...stored, storage.name];
}

/** Whether the instance cleanup finished (the finalizer controller's terminal Terminating condition is False). */
export function cleanupDone(crd: CustomResourceDefinition): boolean {
  return findCondition(crd, TERMINATING)?.status === 'False';
}

const strategy: Strategy = {
  default(obj) {
    defaultCustomResourceDefinition(obj as CustomResourceDefinition);
  },
  prepareForCreate(obj) {
    const crd = obj as CustomResourceDefinition;
    // The Go status struct serialises acceptedNames' plural and kind even when empty.
    crd.status = { acceptedNames: { plural: '', kind: '' } };
    crd.metadata = { ...(crd.metadata ?? {}), generation: 1 };
    recordStorageVersion(crd);
  },
  prepareForUpdate(obj, old, ctx) {
    const crd = obj as CustomResourceDefinition;
    const previous = old as CustomResourceDefinition;
    if (ctx.subresource === 'status') {
      // The status strategy keeps the spec; kube's CRD status strategy leaves metadata as sent (the finalizer controller relies on it).
      crd.spec = clone(previous.spec);
      crd.metadata = { ...(crd.metadata ?? {}), generation: previous.metadata?.generation ?? 0 };
      return;
    }
    crd.status = clone(previous.status);
    const generation = previous.metadata?.generation ?? 0;
    crd.metadata = { ...(crd.metadata ?? {}), generation: deepEqual(crd.spec, previous.spec) ? generation : generation + 1 };
    recordStorageVersion(crd);
  },
  validate(obj) {
    return validateCustomResourceDefinition(obj);
  },
  validateUpdate(obj, old, ctx) {
    if (ctx.subresource === 'status') return validateCustomResourceDefinitionStatusUpdate(obj, old);
    return validateCustomResourceDefinitionUpdate(obj, old);
  },
  pendingFinalizers(obj) {
    const crd = obj as CustomResourceDefinition;
    if (crd.metadata?.finalizers?.includes(CLEANUP_FINALIZER)) return [];
    if (!crd.metadata?.deletionTimestamp) return [CLEANUP_FINALIZER];
    return cleanupDone(crd) ? [] : [CLEANUP_FINALIZER];
  },
  prepareForDeletion(obj, ctx) {
    const crd = obj as CustomResourceDefinition;
    const finalizers = crd.metadata?.finalizers ?? [];
    if (!finalizers.includes(CLEANUP_FINALIZER)) crd.metadata = { ...(crd.metadata ?? {}), finalizers: [...finalizers, CLEANUP_FINALIZER] };
    setCondition(
      crd,
      { type: TERMINATING, status: 'True', reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' },
      rfc3339(ctx.clock.now()),
    );
  },
  allowCreateOnUpdate: false,
  // As kube: a PUT must name a resourceVersion (422 otherwise); patches apply to the version they were computed on.
  allowUnconditionalUpdate: false,
};

/** The customresourcedefinitions resource as a 1.32 server serves it (default table: Name, Created At). */
export const customResourceDefinitionsResource: ResourceDefinition = {
  group: APIEXTENSIONS_GROUP,
  plural: CRD_RESOURCE,
  singular: 'customresourcedefinition',
  kind: CRD_KIND,
  listKind: `${CRD_KIND}List`,
  namespaced: false,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  verbs: VERBS,
  versions: [
    {
      name: 'v1',
      served: true,
      storage: true,
      schema: { ref: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition' },
    },
  ],
  subresources: [{ name: 'status', kind: CRD_KIND, verbs: ['get', 'patch', 'update'], type: 'status' }],
  strategy,
};

/**
 * The served resources with this module's customresourcedefinitions: it
 * replaces a declaration of the same resource among the built-ins (whose
 * strategy would not know CRDs) or is added after them.
 */
export function withCustomResourceDefinitions(builtins: readonly ResourceDefinition[]): ResourceDefinition[] {
  const isCrd = (d: ResourceDefinition) => d.group === APIEXTENSIONS_GROUP && d.plural === CRD_RESOURCE;
  const existing = builtins.find(isCrd);
  if (!existing) return [...builtins, customResourceDefinitionsResource];
  // Keep what the kinds declared (table, docs) and take this module's strategy.
  return builtins.map((d) => (isCrd(d) ? { ...d, strategy } : d));
}

