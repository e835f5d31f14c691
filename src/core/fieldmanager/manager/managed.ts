// metadata.managedFields ⇄ field sets by manager (kube's managedfields.go):
// decoding checks each entry, encoding writes entries in kube's order
// (Apply before Update, then by time, manager, apiVersion, subresource) with
// the fields of ManagedFieldsEntry in their Go order.

import type { ManagedFieldsEntry } from '../../kinds/types';
import { fromFieldsV1, FieldsV1Error, toFieldsV1 } from '../fieldpath/fields-v1';
import type { ManagedFieldSets } from '../merge/updater';
import { compareGoStrings } from '../../util/go/strings';
import { buildManagerIdentifier, parseManagerIdentifier } from './identifier';

/** Field sets by manager identifier, with each entry's time (RFC 3339, or undefined when the entry has none). */
export interface Managed {
  readonly fields: ManagedFieldSets;
  readonly times: Map<string, string | undefined>;
}

export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

export class ManagedFieldsDecodeError extends Error {}

function goEntry(e: ManagedFieldsEntry): string {
  // %v of a ManagedFieldsEntry, as kube embeds it in decode errors.
  return `{${e.manager ?? ''} ${e.operation ?? ''} ${e.apiVersion ?? ''} ${e.time ?? '<nil>'} ${e.fieldsType ?? ''} ${e.fieldsV1 ? '&FieldsV1{…}' : '<nil>'} ${e.subresource ?? ''}}`;
}

/** DecodeManagedFields. Throws ManagedFieldsDecodeError with kube's message. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined | null): Managed {
  const managed = emptyManaged();
  if (!Array.isArray(entries)) return managed;
  entries.forEach((entry, i) => {
    const e = (entry ?? {}) as ManagedFieldsEntry;
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new ManagedFieldsDecodeError('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new ManagedFieldsDecodeError('apiVersion must not be empty');
    if (e.fieldsType !== 'FieldsV1') {
      if (!e.fieldsType) throw new ManagedFieldsDecodeError(`missing fieldsType in managed fields entry ${i}`);
      throw new ManagedFieldsDecodeError(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    }
    const id = buildManagerIdentifier({
      manager: typeof e.manager === 'string' ? e.manager : '',
      operation: e.operation,
      apiVersion: e.apiVersion,
      subresource: typeof e.subresource === 'string' ? e.subresource : '',
    });
    let set;
    try {
      set = fromFieldsV1(e.fieldsV1 ?? {});
    } catch (err) {
      if (err instanceof FieldsV1Error) throw new ManagedFieldsDecodeError(`error decoding versioned set from ${goEntry(e)}: error decoding set: ${err.message}`);
      throw err;
    }
    managed.fields.set(id, { set, apiVersion: e.apiVersion, applied: e.operation === 'Apply' });
    managed.times.set(id, typeof e.time === 'string' && e.time !== '' ? e.time : undefined);
  });
  return managed;
}

/** Seconds since the epoch of an RFC 3339 time (0 when absent), as metav1.Time.Unix() sorts them. */
export function unixSeconds(time: string | undefined): number {
  if (!time) return 0;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** encodeManagedFields; undefined when there are no managers (the field is then left out). */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const info = parseManagerIdentifier(id);
    const entry: ManagedFieldsEntry = {};
    if (info.manager) entry.manager = info.manager;
    const operation = vs.applied ? 'Apply' : info.operation;
    if (operation) entry.operation = operation as 'Apply' | 'Update';
    if (vs.apiVersion) entry.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time !== undefined) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = toFieldsV1(vs.set);
    if (info.subresource) entry.subresource = info.subresource;
    entries.push(entry);
  }
  return sortManagedFields(entries);
}

/** sortEncodedManagedFields. */
export function sortManagedFields(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  return entries.sort((p, q) => {
    if (p.operation !== q.operation) return compareGoStrings(p.operation ?? '', q.operation ?? '');
    const ps = unixSeconds(p.time);
    const qs = unixSeconds(q.time);
    if (ps !== qs) return ps < qs ? -1 : 1;
    if (p.manager !== q.manager) return compareGoStrings(p.manager ?? '', q.manager ?? '');
    if (p.apiVersion !== q.apiVersion) return compareGoStrings(p.apiVersion ?? '', q.apiVersion ?? '');
    return compareGoStrings(p.subresource ?? '', q.subresource ?? '');
  });
}
