// The metadata rules the generic registry applies to every kind
// (k8s.io/apiserver/pkg/registry/rest BeforeCreate / BeforeUpdate): system
// fields, generateName, namespace checks, and the immutable metadata fields.

import { rfc3339 } from '../clock';
import { errors } from '../errors/status';
import { fieldErrors, type FieldError } from '../errors/field-errors';
import type { KubeObject, ObjectMeta } from '../kinds/types';

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
/** kube's names.SimpleNameGenerator: 5 random characters, base name cut to keep 63 chars. */
export function generateName(base: string): string {
  const maxBase = 63 - 5;
  const prefix = base.length > maxBase ? base.slice(0, maxBase) : base;
  const bytes = crypto.getRandomValues(new Uint8Array(5));
  let suffix = '';
  for (const b of bytes) suffix += GENERATE_ALPHABET[b % GENERATE_ALPHABET.length];
  return prefix + suffix;
}

export function metaOf(obj: KubeObject): ObjectMeta {
  if (!obj.metadata || typeof obj.metadata !== 'object') obj.metadata = {};
  return obj.metadata;
}

/**
 * Namespace checks shared by create and update: a namespaced object takes the
 * URL's namespace (a different one in the body is a 400); a cluster-scoped
 * object has its namespace cleared.
 */
export function reconcileNamespace(obj: KubeObject, urlNamespace: string, namespaced: boolean): void {
  const meta = metaOf(obj);
  if (namespaced) {
    if (meta.namespace && meta.namespace !== urlNamespace) {
      throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    meta.namespace = urlNamespace;
  } else if (meta.namespace) {
    delete meta.namespace;
  }
}

/** BeforeCreate's system fields: uid, creationTimestamp, generated name; clears deletion fields. */
export function fillCreateSystemFields(obj: KubeObject, now: number): void {
  const meta = metaOf(obj);
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.resourceVersion;
  delete meta.selfLink;
  if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
  meta.uid = crypto.randomUUID();
  meta.creationTimestamp = rfc3339(now);
}

/**
 * BeforeUpdate: fields the client cannot change through an update are taken
 * from the stored object (creationTimestamp, deletion fields, uid when
 * omitted, generation) and then checked for immutability.
 */
export function carryOverUpdateSystemFields(obj: KubeObject, old: KubeObject): FieldError[] {
  const meta = metaOf(obj);
  const oldMeta = old.metadata ?? {};
  const errs: FieldError[] = [];
  if (!meta.uid) meta.uid = oldMeta.uid;
  else if (meta.uid !== oldMeta.uid) errs.push(fieldErrors.invalid('metadata.uid', meta.uid, 'field is immutable'));
  meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  else delete meta.deletionTimestamp;
  if (oldMeta.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  else delete meta.deletionGracePeriodSeconds;
  if (oldMeta.generation !== undefined) meta.generation = oldMeta.generation;
  else delete meta.generation;
  if (meta.name !== oldMeta.name) errs.push(fieldErrors.invalid('metadata.name', meta.name, 'field is immutable'));
  if ((meta.namespace ?? '') !== (oldMeta.namespace ?? '')) errs.push(fieldErrors.invalid('metadata.namespace', meta.namespace, 'field is immutable'));
  delete meta.selfLink;
  return errs;
}

/** Deep equality of JSON values (object key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], bb[i])) return false;
    return true;
  }
  const ka = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}
