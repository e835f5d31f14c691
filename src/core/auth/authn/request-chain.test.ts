// Authentication chain (spec 001 "Identity model" 3, "Anonymous requests"
// 1-4, system:authenticated) and impersonation ("Impersonation").
import { describe, expect, it } from 'vitest';
import { authnRequestFromHeaders, bearerToken, createRequestAuthenticatorChain, unauthorizedError } from './request-authenticator';
import { createStaticTokenAuthenticator, parseTokenFile } from './token-file';
import { impersonate } from './impersonation';
import { createAuthorizerChain } from '../authorizer/union';
import { createRbacAuthorizer } from '../authorizer/rbac';
import { createPrivilegedGroupsAuthorizer } from '../authorizer/simple';
import { createMemoryRbacSource } from '../rbac-memory-source';
import type { UserInfo } from '../types';

const tokens = createStaticTokenAuthenticator(parseTokenFile('good-token,alice,u1,"dev"\nroot-token,root,u0,system:masters').entries);
const req = (headers: Record<string, string>, path = '/api/v1/pods') => authnRequestFromHeaders(new Headers(headers), path);

describe('request authentication', () => {
  const chain = createRequestAuthenticatorChain({ tokenAuthenticators: [tokens], anonymous: { enabled: true } });

  it('a valid bearer token authenticates and gains system:authenticated', async () => {
    const r = await chain.authenticate(req({ Authorization: 'Bearer good-token' }));
    expect(r).toMatchObject({ status: 'ok', authenticator: 'token-file', user: { username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'] } });
  });

  it('an invalid bearer token is refused (401), never anonymous', async () => {
    const r = await chain.authenticate(req({ Authorization: 'Bearer wrong' }));
    expect(r).toMatchObject({ status: 'error', error: 'invalid bearer token' });
    expect(JSON.stringify(r)).not.toContain('wrong');
    expect(unauthorizedError().status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });

  it('no credentials is anonymous when enabled, refused when not', async () => {
    expect(await chain.authenticate(req({}))).toMatchObject({
      status: 'ok',
      authenticator: 'anonymous',
      user: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
    });
    const closed = createRequestAuthenticatorChain({ tokenAuthenticators: [tokens], anonymous: { enabled: false } });
    expect((await closed.authenticate(req({}))).status).toBe('none');
  });

  it('anonymous limited to configured paths (AuthenticationConfiguration anonymous.conditions)', async () => {
    const limited = createRequestAuthenticatorChain({ tokenAuthenticators: [tokens], anonymous: { enabled: true, paths: ['/livez', '/readyz', '/healthz'] } });
    expect((await limited.authenticate(req({}, '/livez'))).status).toBe('ok');
    expect((await limited.authenticate(req({}, '/api/v1/namespaces'))).status).toBe('none');
  });

  it('reads the bearer token as kube does', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc extra')).toBe('abc');
    expect(bearerToken('  Bearer abc  ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken(null)).toBeUndefined();
  });
});

describe('impersonation', () => {
  const G = 'rbac.authorization.k8s.io';
  const source = createMemoryRbacSource({
    clusterRoles: [
      { metadata: { name: 'impersonator' }, rules: [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users', 'groups'] }] },
      { metadata: { name: 'sa-impersonator' }, rules: [{ verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'] }] },
    ],
    clusterRoleBindings: [{ metadata: { name: 'b' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'impersonator' }, subjects: [{ kind: 'User', name: 'alice', apiGroup: G }] }],
    roleBindings: [
      { metadata: { name: 'b', namespace: 'ci' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'sa-impersonator' }, subjects: [{ kind: 'User', name: 'alice', apiGroup: G }] },
    ],
  });
  const authz = createAuthorizerChain([createPrivilegedGroupsAuthorizer(), createRbacAuthorizer(source)]);
  const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };
  const bob: UserInfo = { username: 'bob', groups: ['system:authenticated'] };
  const run = (who: UserInfo, headers: Record<string, string>) => impersonate(req(headers), who, (a) => authz.authorize(a));

  it('no headers: the request continues as the caller', async () => {
    expect(await run(alice, {})).toMatchObject({ impersonated: false, user: alice });
  });

  it('impersonates a user with groups, adding system:authenticated', async () => {
    const r = await run(alice, { 'Impersonate-User': 'jane', 'Impersonate-Group': 'devs' });
    expect(r.user).toEqual({ username: 'jane', groups: ['devs', 'system:authenticated'] });
    expect(r.checks.map((c) => c.attributes.resource)).toEqual(['users', 'groups']);
  });

  it('a service account gets its groups unless groups are given', async () => {
    const r = await run(alice, { 'Impersonate-User': 'system:serviceaccount:ci:deployer' });
    expect(r.user).toEqual({ username: 'system:serviceaccount:ci:deployer', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'] });
  });

  it('system:anonymous gets system:unauthenticated', async () => {
    expect((await run(alice, { 'Impersonate-User': 'system:anonymous' })).user).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
  });

  it('without permission: 403 with kube\'s text for each kind', async () => {
    const users = await run(bob, { 'Impersonate-User': 'jane' });
    expect(users.error?.status.message).toBe('users "jane" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope');
    const sa = await run(bob, { 'Impersonate-User': 'system:serviceaccount:ci:deployer' });
    expect(sa.error?.status.message).toBe(
      'serviceaccounts "deployer" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ci"',
    );
    const extra = await run(alice, { 'Impersonate-User': 'jane', 'Impersonate-Extra-Scopes': 'view' });
    expect(extra.error?.status.message).toBe(
      'userextras.authentication.k8s.io "view" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
    );
    const uid = await run(alice, { 'Impersonate-User': 'jane', 'Impersonate-Uid': '1234' });
    expect(uid.error?.status.message).toBe('uids.authentication.k8s.io "1234" is forbidden: User "alice" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope');
    expect(uid.error?.status.code).toBe(403);
  });

  it('groups, extra or uid without a user is an internal error with kube\'s text', async () => {
    const r = await run(alice, { 'Impersonate-Group': 'system:masters' });
    expect(r.error?.status.code).toBe(500);
    expect(r.error?.status.message).toBe('Internal error occurred: requested [{Group  system:masters    }] without impersonating a user');
  });
});
