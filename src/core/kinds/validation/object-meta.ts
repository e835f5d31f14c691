// metadata validation shared by every kind (k8s.io/apimachinery's
// api/validation ValidateObjectMeta / ValidateObjectMetaUpdate), with the
// field paths and messages a 1.32 server reports.

import { fieldErrors, type FieldError } from '../../errors/field-errors';
import type { ObjectMeta, OwnerReference } from '../types';
import { isQualifiedName, isValidLabelValue, nameIsDNSLabel, type NameValidator } from './names';
import { deepEqual } from './deep-equal';
import { utf8Length } from '../../util/go/strings';

/** TotalAnnotationSizeLimitB: all keys and values together. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export const validateNamespaceName: NameValidator = nameIsDNSLabel;

export function validateLabels(labels: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of Object.keys(labels ?? {}).sort()) {
    for (const msg of isQualifiedName(key)) errs.push(fieldErrors.invalid(path, key, msg));
    const value = labels![key]!;
    for (const msg of isValidLabelValue(String(value))) errs.push(fieldErrors.invalid(path, value, msg));
  }
  return errs;
}

export function validateAnnotations(annotations: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const key of Object.keys(annotations ?? {}).sort()) {
    // Case does not matter in annotation keys: they are checked lower-cased.
    for (const msg of isQualifiedName(key.toLowerCase())) errs.push(fieldErrors.invalid(path, key, msg));
    total += utf8Length(key) + utf8Length(String(annotations![key] ?? ''));
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(tooLongBytes(path, TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

/** field.TooLong with the 1.32 wording ("may not be more than N bytes"). */
export function tooLongBytes(path: string, max: number): FieldError {
  return { type: 'FieldValueTooLong', field: path, detail: `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` };
}

/** Kinds that may never own anything (BannedOwners). */
const BANNED_OWNERS = new Set(['v1/Event']);

export function validateOwnerReferences(refs: OwnerReference[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const controllers: string[] = [];
  for (const ref of refs ?? []) {
    const apiVersion = ref.apiVersion ?? '';
    const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    if (!version) errs.push(fieldErrors.invalid(`${path}.apiVersion`, apiVersion, 'version must not be empty'));
    if (!ref.kind) errs.push(fieldErrors.invalid(`${path}.kind`, ref.kind ?? '', 'kind must not be empty'));
    if (!ref.name) errs.push(fieldErrors.invalid(`${path}.name`, ref.name ?? '', 'name must not be empty'));
    if (!ref.uid) errs.push(fieldErrors.invalid(`${path}.uid`, ref.uid ?? '', 'uid must not be empty'));
    if (BANNED_OWNERS.has(`${apiVersion}/${ref.kind}`)) {
      const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
      errs.push(fieldErrors.invalid(path, ref, `${group}/${version}, Kind=${ref.kind} is disallowed from being an owner`));
    }
    if (ref.controller) controllers.push(ref.name);
  }
  if (controllers.length > 1) {
    errs.push(
      fieldErrors.invalid(path, refs, `Only one reference can have Controller set to true. Found "true" in references for ${controllers.join(' and ')}`),
    );
  }
  return errs;
}

export function validateFinalizerName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldErrors.invalid(path, name, msg));
}

export function validateFinalizers(finalizers: string[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const list = finalizers ?? [];
  for (const f of list) errs.push(...validateFinalizerName(f, path));
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    errs.push(fieldErrors.invalid(path, list, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

/**
 * ValidateObjectMeta: name (or generateName) by the kind's rule, namespace
 * presence by scope, generation, labels, annotations, owner references and
 * finalizers. `path` is the metadata path ('metadata' for top-level objects).
 */
export function validateObjectMeta(meta: ObjectMeta | undefined, namespaced: boolean, nameRule: NameValidator, path = 'metadata'): FieldError[] {
  const m = meta ?? {};
  const errs: FieldError[] = [];
  const name = m.name ?? '';
  const generateName = m.generateName ?? '';
  if (generateName) {
    for (const msg of nameRule(generateName, true)) errs.push(fieldErrors.invalid(`${path}.generateName`, generateName, msg));
  }
  if (!name) errs.push(fieldErrors.required(`${path}.name`, 'name or generateName is required'));
  else for (const msg of nameRule(name, false)) errs.push(fieldErrors.invalid(`${path}.name`, name, msg));
  const namespace = m.namespace ?? '';
  if (namespaced) {
    if (!namespace) errs.push(fieldErrors.required(`${path}.namespace`));
    else for (const msg of validateNamespaceName(namespace, false)) errs.push(fieldErrors.invalid(`${path}.namespace`, namespace, msg));
  } else if (namespace) {
    errs.push(fieldErrors.forbidden(`${path}.namespace`, 'not allowed on this type'));
  }
  errs.push(...validateNonnegative(m.generation ?? 0, `${path}.generation`));
  errs.push(...validateLabels(m.labels, `${path}.labels`));
  errs.push(...validateAnnotations(m.annotations, `${path}.annotations`));
  errs.push(...validateOwnerReferences(m.ownerReferences, `${path}.ownerReferences`));
  errs.push(...validateFinalizers(m.finalizers, `${path}.finalizers`));
  return errs;
}

export function validateNonnegative(value: number, path: string): FieldError[] {
  return value < 0 ? [fieldErrors.invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** ValidateImmutableField: any change is "field is immutable", reporting the new value. */
export function validateImmutableField(newValue: unknown, oldValue: unknown, path: string): FieldError[] {
  return deepEqual(newValue, oldValue) ? [] : [fieldErrors.invalid(path, newValue ?? null, 'field is immutable')];
}

/** ValidateObjectMetaUpdate: identity fields may not change, and the usual checks of the new metadata. */
export function validateObjectMetaUpdate(meta: ObjectMeta | undefined, old: ObjectMeta | undefined, path = 'metadata'): FieldError[] {
  const m = meta ?? {};
  const o = old ?? {};
  const errs: FieldError[] = [];
  if (o.deletionTimestamp) {
    const before = new Set(o.finalizers ?? []);
    const extra = [...new Set((m.finalizers ?? []).filter((f) => !before.has(f)))].sort();
    if (extra.length) {
      errs.push(
        fieldErrors.forbidden(
          `${path}.finalizers`,
          `no new finalizers can be added if the object is being deleted, found new finalizers []string{${extra.map((f) => JSON.stringify(f)).join(', ')}}`,
        ),
      );
    }
  }
  if (!m.resourceVersion) errs.push(fieldErrors.invalid(`${path}.resourceVersion`, m.resourceVersion ?? '', 'must be specified for an update'));
  if ((m.generation ?? 0) < (o.generation ?? 0)) errs.push(fieldErrors.invalid(`${path}.generation`, m.generation ?? 0, 'must not be decremented'));
  errs.push(...validateImmutableField(m.name ?? '', o.name ?? '', `${path}.name`));
  errs.push(...validateImmutableField(m.namespace ?? '', o.namespace ?? '', `${path}.namespace`));
  errs.push(...validateImmutableField(m.uid ?? '', o.uid ?? '', `${path}.uid`));
  errs.push(...validateImmutableField(m.creationTimestamp ?? null, o.creationTimestamp ?? null, `${path}.creationTimestamp`));
  errs.push(...validateImmutableField(m.deletionTimestamp ?? null, o.deletionTimestamp ?? null, `${path}.deletionTimestamp`));
  errs.push(...validateImmutableField(m.deletionGracePeriodSeconds ?? null, o.deletionGracePeriodSeconds ?? null, `${path}.deletionGracePeriodSeconds`));
  errs.push(...validateLabels(m.labels, `${path}.labels`));
  errs.push(...validateAnnotations(m.annotations, `${path}.annotations`));
  errs.push(...validateOwnerReferences(m.ownerReferences, `${path}.ownerReferences`));
  errs.push(...validateFinalizers(m.finalizers, `${path}.finalizers`));
  return errs;
}

/**
 * Warnings for finalizer names without a domain (apiserver's
 * GetWarningsForFinalizers), for the create and update handlers.
 */
export function finalizerWarnings(finalizers: string[] | undefined, oldFinalizers: string[] = [], path = 'metadata.finalizers'): string[] {
  const standard = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);
  const old = new Set(oldFinalizers);
  const warnings: string[] = [];
  for (const f of finalizers ?? []) {
    if (old.has(f) || f.includes('/') || standard.has(f)) continue;
    if (isQualifiedName(f).length) continue;
    warnings.push(`${path}: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`);
  }
  return warnings;
}
