// Matrix of `kubectl auth can-i` answers for the default roles of a 1.32
// server (spec 001, RBAC rules 5-7): cluster-admin, admin, edit, view bound in
// a namespace, and system:basic-user, system:discovery,
// system:public-info-viewer reached through system:authenticated /
// system:unauthenticated.
import { describe, expect, it } from 'vitest';
import { bootstrapPolicy } from './policy';
import { aggregateClusterRoles } from './aggregation';
import { createRbacAuthorizer } from '../authorizer/rbac';
import { createAuthorizerChain } from '../authorizer/union';
import { createPrivilegedGroupsAuthorizer } from '../authorizer/simple';
import { createMemoryRbacSource } from '../rbac-memory-source';
import { nonResourceAttributes, resourceAttributes } from '../attributes';
import type { RoleBinding, UserInfo } from '../types';

const G = 'rbac.authorization.k8s.io';
const policy = bootstrapPolicy();
const bindIn = (role: string, user: string): RoleBinding => ({
  metadata: { name: `${role}-${user}`, namespace: 'team' },
  roleRef: { apiGroup: G, kind: 'ClusterRole', name: role },
  subjects: [{ kind: 'User', name: user, apiGroup: G }],
});
const source = createMemoryRbacSource({
  clusterRoles: aggregateClusterRoles(policy.clusterRoles),
  clusterRoleBindings: [
    ...policy.clusterRoleBindings,
    { metadata: { name: 'ca' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'User', name: 'ca', apiGroup: G }] },
  ],
  roles: policy.roles,
  roleBindings: [...policy.roleBindings, bindIn('admin', 'adm'), bindIn('edit', 'ed'), bindIn('view', 'vw'), bindIn('cluster-admin', 'nsroot')],
});
const chain = createAuthorizerChain([createPrivilegedGroupsAuthorizer(), createRbacAuthorizer(source)]);
const authed = (username: string): UserInfo => ({ username, groups: ['system:authenticated'] });
const anonymous: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/** can-i <verb> <resource>[.<group>][/<sub>] [-n ns] */
async function canI(user: UserInfo, verb: string, what: string, namespace = 'team', name = ''): Promise<'yes' | 'no'> {
  let attrs;
  if (what.startsWith('/')) attrs = nonResourceAttributes(user, verb, what);
  else {
    const [resGroup, subresource = ''] = what.split('/') as [string, string?];
    const dot = resGroup.indexOf('.');
    const resource = dot < 0 ? resGroup : resGroup.slice(0, dot);
    const apiGroup = dot < 0 ? '' : resGroup.slice(dot + 1);
    attrs = resourceAttributes(user, { verb, resource, apiGroup, subresource, namespace, name });
  }
  return (await chain.authorize(attrs)).decision === 'Allow' ? 'yes' : 'no';
}

type Row = [verb: string, what: string, expected: 'yes' | 'no', namespace?: string];

const matrix: Record<string, Row[]> = {
  ca: [
    ['delete', 'nodes', 'yes', ''],
    ['create', 'clusterroles.rbac.authorization.k8s.io', 'yes', ''],
    ['escalate', 'roles.rbac.authorization.k8s.io', 'yes'],
    ['get', '/metrics', 'yes'],
    ['patch', 'anything.example.com/status', 'yes'],
  ],
  nsroot: [
    // cluster-admin in a RoleBinding: everything in the namespace, nothing outside.
    ['delete', 'secrets', 'yes'],
    ['update', 'namespaces', 'yes'],
    ['list', 'pods', 'no', 'other'],
    ['list', 'nodes', 'no', ''],
  ],
  adm: [
    ['get', 'pods', 'yes'],
    ['create', 'pods', 'yes'],
    ['create', 'pods/exec', 'yes'],
    ['delete', 'secrets', 'yes'],
    ['create', 'roles.rbac.authorization.k8s.io', 'yes'],
    ['create', 'rolebindings.rbac.authorization.k8s.io', 'yes'],
    ['create', 'localsubjectaccessreviews.authorization.k8s.io', 'yes'],
    ['impersonate', 'serviceaccounts', 'yes'],
    ['create', 'deployments.apps', 'yes'],
    ['patch', 'deployments.apps/scale', 'yes'],
    ['create', 'networkpolicies.networking.k8s.io', 'yes'],
    ['update', 'leases.coordination.k8s.io', 'yes'],
    ['create', 'events', 'yes'],
    ['get', 'endpoints', 'yes'],
    ['get', 'endpointslices.discovery.k8s.io', 'yes'],
    // No write on quotas, the namespace itself, or (since 1.22) endpoints.
    ['create', 'resourcequotas', 'no'],
    ['update', 'namespaces', 'no'],
    ['delete', 'namespaces', 'no'],
    ['get', 'namespaces', 'yes'],
    ['create', 'endpoints', 'no'],
    ['create', 'endpointslices.discovery.k8s.io', 'no'],
    ['list', 'pods', 'no', 'other'],
    ['list', 'nodes', 'no', ''],
  ],
  ed: [
    ['create', 'pods', 'yes'],
    ['get', 'secrets', 'yes'],
    ['create', 'secrets', 'yes'],
    ['create', 'serviceaccounts/token', 'yes'],
    ['create', 'pods/eviction', 'yes'],
    ['create', 'jobs.batch', 'yes'],
    ['create', 'roles.rbac.authorization.k8s.io', 'no'],
    ['list', 'rolebindings.rbac.authorization.k8s.io', 'no'],
    ['create', 'localsubjectaccessreviews.authorization.k8s.io', 'no'],
    ['create', 'endpoints', 'no'],
    ['update', 'resourcequotas', 'no'],
    ['get', 'resourcequotas', 'yes'],
  ],
  vw: [
    ['get', 'pods', 'yes'],
    ['list', 'deployments.apps', 'yes'],
    ['watch', 'jobs.batch', 'yes'],
    ['get', 'pods/log', 'yes'],
    ['get', 'pods/status', 'yes'],
    ['get', 'namespaces', 'yes'],
    ['list', 'secrets', 'no'],
    ['get', 'secrets', 'no'],
    ['create', 'pods', 'no'],
    ['create', 'pods/exec', 'no'],
    ['get', 'services/proxy', 'no'],
    ['list', 'roles.rbac.authorization.k8s.io', 'no'],
    ['delete', 'configmaps', 'no'],
  ],
  alice: [
    ['create', 'selfsubjectaccessreviews.authorization.k8s.io', 'yes', ''],
    ['create', 'selfsubjectrulesreviews.authorization.k8s.io', 'yes'],
    ['create', 'selfsubjectreviews.authentication.k8s.io', 'yes', ''],
    ['create', 'subjectaccessreviews.authorization.k8s.io', 'no', ''],
    ['get', 'pods', 'no'],
    ['list', 'namespaces', 'no', ''],
    ['get', '/api', 'yes'],
    ['get', '/apis/apps/v1', 'yes'],
    ['get', '/version', 'yes'],
    ['get', '/healthz', 'yes'],
    ['get', '/livez', 'yes'],
    ['get', '/openapi/v3', 'yes'],
    ['get', '/metrics', 'no'],
    ['get', '/healthz/etcd', 'no'],
    ['post', '/api', 'no'],
  ],
  anonymous: [
    ['get', '/healthz', 'yes'],
    ['get', '/readyz', 'yes'],
    ['get', '/version', 'yes'],
    ['get', '/api', 'no'],
    ['get', '/apis', 'no'],
    ['create', 'selfsubjectaccessreviews.authorization.k8s.io', 'no', ''],
    ['get', 'pods', 'no'],
  ],
};

describe('default roles of a 1.32 server (kubectl auth can-i)', () => {
  for (const [who, rows] of Object.entries(matrix)) {
    it(`${who}`, async () => {
      const user = who === 'anonymous' ? anonymous : authed(who);
      const got: string[] = [];
      const want: string[] = [];
      for (const [verb, what, expected, ns] of rows) {
        got.push(`${verb} ${what} -n ${ns ?? 'team'}: ${await canI(user, verb, what, ns ?? 'team')}`);
        want.push(`${verb} ${what} -n ${ns ?? 'team'}: ${expected}`);
      }
      expect(got).toEqual(want);
    });
  }

  it('every default object carries the bootstrapping label and the autoupdate annotation', () => {
    const all = [...policy.clusterRoles, ...policy.clusterRoleBindings, ...policy.roles, ...policy.roleBindings];
    expect(all.length).toBeGreaterThan(80);
    for (const o of all) {
      expect(o.metadata.labels?.['kubernetes.io/bootstrapping'], o.metadata.name).toBe('rbac-defaults');
      expect(o.metadata.annotations?.['rbac.authorization.kubernetes.io/autoupdate'], o.metadata.name).toBe('true');
    }
  });

  it('admin, edit and view are aggregated through the aggregate-to labels', () => {
    const byName = new Map(policy.clusterRoles.map((r) => [r.metadata.name, r]));
    expect(byName.get('admin')?.aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] });
    expect(byName.get('edit')?.metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-admin']).toBe('true');
    expect(byName.get('view')?.metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-edit']).toBe('true');
    expect(byName.get('admin')?.rules).toBeNull();
    const controllers = policy.clusterRoleBindings.filter((b) => b.metadata.name.startsWith('system:controller:'));
    expect(controllers.map((b) => b.subjects?.[0])).toContainEqual({ kind: 'ServiceAccount', name: 'namespace-controller', namespace: 'kube-system' });
  });
});
