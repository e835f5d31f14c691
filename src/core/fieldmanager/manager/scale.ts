// Managed fields across the scale subresource (managedfields.ScaleHandler).
// A Scale object shows only the managers that own the parent's replicas
// field, as owners of `.spec.replicas` in autoscaling/v1; after a write to
// /scale, the parent's entries are rebuilt: managers that lost replicas to
// the scale write lose it in the parent too, and scale managers become
// owners of the parent's replicas path in the parent's version.

import type { ManagedFieldsEntry } from '../../kinds/types';
import { fieldElement, type Path } from '../fieldpath/element';
import { FieldSet } from '../fieldpath/set';
import type { ManagedFieldSets } from '../merge/updater';
import { decodeManagedFields, emptyManaged, encodeManagedFields, type Managed } from './managed';

export const SCALE_API_VERSION = 'autoscaling/v1';
const REPLICAS_IN_SCALE: Path = [fieldElement('spec'), fieldElement('replicas')];

/** Replicas path of the parent per API version ("apps/v1" → spec.replicas); null for versions without scale. */
export type ReplicasPaths = Readonly<Record<string, readonly string[] | null>>;

function toPath(fields: readonly string[]): Path {
  return fields.map(fieldElement);
}

/** ToSubresource: the Scale object's managed fields. */
export function scaleToSubresource(parentEntries: readonly ManagedFieldsEntry[] | undefined, mappings: ReplicasPaths): ManagedFieldsEntry[] | undefined {
  const parent = decodeManagedFields(parentEntries);
  const out: Managed = emptyManaged();
  for (const [manager, vs] of parent.fields) {
    const path = mappings[vs.apiVersion];
    if (!path) continue;
    if (vs.set.has(toPath(path))) {
      out.fields.set(manager, { set: FieldSet.of(REPLICAS_IN_SCALE), apiVersion: SCALE_API_VERSION, applied: vs.applied });
      out.times.set(manager, parent.times.get(manager));
    }
  }
  return encodeManagedFields(out);
}

/** ToParent: the parent's managed fields after a write to /scale made with `groupVersion` of the parent. */
export function scaleToParent(
  parentEntries: readonly ManagedFieldsEntry[] | undefined,
  scaleEntries: readonly ManagedFieldsEntry[] | undefined,
  groupVersion: string,
  mappings: ReplicasPaths,
): ManagedFieldsEntry[] | undefined {
  const parent = decodeManagedFields(parentEntries);
  const scaleFields: ManagedFieldSets = new Map(decodeManagedFields(scaleEntries).fields);
  const out: Managed = emptyManaged();
  for (const [manager, vs] of parent.fields) {
    if (!(vs.apiVersion in mappings)) continue;
    const path = mappings[vs.apiVersion];
    if (!path || !vs.set.has(toPath(path))) {
      out.fields.set(manager, vs);
      out.times.set(manager, parent.times.get(manager));
      continue;
    }
    if (!scaleFields.has(manager)) {
      // The scale write took replicas from this manager.
      const set = vs.set.difference(FieldSet.of(toPath(path)));
      if (!set.isEmpty()) {
        out.fields.set(manager, { ...vs, set });
        out.times.set(manager, parent.times.get(manager));
      }
    } else {
      out.fields.set(manager, vs);
      out.times.set(manager, parent.times.get(manager));
      scaleFields.delete(manager);
    }
  }
  const parentPath = mappings[groupVersion];
  for (const [manager, vs] of scaleFields) {
    if (!vs.set.has(REPLICAS_IN_SCALE) || !parentPath) continue;
    out.fields.set(manager, { set: FieldSet.of(toPath(parentPath)), apiVersion: groupVersion, applied: vs.applied });
    // kube takes the time from the parent's entries, which a new scale manager has none in.
    out.times.set(manager, parent.times.get(manager));
  }
  return encodeManagedFields(out);
}
