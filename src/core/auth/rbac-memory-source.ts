// An RbacSource over plain arrays of RBAC objects: the bootstrap policy, the
// review endpoints' tests, and any host that keeps RBAC objects in memory.
// Arrays are kept stable between changes so the RBAC authorizer's subject
// index is reused (see RbacSource).

import type { ClusterRole, ClusterRoleBinding, RbacSource, Role, RoleBinding } from './types';

export interface RbacObjects {
  clusterRoles?: readonly ClusterRole[];
  roles?: readonly Role[];
  clusterRoleBindings?: readonly ClusterRoleBinding[];
  roleBindings?: readonly RoleBinding[];
}

export interface MemoryRbacSource extends RbacSource {
  /** Replaces the objects (the index is rebuilt on the next request). */
  replace(objects: RbacObjects): void;
}

const EMPTY: readonly RoleBinding[] = Object.freeze([]);

export function createMemoryRbacSource(objects: RbacObjects = {}): MemoryRbacSource {
  let clusterRoles = new Map<string, ClusterRole>();
  let roles = new Map<string, Role>();
  let clusterRoleBindings: readonly ClusterRoleBinding[] = [];
  let roleBindingsByNs = new Map<string, readonly RoleBinding[]>();

  function replace(o: RbacObjects): void {
    clusterRoles = new Map((o.clusterRoles ?? []).map((r) => [r.metadata.name, r]));
    roles = new Map((o.roles ?? []).map((r) => [`${r.metadata.namespace ?? ''}/${r.metadata.name}`, r]));
    clusterRoleBindings = [...(o.clusterRoleBindings ?? [])];
    const byNs = new Map<string, RoleBinding[]>();
    for (const rb of o.roleBindings ?? []) {
      const ns = rb.metadata.namespace ?? '';
      let list = byNs.get(ns);
      if (!list) byNs.set(ns, (list = []));
      list.push(rb);
    }
    roleBindingsByNs = byNs;
  }
  replace(objects);

  return {
    replace,
    listClusterRoleBindings: () => clusterRoleBindings,
    listRoleBindings: (namespace) => roleBindingsByNs.get(namespace) ?? EMPTY,
    getClusterRole: (name) => clusterRoles.get(name),
    getRole: (namespace, name) => roles.get(`${namespace}/${name}`),
  };
}
