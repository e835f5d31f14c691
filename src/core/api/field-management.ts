// Managed fields on every write: who changed which field. The handlers call
// the hook with the request's object, before mutating admission and the
// kind's prepare hooks (decision 0260), and the stored one; the
// server-side-apply machinery (src/core/fieldmanager) does the bookkeeping.

import { rfc3339 } from '../clock';
import { customResourceFieldManagerSchema, isCustomResource } from '../crd';
import { managerOrUserAgent, updateManagedFields, type FieldManagerSchema, type FieldPaths } from '../fieldmanager';
import type { KubeObject } from '../kinds/types';
import { getBuiltinSchemaTable } from '../schema/builtin-table';
import type { ServerContext } from './context';
import type { ServedResource } from './registry';

/**
 * The manager of a write: ?fieldManager, else the User-Agent's product (the
 * part before the first '/', printable characters only, at most 128 bytes).
 */
export function fieldManagerName(explicit: string | undefined, userAgent: string | null): string {
  return managerOrUserAgent(explicit, userAgent);
}

export function fieldManagerSchema(served: ServedResource): FieldManagerSchema {
  return customResourceFieldManagerSchema(served) ?? { root: served.version.schema, table: getBuiltinSchemaTable() };
}

export type BeforeValidate = (obj: KubeObject, old: KubeObject | undefined) => void;

/**
 * The strategy's reset fields (GetResetFields) where the field manager's
 * defaults do not know them: a custom resource with the status subresource
 * resets `status` on the main resource and `spec` through /status. The
 * manager runs before the strategy's prepare hooks (as in kube), so these
 * must be left out of the request's ownership here.
 */
function customResourceResetFields(served: ServedResource, subresource: string): FieldPaths | undefined {
  if (!isCustomResource(served)) return undefined;
  const hasStatus = served.definition.subresources?.some((s) => s.name === 'status' && s.type === 'status');
  if (!hasStatus) return [];
  if (subresource === '') return [['status']];
  if (subresource === 'status') return [['spec']];
  return [];
}

/**
 * Records the write's changes under `manager` (an Update entry). Updates never
 * conflict. Handlers pass it as WriteOptions.managedFields: it runs on the
 * request's object before mutating admission and the kind's prepare hooks.
 */
export function managedFieldsHook(ctx: ServerContext, served: ServedResource, manager: string, subresource: string): BeforeValidate {
  const ignoredFields = customResourceResetFields(served, subresource);
  return (obj, old) => {
    const updated = updateManagedFields({
      ...(ignoredFields ? { ignoredFields } : {}),
      live: old,
      updated: obj,
      manager,
      apiVersion: served.apiVersion,
      kind: served.definition.kind,
      subresource,
      now: rfc3339(ctx.clock.now()),
      schema: fieldManagerSchema(served),
    });
    const managedFields = updated.metadata?.managedFields;
    if (!obj.metadata) obj.metadata = {};
    if (managedFields && managedFields.length) obj.metadata.managedFields = managedFields;
    else delete obj.metadata.managedFields;
  };
}
