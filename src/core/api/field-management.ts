// Managed fields on every write: who changed which field. The handlers call
// the hook just before validation with the object to be stored and the
// stored one; the server-side-apply machinery (src/core/fieldmanager) does
// the bookkeeping.

import { rfc3339 } from '../clock';
import { customResourceFieldManagerSchema } from '../crd';
import { managerOrUserAgent, updateManagedFields, type FieldManagerSchema } from '../fieldmanager';
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

/** Records the write's changes under `manager` (an Update entry). Updates never conflict. */
export function managedFieldsHook(ctx: ServerContext, served: ServedResource, manager: string, subresource: string): BeforeValidate {
  return (obj, old) => {
    const updated = updateManagedFields({
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
