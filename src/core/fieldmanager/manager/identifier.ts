// Manager identifiers: kube-apiserver keys field sets by the JSON of a
// managed-fields entry stripped of its fields and time (BuildManagerIdentifier).
// An Apply identifier has no apiVersion, so an applier has one entry across
// versions; an Update identifier has one, so an updater using two versions
// has two entries. The subresource always distinguishes entries.

import { goJsonString } from '../../util/go/json-string';

export type Operation = 'Apply' | 'Update';

export interface ManagerInfo {
  readonly manager: string;
  readonly operation: string;
  readonly apiVersion: string;
  readonly subresource: string;
}

/** json.Marshal of a ManagedFieldsEntry with only manager, operation, apiVersion and subresource (omitempty). */
export function buildManagerIdentifier(info: ManagerInfo): string {
  const parts: string[] = [];
  if (info.manager) parts.push(`"manager":${goJsonString(info.manager, 'json-iterator')}`);
  if (info.operation) parts.push(`"operation":${goJsonString(info.operation, 'json-iterator')}`);
  if (info.apiVersion && info.operation !== 'Apply') parts.push(`"apiVersion":${goJsonString(info.apiVersion, 'json-iterator')}`);
  if (info.subresource) parts.push(`"subresource":${goJsonString(info.subresource, 'json-iterator')}`);
  return '{' + parts.join(',') + '}';
}

const parsed = new Map<string, ManagerInfo>();

export function parseManagerIdentifier(id: string): ManagerInfo {
  let info = parsed.get(id);
  if (!info) {
    const o = JSON.parse(id) as Partial<Record<keyof ManagerInfo, string>>;
    info = { manager: o.manager ?? '', operation: o.operation ?? '', apiVersion: o.apiVersion ?? '', subresource: o.subresource ?? '' };
    if (parsed.size > 10000) parsed.clear();
    parsed.set(id, info);
  }
  return info;
}
