// Who owns which field of an object: each managedFields entry decoded and
// resolved into the object, so that a YAML line can be coloured by the
// managers owning it.

import type { KubeObject, ManagedFieldsEntry } from '../api/types';
import { decodeFieldsV1 } from './decode';
import { formatPath, pathKey, resolvePath, type ConcretePath } from './field-path';

export interface Manager {
  /** Index into the object's managedFields. */
  readonly index: number;
  readonly manager: string;
  readonly operation: string;
  readonly apiVersion: string;
  readonly time: string;
  readonly subresource: string;
  /** Fields this entry owns, in path-string spelling. */
  readonly fields: readonly string[];
}

export interface Ownership {
  readonly managers: readonly Manager[];
  /** pathKey(concrete path) → indices of managers owning exactly that path. */
  readonly owners: ReadonlyMap<string, readonly number[]>;
}

export function ownershipOf(object: KubeObject): Ownership {
  const entries: ManagedFieldsEntry[] = object.metadata?.managedFields ?? [];
  const owners = new Map<string, number[]>();
  const managers = entries.map((entry, index): Manager => {
    const fields: string[] = [];
    for (const owned of decodeFieldsV1(entry.fieldsV1 ?? {})) {
      fields.push(formatPath(owned.elements));
      const path = resolvePath(object, owned.elements);
      if (!path) continue;
      const key = pathKey(path);
      const list = owners.get(key) ?? [];
      if (!list.includes(index)) list.push(index);
      owners.set(key, list);
    }
    return {
      index,
      manager: entry.manager ?? '',
      operation: entry.operation ?? '',
      apiVersion: entry.apiVersion ?? '',
      time: entry.time ?? '',
      subresource: entry.subresource ?? '',
      fields,
    };
  });
  return { managers, owners };
}

/** The owners of `path` (exact). */
export function ownersOf(ownership: Ownership, path: ConcretePath): readonly number[] {
  return ownership.owners.get(pathKey(path)) ?? [];
}
