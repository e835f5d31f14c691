// Moving from client-side to server-side apply (lastappliedmanager.go and
// lastappliedupdater.go). Only for the manager "kubectl" (what
// `kubectl apply --server-side` uses):
//
// - an apply that conflicts only on fields the last-applied annotation holds
//   with the live value (fields the user applied client-side) is retried
//   with force, so the first server-side apply after `kubectl apply` takes
//   those fields over without a conflict;
// - after an apply, an existing last-applied annotation is rewritten to the
//   applied configuration, so a later client-side apply sees the same intent.

import type { KubeObject } from '../../kinds/types';
import { FieldSet } from '../fieldpath/set';
import type { Conflict } from '../merge/conflict';
import type { Atom } from '../schema/atom';
import { compareTyped } from '../typed/compare';
import type { ValidationError } from '../typed/errors';
import { toFieldSet } from '../typed/to-field-set';
import { validateTyped } from '../typed/validate';
import { isObject } from '../value/compare';
import { goJsonValue } from '../value/go-format';
import { utf8Length } from '../../util/go/strings';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
export const LAST_APPLIED_MANAGER = 'kubectl';
/** apimachinery's TotalAnnotationSizeLimitB. */
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

function annotationsOf(obj: KubeObject): Record<string, unknown> | undefined {
  const a = (obj.metadata as Record<string, unknown> | undefined)?.annotations;
  return isObject(a) ? a : undefined;
}

export function lastAppliedOf(obj: KubeObject): string | undefined {
  const v = annotationsOf(obj)?.[LAST_APPLIED_ANNOTATION];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * The fields of the last-applied configuration whose value still matches the
 * live object, or undefined when there is no usable annotation.
 */
export function allowedConflictsFromLastApplied(live: KubeObject, root: Atom, apiVersion: string): FieldSet | undefined {
  const text = lastAppliedOf(live);
  if (text === undefined) return undefined;
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(lastApplied) || lastApplied.apiVersion !== apiVersion) return undefined;
  const errs: ValidationError[] = validateTyped(lastApplied, root, { allowDuplicates: false });
  if (errs.length > 0) return undefined;
  const set = toFieldSet(lastApplied, root);
  const cmp = compareTyped(lastApplied, live, root, errs);
  if (errs.length > 0) return undefined;
  return set.difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
}

/** The conflicts not covered by `allowed`. */
export function conflictsOutside(conflicts: readonly Conflict[], allowed: FieldSet): Conflict[] {
  return conflicts.filter((c) => !allowed.has(c.path));
}

export function conflictsSet(conflicts: readonly Conflict[]): FieldSet {
  return FieldSet.of(...conflicts.map((c) => c.path));
}

/** buildLastApplied: the applied object without the annotation, encoded as the unstructured JSON encoder does (sorted keys, trailing newline). */
export function buildLastApplied(applied: KubeObject): string {
  const copy = structuredClone(applied) as Record<string, unknown>;
  const meta = copy.metadata;
  if (isObject(meta)) {
    const annotations = meta.annotations;
    if (isObject(annotations) && Object.values(annotations).every((v) => typeof v === 'string')) {
      delete annotations[LAST_APPLIED_ANNOTATION];
    } else if (annotations !== undefined) {
      // GetAnnotations cannot read a non-string map; SetAnnotations(nil) then drops it.
      delete meta.annotations;
    }
  }
  // runtime.Encode with the unstructured scheme: encoding/json's Encoder, newline included.
  return goJsonValue(copy, 'encoding/json') + '\n';
}

/** SetLastApplied: sets the annotation unless the annotations would exceed their total size limit. */
export function setLastApplied(obj: KubeObject, value: string): void {
  const meta = (obj.metadata ??= {}) as Record<string, unknown>;
  const annotations: Record<string, unknown> = isObject(meta.annotations) ? { ...meta.annotations } : {};
  annotations[LAST_APPLIED_ANNOTATION] = value;
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += utf8Length(k) + utf8Length(String(v));
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) delete annotations[LAST_APPLIED_ANNOTATION];
  meta.annotations = annotations;
}
