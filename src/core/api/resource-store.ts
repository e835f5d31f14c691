// The generic registry store (kube-apiserver's genericregistry.Store): the
// one implementation of get, list, create, update and delete for every kind.
// It turns storage results into API objects, runs the kind's strategy hooks
// in kube's order, and maps storage errors to the Status a client sees.
// HTTP concerns (decoding bodies, query parameters, negotiation) stay in the
// handlers.

import { rfc3339 } from '../clock';
import { errors, StatusError } from '../errors/status';
import { fieldErrors, GoLiteral, type FieldError } from '../errors/field-errors';
import type { KubeObject, StrategyContext } from '../kinds/types';
import { ConflictError, KeyExistsError, NotFoundError, type KeyValue } from '../storage/types';
import type { ServerContext } from './context';
import { CorruptObjectError, cloneObject, encodeForStorage } from './object-codec';
import { carryOverUpdateSystemFields, fillCreateSystemFields, jsonEqual, metaOf } from './object-meta';
import type { ServedResource } from './registry';
import { collectionPrefix, objectKey, type StorageLocation } from './storage-keys';
import { validateObjectMetaBasics } from './meta-validation';
import { gracefulDeletionMark } from '../kinds/graceful-deletion';
import { isCustomResource } from '../crd';
import type { AdmissionHooks } from '../admission/request';
import { ignoreManagedFieldsTimestamps } from '../fieldmanager';
import { goOrdered, inGoOrder, isInGoOrder, type OrderOf } from '../serialization/go-order';
import { encodeJson } from './negotiation/json-encode';

export interface WriteOptions {
  readonly dryRun: boolean;
  /** Subresource being written ('' for the main resource). */
  readonly subresource: string;
  /**
   * The write's managed fields (kube's FieldManager.UpdateNoErrors), where kube
   * computes them: on the request's object, decoded and defaulted, before
   * mutating admission and the kind's prepare hooks, so that what admission
   * and the strategy add is not owned by the request's manager (decision 0260).
   */
  readonly managedFields?: (obj: KubeObject, old: KubeObject | undefined) => void | Promise<void>;
  /**
   * Runs after the kind's prepare hooks, before validation. Writers outside the
   * API handlers (the bootstrap policy, the CRD controller) still record their
   * managed fields here; a request's handler uses `managedFields`.
   */
  readonly beforeValidate?: (obj: KubeObject, old: KubeObject | undefined) => void | Promise<void>;
  /** The request's admission (src/core/admission): mutating before the kind's prepare hooks, validating just before the write. */
  readonly admission?: AdmissionHooks;
  /** Receives the kind's warnings (warningsOnCreate), added after validation as kube's BeforeCreate does. */
  readonly warn?: (message: string) => void;
  /**
   * Create only: gets the object as it will be stored while the store makes it
   * durable, so that the handler can encode its answer during that wait. The
   * answer is used only if the create succeeds.
   */
  readonly whileCommitting?: (created: KubeObject) => void;
}

/** Where the resource's objects are stored; a resource with shared storage (events.k8s.io events) uses the other resource's keys. */
export function storageLocation(served: ServedResource): StorageLocation {
  const shared = served.definition.sharedStorage;
  if (shared) return { group: shared.group, resource: shared.resource };
  return { group: served.group, resource: served.definition.plural };
}

/** The stored text for an object: in the shared resource's shape when the storage is shared. */
function encodeFor(served: ServedResource, obj: KubeObject) {
  const shared = served.definition.sharedStorage;
  return encodeForStorage(shared ? shared.toStorage(obj) : obj, isCustomResource(served));
}

/** The kind and apiVersion of the objects in this resource's storage (stored text of built-in kinds omits them). */
function storedTypeMeta(ctx: ServerContext, served: ServedResource): { apiVersion: string; kind: string } {
  const shared = served.definition.sharedStorage;
  const owner = shared ? (ctx.registry.lookupGroupResource(shared.group, shared.resource) ?? served) : served;
  return { apiVersion: owner.group ? `${owner.group}/${owner.storageVersion}` : owner.storageVersion, kind: owner.definition.kind };
}

/** Whether stored text can be sent as this resource's answer without decoding. */
export function storedTextIsServed(served: ServedResource): boolean {
  return !served.definition.sharedStorage && (served.version.name === served.storageVersion || !served.definition.convert);
}

export function keyFor(served: ServedResource, namespace: string, name: string): string {
  return objectKey(storageLocation(served), served.definition.namespaced ? namespace : '', name);
}

export function prefixFor(served: ServedResource, namespace: string): string {
  return collectionPrefix(storageLocation(served), served.definition.namespaced ? namespace : '');
}

export function strategyContext(ctx: ServerContext, served: ServedResource, subresource: string, dryRun: boolean): StrategyContext {
  return {
    clock: ctx.clock,
    subresource,
    dryRun,
    requestVersion: served.version.name,
    services: ctx.services,
    // The request's user, on the per-request context the pipeline passes (access control).
    ...(ctx.user ? { user: ctx.user } : {}),
    lookup: async (gr, namespace, name) => {
      const target = ctx.registry.lookupGroupResource(gr.group, gr.resource);
      if (!target) return undefined;
      const kv = await ctx.store.get(keyFor(target, namespace, name));
      return kv ? decode(ctx, target, kv) : undefined;
    },
  };
}

/** Decodes stored text into the stored (storage-version) object; corrupt text is a StorageReadError. */
export function decode(ctx: ServerContext, served: ServedResource, kv: KeyValue): KubeObject {
  try {
    const stored = ctx.decodeCache.decode(kv, storedTypeMeta(ctx, served));
    // Hooks and handlers see the object in the definition's own storage version, whatever resource stores it.
    return served.definition.sharedStorage ? served.definition.sharedStorage.fromStorage(stored) : stored;
  } catch (err) {
    if (err instanceof CorruptObjectError) throw errors.storeReadError(served.groupResource, [{ key: kv.key, cause: err.message }]);
    throw err;
  }
}

/**
 * The object as the requested version shows it, in the key order kube writes
 * that version in (serialization/go-order.ts): stored text already has it, but
 * a conversion, a shared storage's view, a dry run's object or text stored
 * before the order was kept may not. Returns the shared object when it needs
 * neither conversion nor reordering.
 */
export function toRequestVersion(served: ServedResource, stored: KubeObject): KubeObject {
  if (served.version.name === served.storageVersion || !served.definition.convert) return shownInOrder(served, stored);
  return inGoOrder(served.definition.convert(cloneObject(stored), served.version.name), orderOf(served));
}

/**
 * The order check's answer per object shown without conversion: decoded
 * objects are shared and never changed (a writer clones first), and a list,
 * a Table or a watch shows the same ones again and again.
 */
const orderedViews = new WeakMap<KubeObject, { readonly as: string; readonly view: KubeObject }>();

function shownInOrder(served: ServedResource, obj: KubeObject): KubeObject {
  const as = `${served.apiVersion}/${served.definition.kind}`;
  const kept = orderedViews.get(obj);
  if (kept && kept.as === as) return kept.view;
  const view = inGoOrder(obj, orderOf(served));
  orderedViews.set(obj, { as, view });
  return view;
}

/** What decides the key order of a resource's objects: unstructured for custom resources, else the kind's Go struct. */
export function orderOf(served: ServedResource): OrderOf {
  return isCustomResource(served) ? { custom: true } : { apiVersion: served.apiVersion, kind: served.definition.kind };
}

/** Per stored value, what inOrderKeyValue answered: the value itself (already in order) or its reordered copy. */
const reorderedTexts = new WeakMap<KeyValue, KeyValue>();

/**
 * The stored key-value as a get or a list sends it without decoding: `kv`
 * itself when its text is in kube's key order, else (text stored before the
 * order was kept) a key-value with the same revisions whose text is, made once
 * per stored value. For resources whose stored text is served
 * (storedTextIsServed).
 */
export function inOrderKeyValue(ctx: ServerContext, served: ServedResource, kv: KeyValue): KeyValue {
  // A list asks again for every item each time: the answer is kept, so that costs a lookup.
  let kept = reorderedTexts.get(kv);
  if (kept) return kept;
  const object = decode(ctx, served, kv);
  const of = orderOf(served);
  if (isInGoOrder(object, of)) {
    reorderedTexts.set(kv, kv);
    return kv;
  }
  const ordered = goOrdered(object, of);
  // Built-in kinds are stored without their type meta (encodeForStorage); custom resources keep it.
  const { kind: _kind, apiVersion: _apiVersion, ...bare } = ordered;
  const stored = isCustomResource(served) ? ordered : bare;
  kept = { ...kv, value: encodeJson(stored, { pretty: false }).trimEnd() };
  reorderedTexts.set(kv, kept);
  return kept;
}

/** The object converted to the storage version, with the storage apiVersion and kind. */
export function toStorageVersion(served: ServedResource, obj: KubeObject): KubeObject {
  const converted =
    served.version.name === served.storageVersion || !served.definition.convert ? obj : served.definition.convert(obj, served.storageVersion);
  converted.apiVersion = served.group ? `${served.group}/${served.storageVersion}` : served.storageVersion;
  converted.kind = served.definition.kind;
  return converted;
}

/** The kind's warnings on a create that passed validation (kube's BeforeCreate adds them there). */
function warnOnCreate(served: ServedResource, obj: KubeObject, sctx: StrategyContext, options: WriteOptions): void {
  if (!options.warn) return;
  for (const w of served.definition.strategy.warningsOnCreate?.(obj, sctx) ?? []) options.warn(w);
}

/** IgnoreManagedFieldsTimestampsTransformer, after mutating admission: a write that changes only managed-fields times keeps the old ones. */
function keepManagedFieldsTimes(next: KubeObject, current: KubeObject): void {
  const kept = ignoreManagedFieldsTimestamps(next, current);
  if (kept === next) return;
  next.metadata = kept.metadata;
}

function invalid(served: ServedResource, name: string, errs: readonly FieldError[]): StatusError {
  return errors.invalid({ group: served.group, kind: served.definition.kind }, name, errs);
}

/** Maps a storage failure on one object to the API error. */
export function mapStorageError(err: unknown, served: ServedResource, name: string): unknown {
  if (err instanceof NotFoundError) return errors.notFound(served.groupResource, name);
  if (err instanceof KeyExistsError) return errors.alreadyExists(served.groupResource, name);
  if (err instanceof ConflictError) return errors.staleUpdate(served.groupResource, name);
  return err;
}

export async function getObject(ctx: ServerContext, served: ServedResource, namespace: string, name: string): Promise<{ kv: KeyValue; object: KubeObject }> {
  const kv = await ctx.store.get(keyFor(served, namespace, name));
  if (!kv) throw errors.notFound(served.groupResource, name);
  return { kv, object: decode(ctx, served, kv) };
}

async function runValidation(
  served: ServedResource,
  obj: KubeObject,
  old: KubeObject | undefined,
  sctx: StrategyContext,
  extra: FieldError[] = [],
): Promise<void> {
  const strategy = served.definition.strategy;
  // kube runs the kind's validation first and the generic metadata checks only when it passed.
  const errs: FieldError[] = [...extra];
  if (old) {
    if (strategy.validateUpdate) errs.push(...(await strategy.validateUpdate(obj, old, sctx)));
  } else if (strategy.validate) {
    errs.push(...(await strategy.validate(obj, sctx)));
  }
  if (errs.length === 0) errs.push(...validateObjectMetaBasics(obj, served.definition.namespaced, old));
  if (errs.length) throw invalid(served, obj.metadata?.name ?? '', errs);
}

/** Where a created or updated object went. */
export interface WriteResult {
  readonly object: KubeObject;
  readonly created: boolean;
}

/**
 * Create (POST). The object arrives decoded and defaulted, in the storage
 * version, with the URL's namespace applied.
 */
export async function createObject(ctx: ServerContext, served: ServedResource, obj: KubeObject, options: WriteOptions): Promise<KubeObject> {
  const sctx = strategyContext(ctx, served, options.subresource, options.dryRun);
  const strategy = served.definition.strategy;
  await options.managedFields?.(obj, undefined);
  await options.admission?.mutate(obj, undefined);
  const requestedResourceVersion = metaOf(obj).resourceVersion;
  fillCreateSystemFields(obj, ctx.clock.now());
  await strategy.prepareForCreate?.(obj, sctx);
  await options.beforeValidate?.(obj, undefined);
  await runValidation(served, obj, undefined, sctx);
  warnOnCreate(served, obj, sctx, options);
  strategy.canonicalize?.(obj, sctx);
  await options.admission?.validate(obj, undefined);
  const meta = metaOf(obj);
  const name = meta.name ?? '';
  const key = keyFor(served, meta.namespace ?? '', name);
  if (options.dryRun) {
    if (await ctx.store.get(key)) throw errors.alreadyExists(served.groupResource, name);
    return obj;
  }
  // etcd3's Create refuses an object that names a version (ErrResourceVersionSetOnCreate): a plain
  // error, so the client sees a 500 without a reason. A version that is not a number passes, as in kube.
  if (requestedResourceVersion !== undefined && /^\d+$/.test(requestedResourceVersion) && Number(requestedResourceVersion) !== 0) {
    throw new StatusError(500, '', 'resourceVersion should not be set on objects to be created');
  }
  try {
    const prepare = options.whileCommitting;
    // The staged value is the one stored: decoded once for the preparation, it is also the answer.
    let decodedWhileCommitting: KubeObject | undefined;
    const kv = await ctx.store.create(
      key,
      encodeFor(served, obj),
      prepare &&
        ((staged) => {
          decodedWhileCommitting = decode(ctx, served, staged);
          prepare(decodedWhileCommitting);
        }),
    );
    return decodedWhileCommitting ?? decode(ctx, served, kv);
  } catch (err) {
    throw mapStorageError(err, served, name);
  }
}

export interface UpdateInput {
  /** Builds the new object from the current one (undefined when absent). Throws to abort. */
  readonly transform: (current: KubeObject | undefined) => Promise<KubeObject>;
  /** Whether the object may be created when absent (PUT with allowCreateOnUpdate, apply). */
  readonly allowCreate: boolean;
}

/**
 * Update (PUT, PATCH, status writes): a guaranteed update that re-runs the
 * transform on a conflicting concurrent write, unless the new object names a
 * resourceVersion, which then must match (409 otherwise).
 */
export async function updateObject(
  ctx: ServerContext,
  served: ServedResource,
  namespace: string,
  name: string,
  input: UpdateInput,
  options: WriteOptions,
): Promise<WriteResult> {
  const sctx = strategyContext(ctx, served, options.subresource, options.dryRun);
  const strategy = served.definition.strategy;
  const key = keyFor(served, namespace, name);
  let result: WriteResult | undefined;
  let removedByUpdate = false;
  try {
    await ctx.store.guaranteedUpdate(
      key,
      async (currentKv) => {
        const current = currentKv ? decode(ctx, served, currentKv) : undefined;
        const next = await input.transform(current);
        const meta = metaOf(next);
        if (!current) {
          if (!input.allowCreate) throw errors.notFound(served.groupResource, name);
          if (meta.resourceVersion) {
            // An update naming a version of an object that does not exist (kube: the precondition fails as NotFound).
            throw errors.notFound(served.groupResource, name);
          }
          await options.managedFields?.(next, undefined);
          await options.admission?.mutate(next, undefined);
          fillCreateSystemFields(next, ctx.clock.now());
          await strategy.prepareForCreate?.(next, sctx);
          await options.beforeValidate?.(next, undefined);
          await runValidation(served, next, undefined, sctx);
          warnOnCreate(served, next, sctx, options);
          strategy.canonicalize?.(next, sctx);
          await options.admission?.validate(next, undefined);
          result = { object: next, created: true };
          if (options.dryRun) return { action: 'none' };
          return { action: 'put', value: encodeFor(served, next) };
        }
        // kube's update transformers run before the resourceVersion checks: managed fields,
        // mutating admission, then keeping the old managed-fields times when nothing else changed.
        await options.managedFields?.(next, current);
        await options.admission?.mutate(next, current);
        if (options.managedFields) keepManagedFieldsTimes(next, current);
        if (meta.resourceVersion && meta.resourceVersion !== String(currentKv!.modRevision)) {
          throw errors.staleUpdate(served.groupResource, name);
        }
        if (!meta.resourceVersion) {
          if (strategy.allowUnconditionalUpdate === false) {
            // kube-apiserver names the resource where the kind belongs in this one message.
            throw errors.invalid({ group: served.group, kind: served.definition.plural }, name, [
              fieldErrors.invalid('metadata.resourceVersion', new GoLiteral('0x0'), 'must be specified for an update'),
            ]);
          }
          // An unconditional update applies to whatever is stored now.
          meta.resourceVersion = String(currentKv!.modRevision);
        }
        const systemErrs = carryOverUpdateSystemFields(next, current);
        await strategy.prepareForUpdate?.(next, current, sctx);
        await options.beforeValidate?.(next, current);
        await runValidation(served, next, current, sctx, systemErrs);
        strategy.canonicalize?.(next, sctx);
        await options.admission?.validate(next, current);
        // A write that changes nothing is not a write (no new resourceVersion, no event), as in etcd3's GuaranteedUpdate.
        const comparable = { ...next, metadata: { ...next.metadata, resourceVersion: current.metadata?.resourceVersion } };
        if (jsonEqual(comparable, current)) {
          result = { object: current, created: false };
          return { action: 'none' };
        }
        result = { object: next, created: false };
        if (options.dryRun) return { action: 'none' };
        // A terminating object whose last finalizer is removed is deleted by this very update (kube's
        // ShouldDeleteDuringUpdate: only when the stored object still had finalizers, so a kubelet's
        // status update of a pod in its grace period does not delete it).
        const hadFinalizers = (current.metadata?.finalizers?.length ?? 0) > 0 || (strategy.pendingFinalizers?.(current).length ?? 0) > 0;
        if (meta.deletionTimestamp && hadFinalizers && !(meta.finalizers?.length) && !(strategy.pendingFinalizers?.(next).length)) {
          removedByUpdate = true;
          return { action: 'delete' };
        }
        return { action: 'put', value: encodeFor(served, next) };
      },
      { ignoreNotFound: true },
    ).then((kv) => {
      if (removedByUpdate) {
        void served.definition.strategy.afterDelete?.(result!.object, sctx);
        return;
      }
      if (!options.dryRun && kv && result && kv.modRevision !== Number(result.object.metadata?.resourceVersion ?? -1)) {
        result = { object: decode(ctx, served, kv), created: result.created };
      }
    });
  } catch (err) {
    throw mapStorageError(err, served, name);
  }
  return result!;
}

export interface DeleteInput {
  readonly preconditions?: { uid?: string; resourceVersion?: string };
  readonly propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  readonly orphanDependents?: boolean;
  readonly gracePeriodSeconds?: number;
  readonly dryRun: boolean;
  /** The request's admission: DELETE runs both phases on the stored object after the preconditions. */
  readonly admission?: AdmissionHooks;
}

export interface DeleteResult {
  /** The object as deleted, or as left Terminating. */
  readonly object: KubeObject;
  /** True when the object is gone from storage; false when it waits for finalizers. */
  readonly deleted: boolean;
}

const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';

/** kube's deletionFinalizersForGarbageCollection: which GC finalizers the delete adds or removes. */
function garbageCollectionFinalizers(served: ServedResource, current: string[], input: DeleteInput): string[] {
  let orphan: boolean;
  let foreground: boolean;
  if (input.propagationPolicy) {
    orphan = input.propagationPolicy === 'Orphan';
    foreground = input.propagationPolicy === 'Foreground';
  } else if (input.orphanDependents !== undefined) {
    orphan = input.orphanDependents;
    foreground = false;
  } else {
    orphan = current.includes(ORPHAN) || (!current.includes(FOREGROUND) && served.definition.defaultPropagationPolicy === 'Orphan');
    foreground = !orphan && current.includes(FOREGROUND);
  }
  const next = current.filter((f) => f !== ORPHAN && f !== FOREGROUND);
  if (orphan) next.push(ORPHAN);
  if (foreground) next.push(FOREGROUND);
  return next;
}

function checkPreconditions(served: ServedResource, name: string, obj: KubeObject, kv: KeyValue, pre: DeleteInput['preconditions']): void {
  if (!pre) return;
  if (pre.uid && pre.uid !== obj.metadata?.uid) {
    throw errors.conflict(served.groupResource, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata?.uid ?? ''}`);
  }
  if (pre.resourceVersion && pre.resourceVersion !== String(kv.modRevision)) {
    throw errors.conflict(
      served.groupResource,
      name,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${kv.modRevision}`,
    );
  }
}

/**
 * Delete: Live → Terminating while finalizers remain (deletionTimestamp set,
 * GC finalizers added per the propagation policy) → removed when none remain.
 */
export async function deleteObject(ctx: ServerContext, served: ServedResource, namespace: string, name: string, input: DeleteInput): Promise<DeleteResult> {
  const key = keyFor(served, namespace, name);
  const sctx = strategyContext(ctx, served, '', input.dryRun);
  for (let attempt = 0; attempt < 100; attempt++) {
    let kv = await ctx.store.get(key);
    if (!kv) throw errors.notFound(served.groupResource, name);
    const current = decode(ctx, served, kv);
    checkPreconditions(served, name, current, kv, input.preconditions);
    await input.admission?.deleting(current, name);
    // Graceful deletion (pods; kinds/graceful-deletion.ts): one already under way is left as it is, finalizers included.
    const graceful = gracefulDeletionMark(served.definition.strategy, current, input.gracePeriodSeconds, ctx.clock.now());
    if (graceful === 'pending') return { object: current, deleted: false };
    const finalizers = garbageCollectionFinalizers(served, current.metadata?.finalizers ?? [], input);
    const pending = served.definition.strategy.pendingFinalizers?.(current) ?? [];
    // The object stays (Terminating) while finalizers remain or a graceful deletion has grace left.
    const stays = finalizers.length > 0 || pending.length > 0 || (graceful?.deletionGracePeriodSeconds ?? 0) > 0;
    if (stays || graceful) {
      const next = cloneObject(current);
      const meta = metaOf(next);
      if (graceful) Object.assign(meta, graceful);
      else if (!meta.deletionTimestamp) {
        meta.deletionTimestamp = rfc3339(ctx.clock.now());
        meta.deletionGracePeriodSeconds = 0;
        served.definition.strategy.prepareForDeletion?.(next, sctx);
      }
      meta.finalizers = finalizers;
      if (jsonEqual(next, current)) return { object: current, deleted: false };
      if (input.dryRun) return { object: next, deleted: !stays };
      try {
        const updated = await ctx.store.update(key, kv.modRevision, encodeFor(served, next));
        if (stays) return { object: decode(ctx, served, updated), deleted: false };
        // A graceful deletion with no grace left: marked (watchers see it Terminating), then removed below.
        kv = updated;
      } catch (err) {
        if (err instanceof ConflictError) continue;
        throw mapStorageError(err, served, name);
      }
    }
    if (input.dryRun) return { object: current, deleted: true };
    try {
      const deleted = await ctx.store.delete(key, kv.modRevision);
      await served.definition.strategy.afterDelete?.(current, sctx);
      return { object: decode(ctx, served, { ...deleted, value: kv.value, modRevision: kv.modRevision }), deleted: true };
    } catch (err) {
      if (err instanceof ConflictError) continue;
      throw mapStorageError(err, served, name);
    }
  }
  throw errors.staleUpdate(served.groupResource, name);
}

/** Deletes a record whose stored text cannot be decoded (ignoreStoreReadErrorWithClusterBreakingPotential). */
export async function unsafeDeleteCorrupt(ctx: ServerContext, served: ServedResource, namespace: string, name: string): Promise<KeyValue> {
  const key = keyFor(served, namespace, name);
  const kv = await ctx.store.get(key);
  if (!kv) throw errors.notFound(served.groupResource, name);
  try {
    return await ctx.store.delete(key, kv.modRevision);
  } catch (err) {
    throw mapStorageError(err, served, name);
  }
}
