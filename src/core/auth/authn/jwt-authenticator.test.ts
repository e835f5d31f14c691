// OpenID Connect / JWT authenticators (spec 001 "OpenID Connect",
// AuthenticationConfiguration jwt[]): issuer, audience, expiry, alg, claim
// validation rules, CEL claim mappings, user validation rules.
import { describe, expect, it } from 'vitest';
import { SignJWT, UnsecuredJWT, generateKeyPair } from 'jose';
import { createJwtAuthenticator, jwtAuthenticatorFromOidcFlags } from './jwt-authenticator';
import { createTestIssuer } from './test-issuer';
import { manualClock } from '../../clock';
import type { JWTAuthenticator } from '../types';

const ISSUER = 'https://issuer.kubetab.test';

async function setup(config: Partial<JWTAuthenticator> = {}) {
  const clock = manualClock(Date.UTC(2024, 5, 1));
  const issuer = await createTestIssuer(ISSUER, clock);
  const cfg: JWTAuthenticator = {
    issuer: { url: ISSUER, audiences: ['kubetab'] },
    claimMappings: { username: { claim: 'sub', prefix: 'oidc:' }, groups: { claim: 'groups', prefix: 'oidc:' } },
    ...config,
  };
  return { clock, issuer, authn: createJwtAuthenticator({ config: cfg, keys: issuer.keySet, clock }) };
}

describe('JWT authenticator', () => {
  it('maps claims with prefixes', async () => {
    const { issuer, authn } = await setup();
    const token = await issuer.mint({ sub: 'alice', aud: 'kubetab', groups: ['dev', 'ops'] });
    expect(await authn.authenticateToken(token)).toMatchObject({ status: 'ok', user: { username: 'oidc:alice', groups: ['oidc:dev', 'oidc:ops'] } });
  });

  it('refuses expired, wrong audience, other issuer keys, alg none and HMAC', async () => {
    const { issuer, authn, clock } = await setup();
    const token = await issuer.mint({ sub: 'alice', aud: 'kubetab' }, { expiresInSeconds: 60 });
    clock.advance(61_000);
    expect(await authn.authenticateToken(token)).toMatchObject({ status: 'error', error: 'oidc: verify token: oidc: token is expired' });
    const wrongAud = await issuer.mint({ sub: 'alice', aud: 'someone-else' });
    expect((await authn.authenticateToken(wrongAud)).error).toBe('oidc: verify token: oidc: expected audience in ["kubetab"] got ["someone-else"]');
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ iss: ISSUER, sub: 'alice', aud: 'kubetab', exp: Math.floor(clock.now() / 1000) + 600 }).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
    expect((await authn.authenticateToken(forged)).error).toBe('oidc: verify token: failed to verify signature');
    const none = new UnsecuredJWT({ sub: 'alice', aud: 'kubetab' }).setIssuer(ISSUER).setExpirationTime(Math.floor(clock.now() / 1000) + 600).encode();
    expect((await authn.authenticateToken(none)).error).toMatch(/^oidc: id token signed with unsupported algorithm/);
    const hs = await new SignJWT({ iss: ISSUER, sub: 'a', aud: 'kubetab', exp: Math.floor(clock.now() / 1000) + 600 }).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32));
    expect((await authn.authenticateToken(hs)).status).toBe('error');
    expect(await authn.authenticateToken(await (await createTestIssuer('https://other', clock)).mint({ sub: 'x', aud: 'kubetab' }))).toEqual({ status: 'none' });
  });

  it('claim validation rules: required claims and CEL', async () => {
    const { issuer, authn } = await setup({
      claimValidationRules: [{ claim: 'hd', requiredValue: 'example.com' }, { expression: "claims.sub != 'mallory'", message: 'mallory is banned' }],
    });
    expect((await authn.authenticateToken(await issuer.mint({ sub: 'alice', aud: 'kubetab' }))).error).toBe('oidc: required claim hd not present in ID token');
    expect((await authn.authenticateToken(await issuer.mint({ sub: 'alice', aud: 'kubetab', hd: 'evil.com' }))).error).toBe(
      'oidc: required claim hd value does not match. Got = evil.com, want = example.com',
    );
    expect((await authn.authenticateToken(await issuer.mint({ sub: 'mallory', aud: 'kubetab', hd: 'example.com' }))).error).toBe(
      'oidc: error evaluating claim validation expression: mallory is banned',
    );
    expect((await authn.authenticateToken(await issuer.mint({ sub: 'alice', aud: 'kubetab', hd: 'example.com' }))).status).toBe('ok');
  });

  it('CEL claim mappings for username, groups, uid and extra; user validation rules', async () => {
    const { issuer, authn } = await setup({
      claimMappings: {
        username: { expression: "claims.email_verified ? claims.email : ''" },
        groups: { expression: "claims.roles.map(r, 'role:' + r)" },
        uid: { expression: 'claims.sub' },
        extra: [{ key: 'example.com/tenant', valueExpression: 'claims.tenant' }],
      },
      userValidationRules: [{ expression: "!user.username.startsWith('system:')", message: 'username cannot use reserved system: prefix' }],
    });
    const ok = await issuer.mint({ sub: 's1', aud: 'kubetab', email: 'a@example.com', email_verified: true, roles: ['admin'], tenant: 't1' });
    expect(await authn.authenticateToken(ok)).toMatchObject({
      status: 'ok',
      user: { username: 'a@example.com', groups: ['role:admin'], uid: 's1', extra: { 'example.com/tenant': ['t1'] } },
    });
    const unverified = await issuer.mint({ sub: 's1', aud: 'kubetab', email: 'a@example.com', email_verified: false, roles: [], tenant: '' });
    expect((await authn.authenticateToken(unverified)).error).toBe('oidc: empty username via CEL expression is not allowed');
    const reserved = await issuer.mint({ sub: 's1', aud: 'kubetab', email: 'system:admin', email_verified: true, roles: [], tenant: '' });
    expect((await authn.authenticateToken(reserved)).error).toBe('oidc: error evaluating user info validation rule: username cannot use reserved system: prefix');
  });

  it('converts the --oidc-* flags as kube does', () => {
    expect(jwtAuthenticatorFromOidcFlags({ 'oidc-issuer-url': ISSUER, 'oidc-client-id': 'k' }).claimMappings.username).toEqual({ claim: 'sub', prefix: `${ISSUER}#` });
    expect(jwtAuthenticatorFromOidcFlags({ 'oidc-issuer-url': ISSUER, 'oidc-client-id': 'k', 'oidc-username-claim': 'email' }).claimMappings.username).toEqual({ claim: 'email', prefix: '' });
    expect(jwtAuthenticatorFromOidcFlags({ 'oidc-issuer-url': ISSUER, 'oidc-client-id': 'k', 'oidc-username-prefix': '-' }).claimMappings.username.prefix).toBe('');
    expect(jwtAuthenticatorFromOidcFlags({ 'oidc-issuer-url': ISSUER, 'oidc-client-id': 'k', 'oidc-required-claim': ['hd=example.com'] }).claimValidationRules).toEqual([
      { claim: 'hd', requiredValue: 'example.com' },
    ]);
  });

  it('the test issuer publishes discovery and keys', async () => {
    const { issuer } = await setup();
    expect(issuer.discoveryDocument()).toMatchObject({ issuer: ISSUER, jwks_uri: `${ISSUER}/keys`, id_token_signing_alg_values_supported: ['RS256'] });
    expect(issuer.jwks().keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
  });
});
