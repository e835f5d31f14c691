// The whole default RBAC policy of a 1.32 server as API objects: every object
// labelled kubernetes.io/bootstrapping=rbac-defaults and annotated
// rbac.authorization.kubernetes.io/autoupdate="true", as kube-apiserver
// creates them at its first start (and repairs at every start).

import { clusterRoleSpecs } from './cluster-roles';
import { CONTROLLER_ROLE_PREFIX, controllerRoleSpecs } from './controller-roles';
import { namespaceRoleBindingSpecs, namespaceRoleSpecs } from './namespace-roles';
import {
  AUTOUPDATE_ANNOTATION,
  BOOTSTRAPPING_LABEL,
  GROUP,
  RBAC_GROUP,
  USER,
  type ClusterRole,
  type ClusterRoleBinding,
  type RbacMeta,
  type Role,
  type RoleBinding,
  type Subject,
} from '../types';

export interface BootstrapPolicy {
  clusterRoles: ClusterRole[];
  clusterRoleBindings: ClusterRoleBinding[];
  roles: Role[];
  roleBindings: RoleBinding[];
}

const API_VERSION = 'rbac.authorization.k8s.io/v1';

function withDefaults(meta: RbacMeta): RbacMeta {
  return {
    ...meta,
    labels: { ...(meta.labels ?? {}), [BOOTSTRAPPING_LABEL]: 'rbac-defaults' },
    annotations: { ...(meta.annotations ?? {}), [AUTOUPDATE_ANNOTATION]: 'true' },
  };
}

const user = (name: string): Subject => ({ apiGroup: RBAC_GROUP, kind: 'User', name });
const group = (name: string): Subject => ({ apiGroup: RBAC_GROUP, kind: 'Group', name });
const sa = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

function clusterBinding(name: string, subjects: Subject[] | undefined, roleName = name): ClusterRoleBinding {
  const b: ClusterRoleBinding = {
    apiVersion: API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: withDefaults({ name }),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName },
  };
  if (subjects) b.subjects = subjects;
  return b;
}

export function bootstrapPolicy(): BootstrapPolicy {
  const clusterRoles: ClusterRole[] = clusterRoleSpecs().map((r) => ({ ...r, metadata: withDefaults(r.metadata) }));
  const clusterRoleBindings: ClusterRoleBinding[] = [
    clusterBinding('cluster-admin', [group(GROUP.masters)]),
    clusterBinding('system:monitoring', [group(GROUP.monitoring)]),
    clusterBinding('system:discovery', [group(GROUP.authenticated)]),
    clusterBinding('system:basic-user', [group(GROUP.authenticated)]),
    clusterBinding('system:public-info-viewer', [group(GROUP.authenticated), group(GROUP.unauthenticated)]),
    clusterBinding('system:node-proxier', [user(USER.kubeProxy)]),
    clusterBinding('system:kube-controller-manager', [user(USER.kubeControllerManager)]),
    clusterBinding('system:kube-dns', [sa('kube-system', 'kube-dns')]),
    clusterBinding('system:kube-scheduler', [user(USER.kubeScheduler)]),
    clusterBinding('system:volume-scheduler', [user(USER.kubeScheduler)]),
    // Kept with no subjects since the Node authorizer replaced it (1.7), so
    // that tightening reconciliation can remove a subject added earlier.
    clusterBinding('system:node', undefined),
    clusterBinding('system:service-account-issuer-discovery', [group(GROUP.serviceAccounts)]),
  ];
  for (const spec of controllerRoleSpecs()) {
    const name = `${CONTROLLER_ROLE_PREFIX}${spec.controller}`;
    clusterRoles.push({ apiVersion: API_VERSION, kind: 'ClusterRole', metadata: withDefaults({ name }), rules: spec.rules });
    clusterRoleBindings.push(clusterBinding(name, [sa('kube-system', spec.controller)]));
  }
  const roles: Role[] = namespaceRoleSpecs().map((s) => ({
    apiVersion: API_VERSION,
    kind: 'Role',
    metadata: withDefaults({ name: s.name, namespace: s.namespace }),
    rules: s.rules,
  }));
  const roleBindings: RoleBinding[] = namespaceRoleBindingSpecs().map((s) => ({
    apiVersion: API_VERSION,
    kind: 'RoleBinding',
    metadata: withDefaults({ name: s.name, namespace: s.namespace }),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: s.roleName },
    subjects: s.subjects,
  }));
  return { clusterRoles, clusterRoleBindings, roles, roleBindings };
}
