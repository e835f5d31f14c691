// What the access view asks the server: the RBAC objects (listed through the
// API, as kubectl would), SubjectAccessReviews and SelfSubjectRulesReviews
// (the server's own answers), who an identity is (SelfSubjectReview), and the
// authorizer chain of the cluster's configuration.

import { administratorIdentity } from '../../lib/api/administrator';
import { apiFetch, apiJson, errorFrom } from '../../lib/api/client';
import type { Identity } from '../../lib/api/identity';
import type { KubeList } from '../../lib/api/types';
import { askWorker } from '../../../platform/browser/worker-client';
import type { RequestAttributes } from './rbac-explain';
import type { RbacObjects, RoleBindingLike, RoleLike } from './rbac-types';
import { chainOf, type ChainEntry, type ReviewAnswer } from './steps';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const JSON_BODY = { 'content-type': 'application/json' };

export async function listRbacObjects(): Promise<RbacObjects> {
  const identity = administratorIdentity();
  const [clusterRoles, clusterRoleBindings, roles, roleBindings] = await Promise.all([
    apiJson<KubeList<RoleLike>>(`${RBAC}/clusterroles`, { identity }),
    apiJson<KubeList<RoleBindingLike>>(`${RBAC}/clusterrolebindings`, { identity }),
    apiJson<KubeList<RoleLike>>(`${RBAC}/roles`, { identity }),
    apiJson<KubeList<RoleBindingLike>>(`${RBAC}/rolebindings`, { identity }),
  ]);
  return { clusterRoles: clusterRoles.items, clusterRoleBindings: clusterRoleBindings.items, roles: roles.items, roleBindings: roleBindings.items };
}

/** The spec of a SubjectAccessReview for these attributes. */
export function reviewSpec(attrs: RequestAttributes): Record<string, unknown> {
  const r = attrs.resource;
  return {
    user: attrs.user,
    groups: [...attrs.groups],
    ...(r
      ? { resourceAttributes: { verb: attrs.verb, group: r.group, resource: r.resource, ...(r.subresource ? { subresource: r.subresource } : {}), ...(r.namespace ? { namespace: r.namespace } : {}), ...(r.name ? { name: r.name } : {}) } }
      : { nonResourceAttributes: { verb: attrs.verb, path: attrs.path ?? '' } }),
  };
}

/** POST a SubjectAccessReview as the administrator: the server's answer. */
export async function subjectAccessReview(attrs: RequestAttributes): Promise<ReviewAnswer> {
  const review = await apiJson<{ status?: ReviewAnswer }>('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    method: 'POST',
    identity: administratorIdentity(),
    headers: JSON_BODY,
    body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: reviewSpec(attrs) }),
  });
  return { allowed: Boolean(review.status?.allowed), ...review.status };
}

export interface RulesReview {
  resourceRules: Array<{ verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }>;
  nonResourceRules: Array<{ verbs: string[]; nonResourceURLs?: string[] }>;
  incomplete: boolean;
  evaluationError?: string;
}

/**
 * A SelfSubjectRulesReview for a subject: sent by the administrator
 * impersonating the user and groups (kubectl auth can-i --list --as … --as-group …).
 */
export async function rulesReview(user: string, groups: readonly string[], namespace: string): Promise<RulesReview> {
  // Several Impersonate-Group headers: a list of pairs (apiJson would fold them into one).
  const headers: Array<[string, string]> = [
    ['accept', 'application/json'],
    ['content-type', 'application/json'],
    ['Impersonate-User', user],
    ...groups.map((g): [string, string] => ['Impersonate-Group', g]),
  ];
  const response = await apiFetch('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
    method: 'POST',
    identity: administratorIdentity(),
    headers,
    body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace } }),
  });
  if (!response.ok) throw await errorFrom(response);
  return ((await response.json()) as { status: RulesReview }).status;
}

/** Who an identity is, as the server sees it (kubectl auth whoami). */
export async function whoAmI(identity: Identity): Promise<{ username: string; groups: string[] }> {
  const review = await apiJson<{ status?: { userInfo?: { username?: string; groups?: string[] } } }>('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    method: 'POST',
    identity,
    headers: JSON_BODY,
    body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
  });
  return { username: review.status?.userInfo?.username ?? '', groups: review.status?.userInfo?.groups ?? [] };
}

/** The authorizer chain of the cluster's configuration (from the service worker, which keeps it). */
export async function authorizerChain(): Promise<ChainEntry[]> {
  const state = await askWorker('kubetab:configuration:get', {});
  return chainOf(state.document.authorization);
}
