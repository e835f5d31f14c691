// 422 Invalid errors of the review kinds, whose bad values kube prints with
// Go's %#v (structs) — more than the shared field-error formatter covers.

import { StatusError } from '../../errors/status';

export interface RawFieldError {
  readonly field: string;
  readonly type: 'FieldValueInvalid' | 'FieldValueRequired';
  /** The text after "<field>: ". */
  readonly body: string;
}

const q = (s: string): string => JSON.stringify(s);

export function invalidValue(field: string, goValue: string, detail: string): RawFieldError {
  return { field, type: 'FieldValueInvalid', body: `Invalid value: ${goValue}: ${detail}` };
}
export function requiredValue(field: string, detail: string): RawFieldError {
  return { field, type: 'FieldValueRequired', body: `Required value: ${detail}` };
}

/** apierrors.NewInvalid with the group-qualified kind and an empty name, as the review REST storages call it. */
export function reviewInvalid(group: string, kind: string, errs: readonly RawFieldError[]): StatusError {
  const texts = [...new Set(errs.map((e) => `${e.field}: ${e.body}`))];
  const summary = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return new StatusError(422, 'Invalid', `${kind}.${group} "" is invalid: ${summary}`, {
    group,
    kind,
    causes: errs.map((e) => ({ reason: e.type, message: e.body, field: e.field })),
  });
}

/** Go's %#v of a string map, keys sorted (map[string]string{"a":"b"}). */
function goStringMap(m: Record<string, string> | undefined): string {
  if (!m) return 'map[string]string(nil)';
  return `map[string]string{${Object.keys(m)
    .sort()
    .map((k) => `${q(k)}:${q(m[k]!)}`)
    .join(', ')}}`;
}

/** Go's %#v of a metav1.ObjectMeta holding the common fields of a request body. */
export function goObjectMeta(meta: Record<string, unknown>): string {
  const s = (k: string): string => q(typeof meta[k] === 'string' ? (meta[k] as string) : '');
  return (
    `v1.ObjectMeta{Name:${s('name')}, GenerateName:${s('generateName')}, Namespace:${s('namespace')}, SelfLink:"", UID:${s('uid')}, ` +
    `ResourceVersion:${s('resourceVersion')}, Generation:${typeof meta.generation === 'number' ? meta.generation : 0}, ` +
    `CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), ` +
    `Labels:${goStringMap(meta.labels as Record<string, string> | undefined)}, Annotations:${goStringMap(meta.annotations as Record<string, string> | undefined)}, ` +
    `OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ManagedFields:[]v1.ManagedFieldsEntry(nil)}`
  );
}

/** Go's %#v of authorization.NonResourceAttributes. */
export function goNonResourceAttributes(a: { path?: string; verb?: string }): string {
  return `authorization.NonResourceAttributes{Path:${q(a.path ?? '')}, Verb:${q(a.verb ?? '')}}`;
}
