// The texts RBAC puts in its reasons, as kube-apiserver prints them:
//   RBAC: allowed by ClusterRoleBinding "admins" of ClusterRole "cluster-admin" to Group "system:masters"
//   RBAC: allowed by RoleBinding "edit/dev" of ClusterRole "edit" to ServiceAccount "ci/dev"
//   RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found

import type { ClusterRoleBinding, RoleBinding, Subject } from '../types';

const q = (s: string): string => JSON.stringify(s);

export function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') {
    return `${subject.kind} ${q(`${subject.name}/${subject.namespace || bindingNamespace}`)}`;
  }
  return `${subject.kind} ${q(subject.name)}`;
}

export function describeRbacBinding(kind: 'ClusterRoleBinding' | 'RoleBinding', binding: ClusterRoleBinding | RoleBinding, subject: Subject): string {
  if (kind === 'ClusterRoleBinding') {
    return `ClusterRoleBinding ${q(binding.metadata.name)} of ${binding.roleRef.kind} ${q(binding.roleRef.name)} to ${describeSubject(subject, '')}`;
  }
  const ns = binding.metadata.namespace ?? '';
  return `RoleBinding ${q(`${binding.metadata.name}/${ns}`)} of ${binding.roleRef.kind} ${q(binding.roleRef.name)} to ${describeSubject(subject, ns)}`;
}

/**
 * The NotFound text of a failed role lookup. The authorizer reads through
 * listers, whose errors name the singular resource ("clusterrole.rbac…");
 * the escalation checks of the RBAC REST storage read through the registry,
 * whose errors name the plural ("clusterroles.rbac…").
 */
export type LookupErrorStyle = 'lister' | 'registry';
export function roleLookupError(kind: 'Role' | 'ClusterRole', name: string, style: LookupErrorStyle = 'lister'): string {
  const singular = kind === 'Role' ? 'role' : 'clusterrole';
  const resource = style === 'lister' ? singular : `${singular}s`;
  return `${resource}.rbac.authorization.k8s.io ${q(name)} not found`;
}

export function rbacReasonFromErrors(errors: readonly string[]): string {
  if (errors.length === 0) return '';
  return `RBAC: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`;
}
