// Validation rules of the RBAC kinds that the access-control layer owns:
// a binding's roleRef cannot change (ValidateRoleBindingUpdate), with the
// message kube-apiserver prints for it:
//   RoleBinding.rbac.authorization.k8s.io "b" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef

import { StatusError } from '../../errors/status';
import { RBAC_GROUP, type RoleRef } from '../types';

/** Go's %#v of the internal rbac.RoleRef. */
export function goRoleRef(ref: RoleRef): string {
  return `rbac.RoleRef{APIGroup:${JSON.stringify(ref.apiGroup ?? '')}, Kind:${JSON.stringify(ref.kind ?? '')}, Name:${JSON.stringify(ref.name ?? '')}}`;
}

export function sameRoleRef(a: RoleRef, b: RoleRef): boolean {
  return (a.apiGroup ?? '') === (b.apiGroup ?? '') && (a.kind ?? '') === (b.kind ?? '') && (a.name ?? '') === (b.name ?? '');
}

/** Undefined when the roleRef is unchanged; else the 422 Invalid kube answers. */
export function validateRoleRefUnchanged(
  kind: 'RoleBinding' | 'ClusterRoleBinding',
  name: string,
  newRef: RoleRef,
  oldRef: RoleRef,
): StatusError | undefined {
  if (sameRoleRef(newRef, oldRef)) return undefined;
  const body = `Invalid value: ${goRoleRef(newRef)}: cannot change roleRef`;
  return new StatusError(422, 'Invalid', `${kind}.${RBAC_GROUP} ${JSON.stringify(name)} is invalid: roleRef: ${body}`, {
    name,
    group: RBAC_GROUP,
    kind,
    causes: [{ reason: 'FieldValueInvalid', message: body, field: 'roleRef' }],
  });
}
