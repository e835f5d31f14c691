// Authenticators and authorizers that ask someone else, wired from flags and
// files (spec 001 "OpenID Connect", "Token-authentication webhook contract",
// "Authorization webhook contract"). The outside services are stood in for by
// a fetch stub: the built-in test issuer's discovery document and keys, and
// webhooks answering reviews.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestIssuer, type TestIssuer } from '../../auth';
import { manualClock } from '../../clock';
import type { TestServer } from '../../../test-support/api-harness';
import { bearer, secureCluster, USERS } from './test-cluster';

const ISSUER = 'https://issuer.kubetab.test';
const WHOAMI = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const whoamiBody = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };

type Handler = (url: string, body: unknown) => unknown;

/** Replaces fetch with handlers by URL; records what was sent. */
function stubFetch(routes: Record<string, Handler>): { sent: { url: string; body: unknown }[] } {
  const sent: { url: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    sent.push({ url, body });
    const route = routes[url];
    if (!route) return new Response('not found', { status: 404 });
    return new Response(JSON.stringify(route(url, body)), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  return { sent };
}

function kubeconfigFor(server: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: remote, cluster: {server: "${server}"}}]`,
    'users: [{name: apiserver, user: {token: "apiserver-secret"}}]',
    'contexts: [{name: remote, context: {cluster: remote, user: apiserver}}]',
    'current-context: remote',
  ].join('\n');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('OpenID Connect', () => {
  const clock = manualClock();
  let issuer: TestIssuer;
  beforeAll(async () => {
    issuer = await createTestIssuer(ISSUER, clock);
  });
  const discovery = () =>
    stubFetch({
      [`${ISSUER}/.well-known/openid-configuration`]: () => issuer.discoveryDocument(),
      [`${ISSUER}/keys`]: () => issuer.jwks(),
    });

  it('--oidc-* flags: keys found through discovery, username and groups claims with prefixes (rule: OIDC flags)', async () => {
    discovery();
    const ts = await secureCluster(
      { 'oidc-issuer-url': ISSUER, 'oidc-client-id': 'kubetab', 'oidc-username-claim': 'email', 'oidc-groups-claim': 'groups', 'oidc-groups-prefix': 'oidc:' },
      { clock },
    );
    try {
      const token = await issuer.mint({ sub: '42', email: 'jane@example.com', email_verified: true, aud: 'kubetab', groups: ['dev'] });
      const who = await ts.post(WHOAMI, whoamiBody, bearer(token));
      expect(who.status).toBe(201);
      expect(who.body.status.userInfo).toEqual({ username: 'jane@example.com', groups: ['oidc:dev', 'system:authenticated'] });
      const otherAudience = await issuer.mint({ sub: '42', email: 'jane@example.com', aud: 'someone-else' });
      expect((await ts.get('/api', bearer(otherAudience))).status).toBe(401);
      const expiring = await issuer.mint({ sub: '42', email: 'jane@example.com', aud: 'kubetab' }, { expiresInSeconds: 60 });
      clock.advance(61_000);
      expect((await ts.get('/api', bearer(expiring))).status).toBe(401);
    } finally {
      await ts.close();
    }
  });

  it('AuthenticationConfiguration: CEL mappings and a user validation rule refusing system: names (rule: 401 on failed validation)', async () => {
    discovery();
    const config = [
      'apiVersion: apiserver.config.k8s.io/v1beta1',
      'kind: AuthenticationConfiguration',
      'jwt:',
      `- issuer: {url: "${ISSUER}", audiences: [kubetab]}`,
      '  claimMappings:',
      '    username: {expression: "\'oidc:\' + claims.sub"}',
      '    extra:',
      '    - {key: "example.com/team", valueExpression: "claims.team"}',
      '  userValidationRules:',
      '  - {expression: "!user.username.startsWith(\'oidc:system\')", message: "no system users"}',
    ].join('\n');
    const ts = await secureCluster({ 'authentication-config': '/etc/kubetab/authn.yaml' }, { clock, files: { '/etc/kubetab/authn.yaml': config } });
    try {
      const ok = await ts.post(WHOAMI, whoamiBody, bearer(await issuer.mint({ sub: 'jane', aud: 'kubetab', team: 'blue' })));
      expect(ok.body.status.userInfo).toEqual({ username: 'oidc:jane', groups: ['system:authenticated'], extra: { 'example.com/team': ['blue'] } });
      expect((await ts.get('/api', bearer(await issuer.mint({ sub: 'system-root', aud: 'kubetab' })))).status).toBe(401);
    } finally {
      await ts.close();
    }
  });

  it('an AuthenticationConfiguration issuer equal to the service-account issuer is a start-up error', async () => {
    const config = [
      'apiVersion: apiserver.config.k8s.io/v1beta1',
      'kind: AuthenticationConfiguration',
      'jwt:',
      '- issuer: {url: "https://kubernetes.default.svc.cluster.local", audiences: [kubetab]}',
      '  claimMappings: {username: {claim: sub, prefix: ""}}',
    ].join('\n');
    await expect(secureCluster({ 'authentication-config': '/a.yaml' }, { files: { '/a.yaml': config } })).rejects.toThrow(
      'jwt[0].issuer.url: Invalid value: "https://kubernetes.default.svc.cluster.local": URL must not overlap with disallowed issuers: [https://kubernetes.default.svc.cluster.local]',
    );
  });
});

describe('token webhook', () => {
  it('asks the webhook with a TokenReview and caches its answer (rule: token webhook contract)', async () => {
    const { sent } = stubFetch({
      'https://authn.example.com/review': (_url, body) => {
        const token = (body as { spec: { token: string } }).spec.token;
        return token === 'hook-token'
          ? { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'TokenReview', status: { authenticated: true, user: { username: 'hooked', groups: ['remote'] } } }
          : { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'TokenReview', status: { authenticated: false, error: 'unknown token' } };
      },
    });
    const ts = await secureCluster({ 'authentication-token-webhook-config-file': '/etc/kubetab/webhook.kubeconfig' }, { files: { '/etc/kubetab/webhook.kubeconfig': kubeconfigFor('https://authn.example.com/review') } });
    try {
      const who = await ts.post(WHOAMI, whoamiBody, bearer('hook-token'));
      expect(who.body.status.userInfo).toEqual({ username: 'hooked', groups: ['remote', 'system:authenticated'] });
      expect(sent[0]?.body).toMatchObject({ apiVersion: 'authentication.k8s.io/v1beta1', kind: 'TokenReview', spec: { token: 'hook-token' } });
      await ts.post(WHOAMI, whoamiBody, bearer('hook-token'));
      expect(sent.filter((s) => s.url === 'https://authn.example.com/review')).toHaveLength(1);
      expect((await ts.get('/api', bearer('other-token'))).status).toBe(401);
      // Static tokens are tried first: no webhook call for them.
      expect((await ts.get('/api', bearer(USERS.alice))).status).toBe(200);
      expect(sent.filter((s) => s.url === 'https://authn.example.com/review')).toHaveLength(2);
    } finally {
      await ts.close();
    }
  });
});

describe('authorization webhook', () => {
  let ts: TestServer;
  const sent: { url: string; body: unknown }[] = [];
  const stub = () => {
    const s = stubFetch({
      'https://authz.example.com/authorize': (_url, body) => {
        const spec = (body as { spec: { user?: string; resourceAttributes?: { resource?: string } } }).spec;
        const allowed = spec.user === 'alice' && spec.resourceAttributes?.resource === 'pods';
        return { apiVersion: 'authorization.k8s.io/v1beta1', kind: 'SubjectAccessReview', status: { allowed, ...(allowed ? {} : { reason: 'the webhook has no opinion' }) } };
      },
    });
    // One record of everything sent, whichever stub was in place.
    const push = s.sent.push.bind(s.sent);
    s.sent.push = (...items) => (sent.push(...items), push(...items));
  };
  beforeEach(stub);
  beforeAll(async () => {
    stub();
    ts = await secureCluster(
      { 'authorization-mode': 'Webhook,RBAC', 'authorization-webhook-config-file': '/etc/kubetab/authz.kubeconfig' },
      { files: { '/etc/kubetab/authz.kubeconfig': kubeconfigFor('https://authz.example.com/authorize') } },
    );
  });
  afterAll(async () => {
    await ts.close();
  });

  it('allows what the webhook allows; its no-opinion reason ends up in the 403 (rule: webhook answers)', async () => {
    expect((await ts.get('/api/v1/namespaces/default/pods', bearer(USERS.alice))).status).toBe(200);
    const denied = await ts.get('/api/v1/namespaces/default/secrets', bearer(USERS.alice));
    expect(denied.body.message).toBe(
      'secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default": the webhook has no opinion',
    );
  });

  it('sends a v1beta1 SubjectAccessReview (the flags\' default version) with the parsed selectors (rule: AuthorizeWithSelectors)', async () => {
    await ts.get('/api/v1/namespaces/default/pods?labelSelector=app%3Dweb&fieldSelector=spec.nodeName%3Dn1', bearer(USERS.carol));
    const review = sent.filter((s) => s.url === 'https://authz.example.com/authorize').map((s) => s.body as { apiVersion: string; spec: Record<string, any> }).find((b) => b.spec.user === 'carol'); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(review?.apiVersion).toBe('authorization.k8s.io/v1beta1');
    expect(review?.spec).toMatchObject({
      user: 'carol',
      group: ['system:authenticated'],
      resourceAttributes: {
        namespace: 'default',
        verb: 'list',
        version: 'v1',
        resource: 'pods',
        fieldSelector: { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }] },
        labelSelector: { requirements: [{ key: 'app', operator: 'In', values: ['web'] }] },
      },
    });
  });
});
