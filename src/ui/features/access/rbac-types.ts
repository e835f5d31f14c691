// The RBAC objects (rbac.authorization.k8s.io/v1) as the API lists them, as
// far as the access view reads them.

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  name: string;
  apiGroup?: string;
  namespace?: string;
}

interface Meta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
}

export interface RoleLike {
  metadata: Meta;
  rules?: PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: Array<{ matchLabels?: Record<string, string> }> };
}

export interface RoleBindingLike {
  metadata: Meta;
  subjects?: Subject[] | null;
  roleRef: { apiGroup?: string; kind: string; name: string };
}

export interface RbacObjects {
  readonly clusterRoles: readonly RoleLike[];
  readonly clusterRoleBindings: readonly RoleBindingLike[];
  readonly roles: readonly RoleLike[];
  readonly roleBindings: readonly RoleBindingLike[];
}
