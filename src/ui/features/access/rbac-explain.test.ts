// The access view's RBAC explanation (rbac.RuleAllows, the order RBAC visits
// bindings in, subjects of each kind), who-can, and the 403 text
// kube-apiserver writes. The server's own answer comes from a
// SubjectAccessReview; these explain it and must agree with kube's rules.

import { describe, expect, it } from 'vitest';
import { explainRbac, explainRule, forbiddenMessage, whoCan, type RequestAttributes } from './rbac-explain';
import type { RbacObjects } from './rbac-types';

const pods = (verb: string, namespace = 'dev', name = '', subresource = ''): Omit<RequestAttributes, 'user' | 'groups'> => ({
  verb,
  resource: { group: '', resource: 'pods', subresource, namespace, name },
});
const as = (user: string, groups: string[], a: Omit<RequestAttributes, 'user' | 'groups'>): RequestAttributes => ({ user, groups, ...a });

const objects: RbacObjects = {
  clusterRoles: [
    { metadata: { name: 'view' }, rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'configmaps'] }] },
    { metadata: { name: 'logs' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['*/log'] }] },
    { metadata: { name: 'healthz' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez/*'] }] },
  ],
  clusterRoleBindings: [
    { metadata: { name: 'health' }, roleRef: { kind: 'ClusterRole', name: 'healthz' }, subjects: [{ kind: 'Group', name: 'system:authenticated' }] },
    { metadata: { name: 'qa-logs' }, roleRef: { kind: 'ClusterRole', name: 'logs' }, subjects: [{ kind: 'Group', name: 'qa' }] },
  ],
  roles: [{ metadata: { name: 'one-pod', namespace: 'dev' }, rules: [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'], resourceNames: ['web'] }] }],
  roleBindings: [
    { metadata: { name: 'jane-view', namespace: 'dev' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'jane' }] },
    { metadata: { name: 'bot-one-pod', namespace: 'dev' }, roleRef: { kind: 'Role', name: 'one-pod' }, subjects: [{ kind: 'ServiceAccount', name: 'bot' }] },
    { metadata: { name: 'ghost', namespace: 'dev' }, roleRef: { kind: 'Role', name: 'missing' }, subjects: [{ kind: 'User', name: 'jane' }] },
    { metadata: { name: 'jane-prod', namespace: 'prod' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'jane' }] },
  ],
};

describe('rules (rule: verbs/apiGroups exact or *, resources incl. */subresource, resourceNames, nonResourceURLs with trailing *)', () => {
  it('says which part of a rule fails', () => {
    const rule = { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] };
    expect(explainRule(rule, as('u', [], pods('list')))).toEqual({ matched: false, why: 'verb "list" is not in verbs [get]' });
    expect(explainRule(rule, as('u', [], pods('get')))).toEqual({ matched: false, why: 'API group "" is not in apiGroups [apps]' });
    expect(explainRule({ ...rule, apiGroups: [''] }, as('u', [], pods('get')))).toEqual({ matched: false, why: 'resource "pods" is not in resources [deployments]' });
  });

  it('matches any resource\'s subresource with */sub, and not the resource itself', () => {
    const rule = { verbs: ['get'], apiGroups: [''], resources: ['*/log'] };
    expect(explainRule(rule, as('u', [], pods('get', 'dev', 'web', 'log'))).matched).toBe(true);
    expect(explainRule(rule, as('u', [], pods('get', 'dev', 'web'))).matched).toBe(false);
  });

  it('resourceNames never match a request without a name (list of the collection)', () => {
    const rule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['web'] };
    expect(explainRule(rule, as('u', [], pods('get', 'dev', 'web'))).matched).toBe(true);
    expect(explainRule(rule, as('u', [], pods('get', 'dev', 'db')))).toEqual({ matched: false, why: 'name "db" is not in resourceNames [web]' });
    expect(explainRule(rule, as('u', [], pods('list'))).matched).toBe(false);
  });

  it('nonResourceURLs: exact or prefix*, and never for resources', () => {
    const rule = { verbs: ['get'], nonResourceURLs: ['/livez/*'] };
    expect(explainRule(rule, { user: 'u', groups: [], verb: 'get', path: '/livez/ping' }).matched).toBe(true);
    expect(explainRule(rule, { user: 'u', groups: [], verb: 'get', path: '/readyz' }).matched).toBe(false);
    expect(explainRule(rule, as('u', [], pods('get'))).matched).toBe(false);
  });
});

describe('bindings (rule: ClusterRoleBindings first, then RoleBindings of the namespace; the first allowing rule decides)', () => {
  it('lists every binding that names the user, with its role and rules, and kube\'s reason', () => {
    const result = explainRbac(as('jane', ['system:authenticated'], pods('list')), objects);
    expect(result.bindings.map((b) => `${b.kind} ${b.name} ${b.allows}`)).toEqual(['ClusterRoleBinding health false', 'RoleBinding jane-view true', 'RoleBinding ghost false']);
    expect(result.allowed).toBe(true);
    expect(result.reason).toBe('RBAC: allowed by RoleBinding "jane-view/dev" of ClusterRole "view" to User "jane"');
    const ghost = result.bindings[2]!;
    expect(ghost.role.found).toBe(false);
    expect(result.bindings.some((b) => b.name === 'jane-prod')).toBe(false);
  });

  it('service accounts are system:serviceaccount:<ns>:<name>, the binding\'s namespace by default', () => {
    const result = explainRbac(as('system:serviceaccount:dev:bot', ['system:serviceaccounts'], pods('delete', 'dev', 'web')), objects);
    expect(result.allowed).toBe(true);
    expect(result.reason).toBe('RBAC: allowed by RoleBinding "bot-one-pod/dev" of Role "one-pod" to ServiceAccount "bot/dev"');
  });

  it('denies with no binding allowing, showing why each rule did not match', () => {
    const result = explainRbac(as('jane', [], pods('delete', 'dev', 'web')), objects);
    expect(result.allowed).toBe(false);
    expect(result.reason).toBe('');
    expect(result.bindings[0]!.role.rules[0]!.why).toBe('verb "delete" is not in verbs [get list watch]');
  });
});

describe('who can', () => {
  it('names every subject whose binding grants the verb on the resource in that namespace', () => {
    const entries = whoCan(pods('get', 'dev', 'web'), objects);
    expect(entries.map((e) => `${e.subject.kind}:${e.subject.namespace ? `${e.subject.namespace}/` : ''}${e.subject.name} via ${e.via.name}`)).toEqual([
      'User:jane via jane-view',
      'ServiceAccount:dev/bot via bot-one-pod',
    ]);
    expect(whoCan(pods('get', 'dev', 'web', 'log'), objects).map((e) => e.subject.name)).toEqual(['qa']);
  });
});

describe('403 text (rule: responsewriters.Forbidden)', () => {
  it('writes kube-apiserver\'s messages', () => {
    expect(forbiddenMessage(as('jane', [], pods('list', 'default')), '')).toBe('pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"');
    expect(forbiddenMessage({ user: 'bob', groups: [], verb: 'get', resource: { group: 'apps', resource: 'deployments', subresource: 'scale', namespace: '', name: 'web' } }, 'no')).toBe(
      'deployments.apps "web" is forbidden: User "bob" cannot get resource "deployments/scale" in API group "apps" at the cluster scope: no',
    );
    expect(forbiddenMessage({ user: 'system:anonymous', groups: [], verb: 'get', path: '/api' }, '')).toBe('forbidden: User "system:anonymous" cannot get path "/api"');
  });
});
