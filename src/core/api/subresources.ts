// Status-like subresources (status, and any declared with type 'status'): a
// write through one changes only the subresource's fields, and a write to the
// main resource leaves those fields as they were (kube's per-kind status
// strategies, done once here for every kind that declares the subresource).

import type { KubeObject, SubresourceDefinition } from '../kinds/types';
import type { ServedResource } from './registry';

export function statusSubresource(served: ServedResource, name: string): SubresourceDefinition | undefined {
  return served.definition.subresources?.find((s) => s.name === name && s.type === 'status');
}

function fieldsOf(sub: SubresourceDefinition): readonly string[] {
  return sub.fields ?? ['status'];
}

/** The stored object with only the subresource's fields (and metadata) taken from the request. */
export function mergeSubresourceUpdate(sub: SubresourceDefinition, next: KubeObject, current: KubeObject): KubeObject {
  const merged: KubeObject = { ...current, metadata: next.metadata };
  for (const field of fieldsOf(sub)) {
    if (next[field] === undefined) delete merged[field];
    else merged[field] = next[field];
  }
  return merged;
}

/**
 * A main-resource update keeps the fields of the `status` subresource. Other
 * status-like subresources (pods/ephemeralcontainers, pods/resize) narrow what
 * *they* may change; they do not take fields away from the main resource.
 */
export function preserveSubresourceFields(served: ServedResource, next: KubeObject, current: KubeObject): KubeObject {
  for (const sub of served.definition.subresources ?? []) {
    if (sub.type !== 'status' || sub.name !== 'status') continue;
    for (const field of fieldsOf(sub)) {
      if (current[field] === undefined) delete next[field];
      else next[field] = current[field];
    }
  }
  return next;
}
