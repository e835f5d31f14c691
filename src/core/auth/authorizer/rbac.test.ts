// RBAC rules of spec 001 ("RBAC objects", "RBAC rules") and kube-apiserver's
// reason texts.
import { describe, expect, it } from 'vitest';
import { createRbacAuthorizer } from './rbac';
import { createMemoryRbacSource } from '../rbac-memory-source';
import { nonResourceAttributes, resourceAttributes } from '../attributes';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject, UserInfo } from '../types';

const alice: UserInfo = { username: 'alice', groups: ['devs', 'system:authenticated'] };
const G = 'rbac.authorization.k8s.io';
const cr = (name: string, rules: PolicyRule[]): ClusterRole => ({ metadata: { name }, rules });
const role = (ns: string, name: string, rules: PolicyRule[]): Role => ({ metadata: { name, namespace: ns }, rules });
const crb = (name: string, role: string, subjects: Subject[]): ClusterRoleBinding => ({
  metadata: { name },
  roleRef: { apiGroup: G, kind: 'ClusterRole', name: role },
  subjects,
});
const rb = (ns: string, name: string, kind: 'Role' | 'ClusterRole', roleName: string, subjects: Subject[]): RoleBinding => ({
  metadata: { name, namespace: ns },
  roleRef: { apiGroup: G, kind, name: roleName },
  subjects,
});
const user = (name: string): Subject => ({ kind: 'User', name, apiGroup: G });
const group = (name: string): Subject => ({ kind: 'Group', name, apiGroup: G });

const podReader = cr('pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]);

describe('RBAC authorizer', () => {
  it('allows through a ClusterRoleBinding to the user and names it in the reason', () => {
    const authz = createRbacAuthorizer(createMemoryRbacSource({ clusterRoles: [podReader], clusterRoleBindings: [crb('read-pods', 'pod-reader', [user('alice')])] }));
    const step = authz.authorize(resourceAttributes(alice, { verb: 'list', resource: 'pods', namespace: 'default' }));
    expect(step).toMatchObject({
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "read-pods" of ClusterRole "pod-reader" to User "alice"',
    });
  });

  it('never denies: no matching rule is NoOpinion with an empty reason', () => {
    const authz = createRbacAuthorizer(createMemoryRbacSource({ clusterRoles: [podReader], clusterRoleBindings: [crb('read-pods', 'pod-reader', [user('alice')])] }));
    const step = authz.authorize(resourceAttributes(alice, { verb: 'delete', resource: 'pods', namespace: 'default', name: 'p' }));
    expect(step).toMatchObject({ decision: 'NoOpinion', reason: '' });
  });

  it('matches groups, and a RoleBinding grants only in its namespace', () => {
    const src = createMemoryRbacSource({
      clusterRoles: [podReader],
      roleBindings: [rb('dev', 'devs-read', 'ClusterRole', 'pod-reader', [group('devs')])],
    });
    const authz = createRbacAuthorizer(src);
    expect(authz.authorize(resourceAttributes(alice, { verb: 'get', resource: 'pods', namespace: 'dev', name: 'x' }))).toMatchObject({
      decision: 'Allow',
      reason: 'RBAC: allowed by RoleBinding "devs-read/dev" of ClusterRole "pod-reader" to Group "devs"',
    });
    expect(authz.authorize(resourceAttributes(alice, { verb: 'get', resource: 'pods', namespace: 'prod', name: 'x' })).decision).toBe('NoOpinion');
    // A RoleBinding never grants cluster-scoped requests.
    expect(authz.authorize(resourceAttributes(alice, { verb: 'list', resource: 'pods' })).decision).toBe('NoOpinion');
  });

  it('a service account subject without namespace means the binding namespace', () => {
    const src = createMemoryRbacSource({
      roles: [role('ci', 'deployer', [{ verbs: ['create'], apiGroups: ['apps'], resources: ['deployments'] }])],
      roleBindings: [rb('ci', 'deploy', 'Role', 'deployer', [{ kind: 'ServiceAccount', name: 'builder' }])],
    });
    const sa: UserInfo = { username: 'system:serviceaccount:ci:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci'] };
    const authz = createRbacAuthorizer(src);
    expect(authz.authorize(resourceAttributes(sa, { verb: 'create', apiGroup: 'apps', resource: 'deployments', namespace: 'ci' }))).toMatchObject({
      decision: 'Allow',
      reason: 'RBAC: allowed by RoleBinding "deploy/ci" of Role "deployer" to ServiceAccount "builder/ci"',
    });
    const other: UserInfo = { username: 'system:serviceaccount:other:builder', groups: [] };
    expect(authz.authorize(resourceAttributes(other, { verb: 'create', apiGroup: 'apps', resource: 'deployments', namespace: 'ci' })).decision).toBe('NoOpinion');
  });

  it('a ClusterRoleBinding to a service account needs the namespace', () => {
    const src = createMemoryRbacSource({
      clusterRoles: [podReader],
      clusterRoleBindings: [crb('no-ns', 'pod-reader', [{ kind: 'ServiceAccount', name: 'builder' }])],
    });
    const sa: UserInfo = { username: 'system:serviceaccount:ci:builder', groups: [] };
    expect(createRbacAuthorizer(src).authorize(resourceAttributes(sa, { verb: 'list', resource: 'pods' })).decision).toBe('NoOpinion');
  });

  it('reports roles that cannot be found in the reason (RBAC: … not found)', () => {
    const src = createMemoryRbacSource({
      clusterRoleBindings: [crb('b1', 'missing', [user('alice')])],
      roleBindings: [rb('dev', 'b2', 'Role', 'gone', [user('alice')])],
    });
    const authz = createRbacAuthorizer(src);
    expect(authz.authorize(resourceAttributes(alice, { verb: 'list', resource: 'pods', namespace: 'default' })).reason).toBe(
      'RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found',
    );
    expect(authz.authorize(resourceAttributes(alice, { verb: 'list', resource: 'pods', namespace: 'dev' })).reason).toBe(
      'RBAC: [clusterrole.rbac.authorization.k8s.io "missing" not found, role.rbac.authorization.k8s.io "gone" not found]',
    );
  });

  it('visits cluster role bindings before role bindings and names the first that allows', () => {
    const src = createMemoryRbacSource({
      clusterRoles: [podReader],
      clusterRoleBindings: [crb('z-cluster', 'pod-reader', [group('devs')])],
      roleBindings: [rb('dev', 'a-local', 'ClusterRole', 'pod-reader', [user('alice')])],
    });
    expect(createRbacAuthorizer(src).authorize(resourceAttributes(alice, { verb: 'list', resource: 'pods', namespace: 'dev' })).reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "z-cluster" of ClusterRole "pod-reader" to Group "devs"',
    );
  });

  it('traces bindings, roles and each rule with the reason it did or did not match', () => {
    const src = createMemoryRbacSource({
      clusterRoles: [
        cr('mixed', [
          { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
          { verbs: ['list'], apiGroups: ['apps'], resources: ['pods'] },
          { verbs: ['list'], apiGroups: [''], resources: ['secrets'] },
          { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['one'] },
        ]),
        podReader,
      ],
      clusterRoleBindings: [crb('other', 'pod-reader', [user('bob')]), crb('mine', 'mixed', [user('alice')])],
    });
    const authz = createRbacAuthorizer(src);
    const attrs = resourceAttributes(alice, { verb: 'list', resource: 'pods', namespace: 'default' });
    const matched = authz.authorize(attrs);
    expect(matched.skippedBindings).toBe(1);
    expect(matched.bindings).toHaveLength(1);
    const rules = matched.bindings![0]!.role!.rules;
    expect(rules.map((r) => r.why)).toEqual([
      'verb "list" is not in verbs [get]',
      'API group "" is not in apiGroups [apps]',
      'resource "pods" is not in resources [secrets]',
      'the rule is limited to resourceNames [one] and the request names no object',
    ]);
    const full = authz.authorize(attrs, { trace: 'full' });
    expect(full.bindings!.map((b) => [b.name, b.subjectMatched])).toEqual([
      ['other', false],
      ['mine', true],
    ]);
    expect(full.bindings![0]!.why).toBe('no subject is user "alice" or one of its groups [devs system:authenticated]');
    expect(authz.authorize(attrs, { trace: 'off' }).bindings).toBeUndefined();
  });

  it('evaluates wildcards, subresources, */subresource, resourceNames and nonResourceURLs', () => {
    const src = createMemoryRbacSource({
      clusterRoles: [
        cr('r', [
          { verbs: ['*'], apiGroups: ['batch'], resources: ['*'] },
          { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] },
          { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] },
          { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cfg'] },
          { verbs: ['get'], nonResourceURLs: ['/healthz', '/logs/*'] },
        ]),
      ],
      clusterRoleBindings: [crb('b', 'r', [user('alice')])],
    });
    const a = createRbacAuthorizer(src);
    const allow = (x: Parameters<typeof resourceAttributes>[1]): string => a.authorize(resourceAttributes(alice, x)).decision;
    expect(allow({ verb: 'deletecollection', apiGroup: 'batch', resource: 'jobs', namespace: 'n' })).toBe('Allow');
    expect(allow({ verb: 'get', resource: 'pods', subresource: 'log', namespace: 'n', name: 'p' })).toBe('Allow');
    expect(allow({ verb: 'get', resource: 'pods', namespace: 'n', name: 'p' })).toBe('NoOpinion');
    expect(allow({ verb: 'update', apiGroup: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'n', name: 'd' })).toBe('Allow');
    expect(allow({ verb: 'update', apiGroup: 'apps', resource: 'deployments', namespace: 'n', name: 'd' })).toBe('NoOpinion');
    expect(allow({ verb: 'get', resource: 'configmaps', namespace: 'n', name: 'cfg' })).toBe('Allow');
    expect(allow({ verb: 'get', resource: 'configmaps', namespace: 'n', name: 'other' })).toBe('NoOpinion');
    // resourceNames cannot authorize a list of everything.
    expect(allow({ verb: 'list', resource: 'configmaps', namespace: 'n' })).toBe('NoOpinion');
    const path = (p: string): string => a.authorize(nonResourceAttributes(alice, 'get', p)).decision;
    expect(path('/healthz')).toBe('Allow');
    expect(path('/healthz/etcd')).toBe('NoOpinion');
    expect(path('/logs/kube.log')).toBe('Allow');
    expect(path('/logs/')).toBe('Allow');
    expect(path('/logsx')).toBe('NoOpinion');
    expect(a.authorize(nonResourceAttributes(alice, 'post', '/healthz')).decision).toBe('NoOpinion');
  });

  it('rulesFor lists the granted rules in SelfSubjectRulesReview shape', () => {
    const src = createMemoryRbacSource({
      clusterRoles: [cr('r', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], nonResourceURLs: [] }, { verbs: ['get'], nonResourceURLs: ['/x'] }])],
      clusterRoleBindings: [crb('b', 'r', [user('alice')]), crb('c', 'nope', [user('alice')])],
    });
    expect(createRbacAuthorizer(src).rulesFor(alice, 'default')).toEqual({
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }],
      incomplete: false,
      evaluationError: 'clusterrole.rbac.authorization.k8s.io "nope" not found',
    });
  });

  it('rebuilds its subject index when the source changes', () => {
    const src = createMemoryRbacSource({ clusterRoles: [podReader] });
    const authz = createRbacAuthorizer(src);
    const attrs = resourceAttributes(alice, { verb: 'list', resource: 'pods' });
    expect(authz.authorize(attrs).decision).toBe('NoOpinion');
    src.replace({ clusterRoles: [podReader], clusterRoleBindings: [crb('b', 'pod-reader', [user('alice')])] });
    expect(authz.authorize(attrs).decision).toBe('Allow');
  });
});
