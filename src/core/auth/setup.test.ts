// The access-control pipeline end to end, as the API filters run it
// (authentication → impersonation → authorization → 401/403), on the default
// secure set-up (Node,RBAC with the 1.32 default policy).
import { describe, expect, it } from 'vitest';
import {
  aggregateClusterRoles,
  attributesFor,
  authnRequestFromHeaders,
  authorizationConfigurationFromFlags,
  bootstrapPolicy,
  buildAuthenticator,
  buildAuthorizers,
  createMemoryRbacSource,
  createStaticTokenAuthenticator,
  effectiveAnonymousAuth,
  forbiddenError,
  impersonate,
  parseTokenFile,
  requestInfoFor,
  unauthorizedError,
} from './index';
import { manualClock } from '../clock';
import type { StatusError } from '../errors/status';

const policy = bootstrapPolicy();
const source = createMemoryRbacSource({ ...policy, clusterRoles: aggregateClusterRoles(policy.clusterRoles) });
const { config } = authorizationConfigurationFromFlags({ 'authorization-mode': 'Node,RBAC' });
const { chain } = buildAuthorizers(config!, { clock: manualClock(), rbacSource: source });
const authn = buildAuthenticator({
  tokenFile: createStaticTokenAuthenticator(parseTokenFile('admin-token,admin,1,system:masters\nalice-token,alice,2').entries),
  anonymous: { enabled: effectiveAnonymousAuth(true, config!) },
});

/** What the filters answer: 200 or the Status error. */
async function serve(method: string, url: string, headers: Record<string, string> = {}): Promise<{ code: number; error?: StatusError; user?: string }> {
  const u = new URL(url, 'https://kubetab.local');
  const req = authnRequestFromHeaders(new Headers(headers), u.pathname);
  const who = await authn.authenticate(req);
  if (who.status !== 'ok' || !who.user) return { code: 401, error: unauthorizedError() };
  const imp = await impersonate(req, who.user, (a) => chain.authorize(a));
  if (imp.error) return { code: imp.error.code, error: imp.error };
  const attrs = attributesFor(imp.user!, requestInfoFor(method, u.pathname, u.search));
  const decision = await chain.authorize(attrs);
  if (decision.decision !== 'Allow') {
    const err = forbiddenError(attrs, decision.reason);
    return { code: 403, error: err };
  }
  return { code: 200, user: imp.user!.username };
}

describe('access-control pipeline (Node,RBAC, default policy)', () => {
  it('an administrator in system:masters may do anything', async () => {
    expect(await serve('DELETE', '/api/v1/nodes/n1', { Authorization: 'Bearer admin-token' })).toEqual({ code: 200, user: 'admin' });
  });

  it('alice gets 403 with kube\'s message (kubectl get pods --as alice)', async () => {
    const r = await serve('GET', '/api/v1/namespaces/default/pods?limit=500', { Authorization: 'Bearer admin-token', 'Impersonate-User': 'alice' });
    expect(r.code).toBe(403);
    expect(r.error?.status.message).toBe('pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"');
    expect((await serve('GET', '/api/v1/namespaces/default/pods', { Authorization: 'Bearer alice-token' })).error?.status.message).toBe(
      'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"',
    );
  });

  it('alice may discover and review herself', async () => {
    expect((await serve('GET', '/apis', { Authorization: 'Bearer alice-token' })).code).toBe(200);
    expect((await serve('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { Authorization: 'Bearer alice-token' })).code).toBe(200);
  });

  it('anonymous reaches only the public endpoints; a bad token is 401', async () => {
    expect((await serve('GET', '/healthz')).code).toBe(200);
    const api = await serve('GET', '/api');
    expect(api.error?.status.message).toBe('forbidden: User "system:anonymous" cannot get path "/api"');
    const bad = await serve('GET', '/healthz', { Authorization: 'Bearer nope' });
    expect(bad.code).toBe(401);
    expect(bad.error?.status.message).toBe('Unauthorized');
  });

  it('alice cannot impersonate', async () => {
    const r = await serve('GET', '/api', { Authorization: 'Bearer alice-token', 'Impersonate-User': 'admin' });
    expect(r.code).toBe(403);
    expect(r.error?.status.message).toBe('users "admin" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('AlwaysAllow turns anonymous off', () => {
    expect(effectiveAnonymousAuth(true, authorizationConfigurationFromFlags({ 'authorization-mode': 'AlwaysAllow' }).config!)).toBe(false);
  });
});
