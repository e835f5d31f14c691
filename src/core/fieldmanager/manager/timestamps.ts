// IgnoreManagedFieldsTimestampsTransformer: when a write changes nothing but
// managed-fields timestamps, the old timestamps are kept, so a no-op apply
// or update does not bump the resourceVersion. kube-apiserver runs it after
// admission; it is safe to run more than once.

import type { KubeObject, ManagedFieldsEntry } from '../../kinds/types';
import { equalValues, isObject } from '../value/compare';

function entriesEqualIgnoringTime(a: readonly ManagedFieldsEntry[] | undefined, b: readonly ManagedFieldsEntry[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    const { time: _t1, ...p } = x[i]!;
    const { time: _t2, ...q } = y[i]!;
    if (!equalValues(stripUndefined(p), stripUndefined(q))) return false;
  }
  return true;
}

function stripUndefined(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

function withoutManagedFields(obj: KubeObject): unknown {
  const meta = obj.metadata;
  if (!isObject(meta) || !('managedFields' in meta)) return obj;
  const { managedFields: _mf, ...rest } = meta;
  return { ...obj, metadata: rest };
}

/** Returns newObj, or a copy carrying oldObj's managed fields when only their timestamps differ. */
export function ignoreManagedFieldsTimestamps(newObj: KubeObject, oldObj: KubeObject | undefined): KubeObject {
  if (!oldObj) return newObj;
  const oldMF = oldObj.metadata?.managedFields;
  const newMF = newObj.metadata?.managedFields;
  if (!entriesEqualIgnoringTime(oldMF, newMF)) return newObj;
  if (equalValues(oldMF ?? null, newMF ?? null)) return newObj;
  if (!equalValues(withoutManagedFields(newObj), withoutManagedFields(oldObj))) return newObj;
  const out: KubeObject = { ...newObj, metadata: { ...newObj.metadata } };
  if (oldMF === undefined) delete out.metadata!.managedFields;
  else out.metadata!.managedFields = structuredClone(oldMF);
  return out;
}
