// RBAC rules 2 and 4 of spec 001: roleRef immutable; escalation prevention
// with the escalate and bind verbs, kube-apiserver's error texts.
import { describe, expect, it } from 'vitest';
import { checkBindingWrite, checkRoleWrite, compactString, covers, type EscalationDeps } from './escalation';
import { validateRoleRefUnchanged } from './validation';
import { createRbacAuthorizer } from './rbac';
import { createAuthorizerChain } from './union';
import { createPrivilegedGroupsAuthorizer } from './simple';
import { createMemoryRbacSource } from '../rbac-memory-source';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, UserInfo } from '../types';

const G = 'rbac.authorization.k8s.io';
const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };

function setup(aliceRules: PolicyRule[], extraRoles: ClusterRole[] = []): EscalationDeps {
  const src = createMemoryRbacSource({
    clusterRoles: [{ metadata: { name: 'alice-role' }, rules: aliceRules }, ...extraRoles],
    roleBindings: [
      {
        metadata: { name: 'alice', namespace: 'dev' },
        roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'alice-role' },
        subjects: [{ kind: 'User', name: 'alice', apiGroup: G }],
      },
    ],
  });
  const rbac = createRbacAuthorizer(src);
  const chain = createAuthorizerChain([createPrivilegedGroupsAuthorizer(), rbac]);
  return { authorize: (a) => chain.authorize(a), resolver: rbac };
}

const roleIn = (ns: string, rules: PolicyRule[]): Role => ({ metadata: { name: 'r', namespace: ns }, rules });

describe('escalation prevention', () => {
  it('a user may create a Role only with rules they hold in that namespace', async () => {
    const deps = setup([
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['create'], apiGroups: [G], resources: ['roles'] },
    ]);
    expect(await checkRoleWrite(deps, { user: alice, kind: 'Role', object: roleIn('dev', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]) })).toBeUndefined();
    const err = await checkRoleWrite(deps, {
      user: alice,
      kind: 'Role',
      object: roleIn('dev', [
        { verbs: ['get', 'list', 'delete', 'deletecollection'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a', 'b'] },
      ]),
    });
    expect(err?.status.code).toBe(403);
    expect(err?.status.reason).toBe('Forbidden');
    expect(err?.status.message).toBe(
      'roles.rbac.authorization.k8s.io "r" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete" "deletecollection"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], ResourceNames:["a"], Verbs:["get"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], ResourceNames:["b"], Verbs:["get"]}',
    );
    expect(err?.status.details).toEqual({ name: 'r', group: G, kind: 'roles' });
    // The same rules in another namespace are not held there.
    expect(await checkRoleWrite(deps, { user: alice, kind: 'Role', object: roleIn('prod', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]) })).toBeDefined();
  });

  it('the escalate verb lifts the check; system:masters always may', async () => {
    const deps = setup([{ verbs: ['escalate'], apiGroups: [G], resources: ['roles'] }]);
    expect(await checkRoleWrite(deps, { user: alice, kind: 'Role', object: roleIn('dev', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]) })).toBeUndefined();
    const root: UserInfo = { username: 'root', groups: ['system:masters'] };
    expect(await checkRoleWrite(setup([]), { user: root, kind: 'ClusterRole', object: { metadata: { name: 'x' }, rules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] } })).toBeUndefined();
  });

  it('non-resource rules and ClusterRoles are checked at cluster scope', async () => {
    const deps = setup([{ verbs: ['get'], nonResourceURLs: ['/healthz'] }]);
    const err = await checkRoleWrite(deps, { user: alice, kind: 'ClusterRole', object: { metadata: { name: 'c' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }] } });
    // alice's rules are bound in namespace dev only, so nothing is held at cluster scope.
    expect(err?.status.message).toBe(
      'clusterroles.rbac.authorization.k8s.io "c" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{NonResourceURLs:["/metrics"], Verbs:["get"]}',
    );
  });

  it('an aggregationRule needs cluster-admin privileges', async () => {
    const deps = setup([]);
    const err = await checkRoleWrite(deps, {
      user: alice,
      kind: 'ClusterRole',
      object: { metadata: { name: 'agg' }, rules: [], aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } },
    });
    expect(err?.status.message).toBe('clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule');
  });

  it('binding a role needs its permissions or the bind verb on it', async () => {
    const edit: ClusterRole = { metadata: { name: 'edit' }, rules: [{ verbs: ['create'], apiGroups: [''], resources: ['pods'] }] };
    const binding: RoleBinding = {
      metadata: { name: 'give-edit', namespace: 'dev' },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'edit' },
      subjects: [{ kind: 'User', name: 'bob', apiGroup: G }],
    };
    const denied = await checkBindingWrite(setup([{ verbs: ['create'], apiGroups: [G], resources: ['rolebindings'] }], [edit]), {
      user: alice,
      kind: 'RoleBinding',
      object: binding,
    });
    expect(denied?.status.message).toBe(
      'rolebindings.rbac.authorization.k8s.io "give-edit" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["create"]}',
    );
    const withBind = setup([{ verbs: ['bind'], apiGroups: [G], resources: ['clusterroles'], resourceNames: ['edit'] }], [edit]);
    expect(await checkBindingWrite(withBind, { user: alice, kind: 'RoleBinding', object: binding })).toBeUndefined();
    // bind limited by resourceNames does not cover another role.
    const admin: ClusterRole = { metadata: { name: 'admin' }, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] };
    const withBind2 = setup([{ verbs: ['bind'], apiGroups: [G], resources: ['clusterroles'], resourceNames: ['edit'] }], [edit, admin]);
    expect(await checkBindingWrite(withBind2, { user: alice, kind: 'RoleBinding', object: { ...binding, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'admin' } } })).toBeDefined();
  });

  it('binding a missing role is forbidden with the lookup error', async () => {
    const crb: ClusterRoleBinding = { metadata: { name: 'x' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'nope' }, subjects: [] };
    const err = await checkBindingWrite(setup([]), { user: alice, kind: 'ClusterRoleBinding', object: crb });
    expect(err?.status.message).toBe('clusterrolebindings.rbac.authorization.k8s.io "x" is forbidden: clusterroles.rbac.authorization.k8s.io "nope" not found');
  });

  it('an update that only touches ownerReferences/finalizers is not checked', async () => {
    const old = roleIn('prod', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    const updated = { ...old, metadata: { ...old.metadata, finalizers: ['x'] } };
    expect(await checkRoleWrite(setup([]), { user: alice, kind: 'Role', object: updated, old })).toBeUndefined();
  });

  it('covers understands wildcards, */subresource and URL prefixes', () => {
    expect(covers([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }]).covered).toBe(true);
    expect(covers([{ verbs: ['get'], apiGroups: ['apps'], resources: ['*/scale'] }], [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }]).covered).toBe(true);
    expect(covers([{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] }], [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }]).covered).toBe(false);
    expect(covers([{ verbs: ['get'], nonResourceURLs: ['/api/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/api/v1'] }]).covered).toBe(true);
    expect(covers([{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]).covered).toBe(false);
    expect(compactString({ verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['pods'] })).toBe('{APIGroups:["" "apps"], Resources:["pods"], Verbs:["get" "list"]}');
  });
});

describe('roleRef is immutable', () => {
  it('changing roleRef fails validation with kube\'s message', () => {
    const err = validateRoleRefUnchanged(
      'RoleBinding',
      'b',
      { apiGroup: G, kind: 'ClusterRole', name: 'edit' },
      { apiGroup: G, kind: 'ClusterRole', name: 'view' },
    );
    expect(err?.status.code).toBe(422);
    expect(err?.status.message).toBe(
      'RoleBinding.rbac.authorization.k8s.io "b" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
    );
    expect(err?.status.details?.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef', field: 'roleRef' },
    ]);
    expect(validateRoleRefUnchanged('ClusterRoleBinding', 'b', { apiGroup: G, kind: 'ClusterRole', name: 'view' }, { apiGroup: G, kind: 'ClusterRole', name: 'view' })).toBeUndefined();
  });
});
