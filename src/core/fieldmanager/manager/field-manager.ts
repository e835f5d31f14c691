// kube-apiserver's field manager (k8s.io/apimachinery/pkg/util/managedfields
// /internal), layer by layer, outermost first:
//
//   decode managed fields          the live object's (apply) or the request's (update)
//   version check                  apply: the body's apiVersion/kind must be the endpoint's
//   last-applied updater/manager   kubectl: client-side → server-side apply
//   skip non-applied               update of an untracked object: stay untracked;
//                                  apply to one: "before-first-apply" owns what exists
//   cap managers                   update: at most 10 Update entries
//   build manager info             manager name → identifier (operation, version, subresource)
//   managed-fields updater         entry times
//   strip meta                     identity and server-set metadata are never owned
//   structured merge               typed values, merge, ownership (merge/updater.ts)

import { errors, StatusError } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import { FieldSet } from '../fieldpath/set';
import { fieldElement } from '../fieldpath/element';
import { ConflictsError } from '../merge/conflict';
import { Updater, UpdaterError, type ManagedFieldSets } from '../merge/updater';
import type { Atom } from '../schema/atom';
import { TypedError } from '../typed/errors';
import { asTyped } from '../typed/typed-value';
import { isObject } from '../value/compare';
import { capUpdateManagers } from './cap-managers';
import { conflictError } from './conflict-error';
import { buildManagerIdentifier } from './identifier';
import {
  allowedConflictsFromLastApplied,
  buildLastApplied,
  conflictsOutside,
  conflictsSet,
  LAST_APPLIED_MANAGER,
  lastAppliedOf,
  setLastApplied,
} from './last-applied';
import { decodeManagedFields, emptyManaged, encodeManagedFields, ManagedFieldsDecodeError, type Managed } from './managed';
import { dropOptionalNulls } from './normalize';
import { resolvedRoot, rootAtom, type FieldManagerSchema } from './schema-input';
import { stripMeta } from './strip-meta';
import { ignoreManagedFieldsTimestamps } from './timestamps';
import { zeroObject } from './zero-object';

/** Field paths (lists of field names) no manager owns, e.g. [['status']] for the main resource. */
export type FieldPaths = readonly (readonly string[])[];

interface CommonInput {
  /** The version of the request (and of the objects): "apps/v1", "v1". */
  readonly apiVersion: string;
  /** The kind served at the endpoint; an applied object must have it. */
  readonly kind?: string;
  /** '' for the main resource, else "status", "scale", … */
  readonly subresource: string;
  /** RFC 3339 time of the request (from the server's Clock). */
  readonly now: string;
  readonly schema: FieldManagerSchema;
  /**
   * The strategy's reset fields for this (sub)resource. Defaults: `status`
   * for the main resource of a built-in kind that has one, `spec` for the
   * status subresource.
   */
  readonly ignoredFields?: FieldPaths;
}

export interface ApplyInput extends CommonInput {
  /** The stored object; undefined when the apply creates it. */
  readonly live: KubeObject | undefined;
  /** The decoded apply body. */
  readonly applied: KubeObject;
  readonly manager: string;
  readonly force: boolean;
  /** Kind defaulting, run on the merged object when it changed (resets dropped fields to their defaults). */
  readonly defaulter?: (obj: KubeObject) => void;
}

export interface UpdateInput extends CommonInput {
  /** The stored object; undefined on create. */
  readonly live: KubeObject | undefined;
  /** The object about to be stored (decoded, defaulted). */
  readonly updated: KubeObject;
  readonly manager: string;
}

/** Manager of an update's own changes, before they join the manager's entry (managedfieldsupdater.go). */
const CURRENT_OPERATION = 'current-operation';
const BEFORE_FIRST_APPLY = 'before-first-apply';

interface Context {
  readonly root: Atom;
  readonly updater: Updater;
  readonly input: CommonInput;
  readonly zero: () => KubeObject;
}

function defaultIgnoredFields(input: CommonInput): FieldPaths {
  if (input.schema.customResource || input.schema.unstructuredCustomResource) return [];
  if (input.subresource === 'status') return [['spec']];
  if (input.subresource === '') {
    const root = resolvedRoot(input.schema);
    if (root.type === 'object' && root.properties && 'status' in root.properties) return [['status']];
  }
  return [];
}

function contextOf(input: CommonInput): Context {
  const root = rootAtom(input.schema);
  const paths = input.ignoredFields ?? defaultIgnoredFields(input);
  const ignored = new Map<string, FieldSet>();
  if (paths.length > 0) ignored.set(input.apiVersion, FieldSet.of(...paths.map((p) => p.map(fieldElement))));
  return {
    root,
    updater: new Updater({ root, ignoredFields: ignored }),
    input,
    zero: () => zeroObject(input.schema, input.apiVersion, input.kind),
  };
}

function cloneManaged(m: Managed): Managed {
  return { fields: new Map(m.fields), times: new Map(m.times) };
}

function withoutManagedFields(obj: KubeObject): KubeObject {
  if (!isObject(obj.metadata) || !('managedFields' in obj.metadata)) return obj;
  const { managedFields: _mf, ...meta } = obj.metadata;
  return { ...obj, metadata: meta };
}

function setManagedFields(obj: KubeObject, managed: Managed): void {
  const entries = encodeManagedFields(managed);
  if (entries === undefined) {
    if (isObject(obj.metadata)) delete obj.metadata.managedFields;
    return;
  }
  obj.metadata = { ...(isObject(obj.metadata) ? obj.metadata : {}), managedFields: entries };
}

// ---- group/version/kind texts ----

function parseGroupVersion(apiVersion: unknown): { group: string; version: string } | undefined {
  const gv = typeof apiVersion === 'string' ? apiVersion : '';
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

/** schema.GroupVersionKind.String() of an object's apiVersion and kind. */
export function gvkString(obj: KubeObject): string {
  const gv = parseGroupVersion(obj.apiVersion);
  if (!gv) return '/, Kind=';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  return `${gv.group}/${gv.version}, Kind=${kind}`;
}

/** objectGVKNN: "namespace/name; group/version, Kind=Kind". */
function gvknn(obj: KubeObject): string {
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
  const name = typeof meta.name === 'string' ? meta.name : '';
  return `${ns}/${name}; ${gvkString(obj)}`;
}

/** A failure kube-apiserver returns as a bare 500 (not a StatusError: no reason, the error text as message). */
function internal(message: string): StatusError {
  return new StatusError(500, '', message);
}

// ---- update ----

interface Step {
  object: KubeObject;
  managed: Managed;
}

/** structuredMergeManager.Update under stripMeta, for the current operation. */
function structuredUpdate(ctx: Context, live: KubeObject, updated: KubeObject, managed: Managed, manager: string): Managed {
  const liveBare = withoutManagedFields(live);
  const newBare = withoutManagedFields(updated);
  try {
    asTyped(newBare, ctx.root, true);
  } catch (e) {
    if (e instanceof TypedError) throw new Error(`failed to convert new object (${gvknn(updated)}) to smd typed: ${e.message}`);
    throw e;
  }
  try {
    asTyped(liveBare, ctx.root, true);
  } catch (e) {
    if (e instanceof TypedError) throw new Error(`failed to convert live object (${gvknn(live)}) to smd typed: ${e.message}`);
    throw e;
  }
  let fields: ManagedFieldSets;
  try {
    fields = ctx.updater.updateManagers(liveBare, newBare, ctx.input.apiVersion, managed.fields, manager);
  } catch (e) {
    if (e instanceof UpdaterError) throw new Error(`failed to update ManagedFields (${gvknn(updated)}): ${e.message}`);
    throw e;
  }
  stripMeta(fields, manager);
  return { fields, times: managed.times };
}

/** capManagers → buildManagerInfo → managedFieldsUpdater → stripMeta → structuredMerge, for an update. */
function innerUpdate(ctx: Context, live: KubeObject, updated: KubeObject, input: Managed, manager: string): Managed {
  const id = buildManagerIdentifier({ manager: manager || 'unknown', operation: 'Update', apiVersion: ctx.input.apiVersion, subresource: ctx.input.subresource });
  const managed = structuredUpdate(ctx, live, updated, cloneManaged(input), CURRENT_OPERATION);
  const current = managed.fields.get(CURRENT_OPERATION);
  if (current) {
    // The operation changed something: its fields join the manager's entry, and the entry's time moves.
    managed.fields.delete(CURRENT_OPERATION);
    const previous = managed.fields.get(id);
    managed.fields.set(id, previous ? { set: current.set.union(previous.set), apiVersion: current.apiVersion, applied: current.applied } : current);
    managed.times.set(id, ctx.input.now);
  }
  capUpdateManagers(managed);
  return managed;
}

/** An update clears managed fields with exactly `[{}]` (the specification's rule: an empty list does not). */
function isResetManagedFields(list: unknown): boolean {
  return Array.isArray(list) && list.length === 1 && isObject(list[0]) && Object.keys(list[0]).length === 0;
}

function decodeOrEmpty(entries: unknown): Managed {
  try {
    return decodeManagedFields(entries as never);
  } catch {
    return emptyManaged();
  }
}

/**
 * The managed fields of a non-apply write (create, update, non-apply patch),
 * set on a copy of `updated`. Never fails: on an internal error the managed
 * fields are dropped, as kube-apiserver's UpdateNoErrors does.
 */
export function updateManagedFields(input: UpdateInput): KubeObject {
  const ctx = contextOf(input);
  const live = input.live ?? ctx.zero();
  const liveMeta = isObject(live.metadata) ? live.metadata : {};
  const newMeta = isObject(input.updated.metadata) ? input.updated.metadata : {};
  const object = structuredClone(withoutManagedFields(input.updated));
  try {
    // decodeLiveOrNew: the request's managed fields win when valid and not empty (so clients can edit them),
    // except on a subresource; otherwise the live object's are kept.
    let managed: Managed;
    let reset = false;
    if (input.subresource !== '') managed = decodeOrEmpty(liveMeta.managedFields);
    else if (isResetManagedFields(newMeta.managedFields)) {
      managed = emptyManaged();
      reset = true;
    } else {
      managed = decodeOrEmpty(newMeta.managedFields);
      if (managed.fields.size === 0) managed = decodeOrEmpty(liveMeta.managedFields);
    }

    // skipNonApplied: an existing object without managed fields stays untracked by updates
    // (a create is tracked, and so are the changes of the request that reset them).
    const isCreate = typeof liveMeta.uid !== 'string' || liveMeta.uid === '';
    if (managed.fields.size === 0 && !isCreate && !reset) {
      setManagedFields(object, managed);
    } else {
      setManagedFields(object, innerUpdate(ctx, live, object, managed, input.manager));
    }
  } catch (e) {
    if (!(e instanceof Error) || e instanceof StatusError) throw e;
    if (isObject(object.metadata)) delete object.metadata.managedFields;
    return object;
  }
  return ignoreManagedFieldsTimestamps(object, input.live);
}

// ---- apply ----

interface ApplyStep {
  /** null: the live object does not change. */
  object: KubeObject | null;
  managed: Managed;
}

/** structuredMergeManager.Apply (with defaulting of the merged object) under stripMeta. */
function structuredApply(ctx: Context, input: ApplyInput, live: KubeObject, managed: Managed, id: string, force: boolean): ApplyStep {
  const meta = input.applied.metadata;
  if (isObject(meta) && meta.managedFields !== undefined && meta.managedFields !== null) throw errors.badRequest('metadata.managedFields must be nil');
  const liveBare = withoutManagedFields(live);
  try {
    asTyped(input.applied, ctx.root, false);
  } catch (e) {
    if (e instanceof TypedError) throw internal(`failed to create typed patch object (${gvknn(input.applied)}): ${e.message}`);
    throw e;
  }
  try {
    asTyped(liveBare, ctx.root, true);
  } catch (e) {
    if (e instanceof TypedError) throw internal(`failed to create typed live object (${gvknn(live)}): ${e.message}`);
    throw e;
  }
  let result;
  try {
    result = ctx.updater.apply(liveBare, input.applied, ctx.input.apiVersion, managed.fields, id, force);
  } catch (e) {
    if (e instanceof UpdaterError) throw internal(e.message);
    throw e;
  }
  stripMeta(result.managers, id);
  const out: Managed = { fields: result.managers, times: managed.times };
  if (result.object === null) return { object: null, managed: out };
  const object = structuredClone(result.object) as KubeObject;
  if (!input.schema.customResource && !input.schema.unstructuredCustomResource) dropOptionalNulls(object, input.schema.root, input.schema.table);
  input.defaulter?.(object);
  return { object, managed: out };
}

/** skipNonApplied → capManagers → buildManagerInfo → managedFieldsUpdater → stripMeta → structuredMerge, for an apply. */
function innerApply(ctx: Context, input: ApplyInput, live: KubeObject, given: Managed, force: boolean): Step {
  let managed = cloneManaged(given);
  if (managed.fields.size === 0) {
    // The first apply to an object nobody tracked: what exists belongs to "before-first-apply".
    try {
      managed = innerUpdate(ctx, ctx.zero(), live, managed, BEFORE_FIRST_APPLY);
    } catch (e) {
      if (e instanceof Error && !(e instanceof StatusError)) throw internal(`failed to create manager for existing fields: ${e.message}`);
      throw e;
    }
  }
  const id = buildManagerIdentifier({ manager: input.manager || 'unknown', operation: 'Apply', apiVersion: ctx.input.apiVersion, subresource: ctx.input.subresource });
  const step = structuredApply(ctx, input, live, managed, id, force);
  if (step.object !== null) {
    step.managed.times.set(id, ctx.input.now);
    return { object: step.object, managed: step.managed };
  }
  return { object: structuredClone(withoutManagedFields(live)), managed: step.managed };
}

/** lastAppliedManager: for kubectl, conflicts on fields the client-side apply annotation still holds are forced. */
function lastAppliedApply(ctx: Context, input: ApplyInput, live: KubeObject, managed: Managed): Step {
  try {
    return innerApply(ctx, input, live, managed, input.force);
  } catch (e) {
    if (input.manager !== LAST_APPLIED_MANAGER || !(e instanceof ConflictsError)) throw e;
    const allowed = allowedConflictsFromLastApplied(withoutManagedFields(live), ctx.root, ctx.input.apiVersion);
    if (!allowed) throw e;
    if (!conflictsSet(e.conflicts).difference(allowed).isEmpty()) throw new ConflictsError(conflictsOutside(e.conflicts, allowed));
    return innerApply(ctx, input, live, managed, true);
  }
}

function checkGroupVersionKind(input: ApplyInput): void {
  const want = gvkString({ apiVersion: input.apiVersion, kind: input.kind ?? input.applied.kind });
  const got = gvkString(input.applied);
  if (got !== want) throw errors.badRequest(`invalid object type: ${got}`);
}

/**
 * Server-side apply of `applied` to `live` by `manager`. Returns the merged
 * object with its new managed fields. Throws a StatusError: 409 Conflict on
 * conflicts (unless `force`), 400 for a body kube rejects (wrong
 * apiVersion/kind, managedFields set), 500 for a body that does not fit the
 * schema (kube-apiserver's "failed to create typed patch object").
 */
export function applyPatch(input: ApplyInput): { object: KubeObject } {
  const ctx = contextOf(input);
  const live = input.live ?? ctx.zero();
  let managed: Managed;
  try {
    managed = decodeManagedFields(isObject(live.metadata) ? (live.metadata.managedFields as never) : undefined);
  } catch (e) {
    if (e instanceof ManagedFieldsDecodeError) throw internal(`failed to decode managed fields: ${e.message}`);
    throw e;
  }
  checkGroupVersionKind(input);
  let step: Step;
  try {
    step = lastAppliedApply(ctx, input, live, managed);
  } catch (e) {
    if (e instanceof ConflictsError) throw conflictError(e.conflicts);
    throw e;
  }
  // lastAppliedUpdater: keep an existing client-side apply annotation in step with what kubectl applied.
  if (input.manager === LAST_APPLIED_MANAGER && lastAppliedOf(step.object) !== undefined) {
    setLastApplied(step.object, buildLastApplied(input.applied));
  }
  setManagedFields(step.object, step.managed);
  return { object: ignoreManagedFieldsTimestamps(step.object, input.live) };
}
