// Service-account tokens (spec 001, "Methods": service-account token; issue:
// tampered, expired, wrong-audience, alg none, explicit algorithms, bound
// objects, legacy Secret tokens).
import { describe, expect, it } from 'vitest';
import { SignJWT, UnsecuredJWT, generateSecret } from 'jose';
import { createServiceAccountAuthenticator, issueLegacyServiceAccountToken, issueServiceAccountToken, type ServiceAccountAuthenticatorDeps } from './service-account';
import { generateSigningKey, keysFor, publicJwks } from './service-account-keys';
import { manualClock } from '../../clock';
import type { KubeObject } from '../../kinds/types';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';

async function setup(objects: Record<string, KubeObject> = {}) {
  const clock = manualClock(Date.UTC(2024, 5, 1));
  const keys = keysFor(await generateSigningKey('ES256'));
  const store: Record<string, KubeObject> = {
    'sa/ns/builder': { metadata: { name: 'builder', namespace: 'ns', uid: 'sa-uid' } },
    'pod/ns/p1': { metadata: { name: 'p1', namespace: 'ns', uid: 'pod-uid' } },
    ...objects,
  };
  const deps: ServiceAccountAuthenticatorDeps = {
    issuers: [ISSUER],
    apiAudiences: [ISSUER],
    keys,
    clock,
    getServiceAccount: (ns, n) => store[`sa/${ns}/${n}`],
    getSecret: (ns, n) => store[`secret/${ns}/${n}`],
    getPod: (ns, n) => store[`pod/${ns}/${n}`],
    getNode: (n) => store[`node/${n}`],
  };
  const authn = createServiceAccountAuthenticator(deps);
  const issue = (extra: Partial<Parameters<typeof issueServiceAccountToken>[0]> = {}) =>
    issueServiceAccountToken({
      issuer: ISSUER,
      keys,
      clock,
      namespace: 'ns',
      serviceAccount: { name: 'builder', uid: 'sa-uid' },
      audiences: [ISSUER],
      expirationSeconds: 3600,
      jti: 'jti-1',
      ...extra,
    });
  return { clock, keys, store, authn, issue };
}

describe('service-account tokens', () => {
  it('a TokenRequest token authenticates as the service account', async () => {
    const { authn, issue } = await setup();
    const { token, expirationTimestamp } = await issue({ boundObject: { kind: 'Pod', name: 'p1', uid: 'pod-uid' }, node: { name: 'n1', uid: 'node-uid' } });
    expect(expirationTimestamp).toBe(Date.UTC(2024, 5, 1) + 3600_000);
    const r = await authn.authenticateToken(token);
    expect(r).toMatchObject({
      status: 'ok',
      audiences: [ISSUER],
      user: {
        username: 'system:serviceaccount:ns:builder',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
        extra: {
          'authentication.kubernetes.io/pod-name': ['p1'],
          'authentication.kubernetes.io/pod-uid': ['pod-uid'],
          'authentication.kubernetes.io/node-name': ['n1'],
          'authentication.kubernetes.io/node-uid': ['node-uid'],
          'authentication.kubernetes.io/credential-id': ['JTI=jti-1'],
        },
      },
    });
  });

  it('refuses an expired token, with 60 s of leeway', async () => {
    const { authn, issue, clock } = await setup();
    const { token } = await issue({ expirationSeconds: 600 });
    clock.advance(600_000 + 59_000);
    expect((await authn.authenticateToken(token)).status).toBe('ok');
    clock.advance(2_000);
    expect(await authn.authenticateToken(token)).toMatchObject({ status: 'error', error: 'service account token has expired' });
  });

  it('refuses a tampered token', async () => {
    const { authn, issue } = await setup();
    const { token } = await issue();
    const [h, p, s] = token.split('.') as [string, string, string];
    const payload = JSON.parse(atob(p.replace(/-/g, '+').replace(/_/g, '/')));
    payload['kubernetes.io'].serviceaccount.name = 'admin';
    const forged = `${h}.${btoa(JSON.stringify(payload)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.${s}`;
    expect((await authn.authenticateToken(forged)).status).toBe('error');
    const badSig = `${h}.${p}.${s.slice(0, -4)}AAAA`;
    expect((await authn.authenticateToken(badSig)).status).toBe('error');
  });

  it('refuses alg none and algorithms our keys are not for (no HMAC with the public key)', async () => {
    const { authn, clock } = await setup();
    const claims = { 'kubernetes.io': { namespace: 'ns', serviceaccount: { name: 'builder', uid: 'sa-uid' } } };
    const now = Math.floor(clock.now() / 1000);
    const none = new UnsecuredJWT(claims).setIssuer(ISSUER).setAudience(ISSUER).setSubject('system:serviceaccount:ns:builder').setExpirationTime(now + 600).encode();
    expect(await authn.authenticateToken(none)).toMatchObject({ status: 'error', error: 'token algorithm "none" is not allowed' });
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setAudience(ISSUER)
      .setExpirationTime(now + 600)
      .sign(await generateSecret('HS256'));
    expect(await authn.authenticateToken(hs)).toMatchObject({ status: 'error', error: 'token algorithm "HS256" is not allowed' });
  });

  it('refuses a token signed by another key', async () => {
    const { authn, clock } = await setup();
    const other = await setup();
    void clock;
    const { token } = await other.issue();
    expect((await authn.authenticateToken(token)).status).toBe('error');
  });

  it('checks audiences against the requested ones (TokenReview spec.audiences)', async () => {
    const { authn, issue } = await setup();
    const { token } = await issue({ audiences: ['vault'] });
    expect(await authn.authenticateToken(token)).toMatchObject({
      status: 'error',
      error: 'token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]',
    });
    expect(await authn.authenticateToken(token, ['vault', 'other'])).toMatchObject({ status: 'ok', audiences: ['vault'] });
  });

  it('a token of another issuer is not ours', async () => {
    const { authn, keys, clock } = await setup();
    const { token } = await issueServiceAccountToken({
      issuer: 'https://elsewhere',
      keys,
      clock,
      namespace: 'ns',
      serviceAccount: { name: 'builder', uid: 'sa-uid' },
      audiences: [ISSUER],
      expirationSeconds: 3600,
    });
    expect(await authn.authenticateToken(token)).toEqual({ status: 'none' });
    expect(await authn.authenticateToken('not-a-jwt')).toEqual({ status: 'none' });
  });

  it('is revoked when the service account or the bound pod is gone or replaced', async () => {
    const env = await setup();
    const { token } = await env.issue({ boundObject: { kind: 'Pod', name: 'p1', uid: 'pod-uid' } });
    env.store['pod/ns/p1'] = { metadata: { name: 'p1', namespace: 'ns', uid: 'other-uid' } };
    expect(await env.authn.authenticateToken(token)).toMatchObject({ status: 'error', error: 'pod UID (other-uid) does not match service account pod ref claim (pod-uid)' });
    delete env.store['pod/ns/p1'];
    expect(await env.authn.authenticateToken(token)).toMatchObject({ status: 'error', error: 'service account token has been invalidated' });
    const { token: plain } = await env.issue();
    delete env.store['sa/ns/builder'];
    expect(await env.authn.authenticateToken(plain)).toMatchObject({ status: 'error', error: 'service account token has been invalidated' });
  });

  it('legacy Secret tokens must match the stored Secret', async () => {
    const env = await setup();
    const token = await issueLegacyServiceAccountToken({ keys: env.keys, namespace: 'ns', serviceAccount: { name: 'builder', uid: 'sa-uid' }, secretName: 'builder-token' });
    env.store['secret/ns/builder-token'] = { metadata: { name: 'builder-token', namespace: 'ns', uid: 's-uid' }, type: 'kubernetes.io/service-account-token', data: { token: btoa(token) } };
    expect(await env.authn.authenticateToken(token)).toMatchObject({ status: 'ok', user: { username: 'system:serviceaccount:ns:builder', uid: 'sa-uid' } });
    env.store['secret/ns/builder-token'] = { ...env.store['secret/ns/builder-token']!, data: { token: btoa('something-else') } };
    expect(await env.authn.authenticateToken(token)).toMatchObject({ status: 'error', error: "token does not match server's copy" });
    delete env.store['secret/ns/builder-token'];
    expect(await env.authn.authenticateToken(token)).toMatchObject({ status: 'error', error: 'token has been invalidated' });
  });

  it('publishes the verification keys as a JWKS with kube-style key ids', async () => {
    const { keys } = await setup();
    const jwks = await publicJwks(keys);
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ use: 'sig', kty: 'EC', alg: 'ES256', crv: 'P-256' });
    expect(jwks.keys[0]!.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });
});
