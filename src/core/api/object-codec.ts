// How objects are stored and read back.
//
// The store keeps JSON text. Each stored text carries its own
// metadata.resourceVersion (the revision of the write, through the store's
// ValueFn), so a get or a list can send stored text without re-encoding.
// Decoded objects are cached per key and revision and treated as immutable:
// code that changes an object clones it first (`cloneObject`).

import type { KubeObject, ObjectMeta } from '../kinds/types';
import type { KeyValue, ValueFn } from '../storage/types';
import { encodeJson } from './negotiation/json-encode';
import { goOrdered } from '../serialization/go-order';
import { compareGoStrings } from '../util/go/strings';

/** Go's struct order for ObjectMeta, which is how kube-apiserver emits it. */
const META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value as object).length === 0;
  return false;
}

/**
 * ObjectMeta in Go's field order with omitempty applied (empty strings, maps
 * and lists and a zero generation are not emitted, as encoding/json omits them).
 */
export function canonicalMeta(meta: ObjectMeta): ObjectMeta {
  const out: ObjectMeta = {};
  for (const key of META_ORDER) {
    const value = meta[key];
    if (key === 'creationTimestamp') {
      // metav1.Time is a struct: omitempty does not drop it; a zero time prints as null.
      if (value !== undefined) out[key] = value as string | null;
      continue;
    }
    if (key === 'generation' || key === 'deletionGracePeriodSeconds') {
      if (typeof value === 'number' && (value !== 0 || key === 'deletionGracePeriodSeconds')) out[key] = value;
      continue;
    }
    if (!isEmpty(value)) out[key] = value;
  }
  for (const key of Object.keys(meta)) {
    if (!META_ORDER.includes(key) && meta[key] !== undefined) out[key] = meta[key];
  }
  return out;
}

/** kind, apiVersion, metadata first (TypeMeta then ObjectMeta, as Go emits), status last. */
export function canonicalObject(obj: KubeObject): KubeObject {
  const out: KubeObject = {};
  if (obj.kind !== undefined) out.kind = obj.kind;
  if (obj.apiVersion !== undefined) out.apiVersion = obj.apiVersion;
  if (obj.metadata !== undefined) out.metadata = canonicalMeta(obj.metadata);
  for (const key of Object.keys(obj)) {
    if (key === 'kind' || key === 'apiVersion' || key === 'metadata' || key === 'status') continue;
    if (obj[key] !== undefined) out[key] = obj[key];
  }
  if (obj.status !== undefined) out.status = obj.status;
  return out;
}

/**
 * A ValueFn that stores the object with the write's revision as its
 * resourceVersion. Built-in kinds are stored without kind and apiVersion:
 * kube-apiserver's list items carry none, so stored text can be streamed as
 * list items as is (a get adds them back, see spliceTypeMeta); custom
 * resources keep them, as their list items do.
 *
 * The text has kube's key order (serialization/go-order.ts): a built-in kind
 * in its Go struct order with map keys sorted, a custom resource
 * (`withTypeMeta`, the unstructured form) with every object's keys sorted.
 * Gets, lists and watches send or decode this text, so they show that order.
 */
export function encodeForStorage(obj: KubeObject, withTypeMeta = true): ValueFn {
  const custom = withTypeMeta;
  const base = canonicalObject(obj);
  const canonical: KubeObject = custom
    ? goOrdered(base, { custom: true })
    : base.kind !== undefined && base.apiVersion !== undefined
      ? goOrdered(base, { apiVersion: base.apiVersion, kind: base.kind })
      : base;
  if (!withTypeMeta) {
    delete canonical.kind;
    delete canonical.apiVersion;
  }
  const meta = canonical.metadata ?? {};
  return (revision) => {
    const withRevision = canonicalMeta({ ...meta, resourceVersion: String(revision) });
    // ObjectMeta's struct order is canonicalMeta's; an unstructured object's metadata has its keys sorted.
    canonical.metadata = custom ? sortedKeys(withRevision) : withRevision;
    // Stored as Go's encoding/json writes it (HTML-safe escapes), so stored text can be sent as is.
    return encodeJson(canonical, { pretty: false }).trimEnd();
  };
}

/** The object's own keys sorted by their bytes (its values are already in order). */
function sortedKeys<T extends object>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj).sort(compareGoStrings)) out[key] = (obj as Record<string, unknown>)[key];
  return out as T;
}

export class CorruptObjectError extends Error {}

/**
 * Stored text of a built-in kind as a whole object: kind and apiVersion put
 * back in front. Text that has them (a custom resource's, whose keys are
 * sorted: apiVersion first) is returned as it is.
 */
export function spliceTypeMeta(text: string, apiVersion: string, kind: string): string {
  if (text.startsWith('{"kind"') || text.startsWith('{"apiVersion"')) return text;
  const head = `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)}`;
  return text === '{}' ? `${head}}` : `${head},${text.slice(1)}`;
}

export interface TypeMeta {
  readonly apiVersion: string;
  readonly kind: string;
}

/** Parses stored text; the result is shared and must not be mutated. */
export class DecodeCache {
  private readonly cache = new Map<string, { revision: number; object: KubeObject }>();
  private readonly limit: number;

  constructor(limit = 50_000) {
    this.limit = limit;
  }

  /** `typeMeta` is put back into stored text of built-in kinds, which is kept without it. */
  decode(kv: KeyValue, typeMeta?: TypeMeta): KubeObject {
    const hit = this.cache.get(kv.key);
    if (hit && hit.revision === kv.modRevision) {
      // A reader that did not name the kind may have cached it bare; the first one that does fills it in.
      if (hit.object.kind === undefined && typeMeta) hit.object = { kind: typeMeta.kind, apiVersion: typeMeta.apiVersion, ...hit.object };
      return hit.object;
    }
    let object: KubeObject;
    try {
      object = JSON.parse(kv.value) as KubeObject;
    } catch (err) {
      throw new CorruptObjectError(`failed to decode the stored object: ${(err as Error).message}`);
    }
    if (object === null || typeof object !== 'object' || Array.isArray(object)) {
      throw new CorruptObjectError('failed to decode the stored object: not a JSON object');
    }
    if (object.kind === undefined && typeMeta) object = { kind: typeMeta.kind, apiVersion: typeMeta.apiVersion, ...object };
    if (this.cache.size >= this.limit) this.cache.clear();
    this.cache.set(kv.key, { revision: kv.modRevision, object });
    return object;
  }

  forget(key: string): void {
    this.cache.delete(key);
  }
}

export function cloneObject<T>(obj: T): T {
  return structuredClone(obj);
}

/** The object with another resourceVersion (DELETED events carry the delete's revision). */
export function withResourceVersion(obj: KubeObject, revision: number): KubeObject {
  const meta = obj.metadata ?? {};
  // A stored object has its resourceVersion in place (in kube's key order): replacing it keeps that order.
  const metadata = meta.resourceVersion !== undefined ? { ...meta, resourceVersion: String(revision) } : canonicalMeta({ ...meta, resourceVersion: String(revision) });
  return { ...obj, metadata };
}
