// The built-in OIDC test issuer over HTTP: served under /kubetab/v1/oidc,
// minting ID tokens for the administrator, and trusted by a JWT authenticator
// of the AuthenticationConfiguration (spec 001 "JWT authenticators": iss must
// equal issuer.url, claim mappings with prefixes, expiry).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactVerify } from 'jose';
import { manualClock } from '../../clock';
import { createMemoryPersistence } from '../../storage/memory-persistence';
import { openStore } from '../../storage/mvcc-store';
import type { TestServer } from '../../../test-support/api-harness';
import { ANONYMOUS, bearer, secureCluster, USERS } from './test-cluster';
import { loadTestIssuer, TEST_ISSUER_URL } from './test-issuer-endpoint';

const AUTHN_CONFIG = `apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: ${TEST_ISSUER_URL}
    audiences: [kubetab]
  claimMappings:
    username: {claim: sub, prefix: "oidc:"}
    groups: {claim: groups, prefix: "oidc:"}
`;

const WHOAMI = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

describe('the built-in OIDC test issuer', () => {
  let ts: TestServer;
  const clock = manualClock();
  beforeAll(async () => {
    ts = await secureCluster({ 'authentication-config': '/etc/kubetab/authn.yaml' }, { clock, files: { '/etc/kubetab/authn.yaml': AUTHN_CONFIG } });
  });
  afterAll(() => ts.close());

  async function mint(claims: Record<string, unknown>, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    return ts.post('/kubetab/v1/oidc/token', { claims, ...extra }, headers);
  }

  it('serves its discovery document and keys with the issuer URL tokens carry', async () => {
    const discovery = await ts.get('/kubetab/v1/oidc/.well-known/openid-configuration');
    expect(discovery.status).toBe(200);
    expect(discovery.body.issuer).toBe(TEST_ISSUER_URL);
    expect(discovery.body.jwks_uri).toBe(`${TEST_ISSUER_URL}/keys`);
    const keys = await ts.get('/kubetab/v1/oidc/keys');
    expect(keys.body.keys).toHaveLength(1);
    expect(keys.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(keys.body.keys[0].d).toBeUndefined();
  });

  it('mints a token that the configured JWT authenticator accepts, with the claim mappings applied', async () => {
    const res = await mint({ sub: 'jane', aud: 'kubetab', groups: ['devs'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const who = await ts.post(WHOAMI, { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, bearer(res.body.id_token));
    expect(who.status, who.text).toBe(201);
    expect(who.body.status.userInfo).toMatchObject({ username: 'oidc:jane', groups: ['oidc:devs', 'system:authenticated'] });
  });

  it('a minted token expires with the clock (401 after exp)', async () => {
    const res = await mint({ sub: 'short', aud: 'kubetab' }, { expiresInSeconds: 60 });
    const token = res.body.id_token as string;
    expect((await ts.post(WHOAMI, { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, bearer(token))).status).toBe(201);
    clock.advance(61_000);
    const after = await ts.post(WHOAMI, { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, bearer(token));
    expect(after.status).toBe(401);
  });

  it('a token for another audience is refused (401)', async () => {
    const res = await mint({ sub: 'jane', aud: 'someone-else' });
    expect((await ts.get('/api', bearer(res.body.id_token))).status).toBe(401);
  });

  it('minting is a non-resource path RBAC guards: anonymous and ordinary users are forbidden', async () => {
    const anonymous = await mint({ sub: 'x', aud: 'kubetab' }, {}, ANONYMOUS);
    expect(anonymous.status).toBe(403);
    expect(anonymous.body.message).toBe('forbidden: User "system:anonymous" cannot post path "/kubetab/v1/oidc/token"');
    expect((await mint({ sub: 'x', aud: 'kubetab' }, {}, bearer(USERS.alice))).status).toBe(403);
  });

  it('refuses bad bodies with 400 and other methods with 405', async () => {
    expect((await ts.post('/kubetab/v1/oidc/token', { claims: [] })).status).toBe(400);
    expect((await mint({ sub: 'x' }, { expiresInSeconds: 0 })).status).toBe(400);
    expect((await ts.get('/kubetab/v1/oidc/token')).status).toBe(405);
    expect((await ts.get('/kubetab/v1/oidc/nothing')).status).toBe(404);
  });

});

describe('the test issuer key', () => {
  it('is generated once per store and read back by the next server (tokens minted before a restart stay valid)', async () => {
    const clock = manualClock();
    const store = await openStore({ persistence: createMemoryPersistence(), clock });
    const first = await loadTestIssuer(store, clock);
    const token = await first.mint({ sub: 'kept', aud: 'kubetab' });
    const second = await loadTestIssuer(store, clock);
    expect(second.jwks().keys[0]!.kid).toBe(first.jwks().keys[0]!.kid);
    const { payload } = await compactVerify(token, second.keySet);
    expect(JSON.parse(new TextDecoder().decode(payload)).sub).toBe('kept');
    const other = await loadTestIssuer(await openStore({ persistence: createMemoryPersistence(), clock }), clock);
    expect(other.jwks().keys[0]!.kid).not.toBe(first.jwks().keys[0]!.kid);
  });
});
