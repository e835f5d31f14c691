// Authentication through HTTP (spec 001 "Authentication", "Anonymous
// requests", "Errors"): who a request is, and the 401 every refused or
// missing credential gets. Service-account tokens come from the TokenRequest
// subresource, as `kubectl create token` gets them.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../clock';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { ANONYMOUS, bearer, secureCluster, USERS } from './test-cluster';

const UNAUTHORIZED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };
const WHOAMI = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const whoamiBody = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };

async function whoami(ts: TestServer, headers: Record<string, string>) {
  const res = await ts.post(WHOAMI, whoamiBody, headers);
  return { status: res.status, userInfo: res.body?.status?.userInfo, body: res.body };
}

async function tokenFor(ts: TestServer, namespace: string, name: string, spec: Record<string, unknown> = {}): Promise<string> {
  const res = await ts.post(`/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec });
  expect(res.status, res.text).toBe(201);
  return res.body.status.token as string;
}

/** base64url of a JSON value, as a JWT segment. */
function segment(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('authentication on the secure set-up (Node,RBAC, token file)', () => {
  let ts: TestServer;
  const clock = manualClock();
  beforeAll(async () => {
    ts = await secureCluster({}, { clock });
    expect((await ts.post('/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } })).status).toBe(201);
  });
  afterAll(() => ts.close());

  it('a static token names its user, with system:authenticated added (rule: token file users)', async () => {
    expect(await whoami(ts, bearer(USERS.bob))).toMatchObject({
      status: 201,
      userInfo: { username: 'bob', uid: 'bob-uid', groups: ['developers', 'qa', 'system:authenticated'] },
    });
  });

  it('an unknown bearer token is 401 Unauthorized, never anonymous (rule: invalid bearer token)', async () => {
    const res = await ts.get('/healthz', bearer('no-such-token'));
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it('no credentials is system:anonymous in system:unauthenticated (rule: anonymous on unless AlwaysAllow)', async () => {
    expect(await whoami(ts, ANONYMOUS)).toMatchObject({ status: 403 });
    expect((await ts.get('/healthz', ANONYMOUS)).status).toBe(200);
    const api = await ts.get('/api', ANONYMOUS);
    expect(api.status).toBe(403);
    expect(api.body.message).toBe('forbidden: User "system:anonymous" cannot get path "/api"');
  });

  it('a TokenRequest token authenticates as the service account, with its groups and credential id', async () => {
    const token = await tokenFor(ts, 'default', 'robot');
    const who = await whoami(ts, bearer(token));
    expect(who.status).toBe(201);
    expect(who.userInfo.username).toBe('system:serviceaccount:default:robot');
    expect(who.userInfo.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
    expect(who.userInfo.extra['authentication.kubernetes.io/credential-id'][0]).toMatch(/^JTI=/);
  });

  it('a tampered token is 401 (rule: signature checked)', async () => {
    const token = await tokenFor(ts, 'default', 'robot');
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    claims.sub = 'system:serviceaccount:kube-system:root';
    const forged = `${header}.${segment(claims)}.${signature}`;
    expect((await ts.get('/api', bearer(forged))).body).toEqual(UNAUTHORIZED);
    // A flipped signature byte too.
    const at = signature.length - 2;
    const flipped = `${header}.${payload}.${signature.slice(0, at)}${signature[at] === 'A' ? 'B' : 'A'}${signature.slice(at + 1)}`;
    expect(flipped).not.toBe(token);
    expect((await ts.get('/api', bearer(flipped))).status).toBe(401);
  });

  it('alg "none" is refused (rule: allowed algorithms named explicitly)', async () => {
    const token = await tokenFor(ts, 'default', 'robot');
    const payload = token.split('.')[1]!;
    const unsigned = `${segment({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    expect((await ts.get('/api', bearer(unsigned))).status).toBe(401);
  });

  it('a token for another audience is 401 here, and TokenReview says which audience it is for (rule: audiences)', async () => {
    const token = await tokenFor(ts, 'default', 'robot', { audiences: ['vault'] });
    expect((await ts.get('/api', bearer(token))).body).toEqual(UNAUTHORIZED);
    const review = await ts.post('/apis/authentication.k8s.io/v1/tokenreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token, audiences: ['vault'] },
    });
    expect(review.status).toBe(201);
    expect(review.body.status).toMatchObject({ authenticated: true, audiences: ['vault'], user: { username: 'system:serviceaccount:default:robot' } });
  });

  it('an expired token is 401 once the 60 s leeway has passed (rule: exp with kube leeway)', async () => {
    const token = await tokenFor(ts, 'default', 'robot', { expirationSeconds: 600 });
    clock.advance(600_000 + 59_000);
    expect((await whoami(ts, bearer(token))).status).toBe(201);
    clock.advance(2_000);
    expect((await ts.get('/api', bearer(token))).body).toEqual(UNAUTHORIZED);
  });

  it('a token of a deleted service account is revoked (rule: --service-account-lookup)', async () => {
    await ts.post('/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'short-lived' } });
    const token = await tokenFor(ts, 'default', 'short-lived');
    expect((await whoami(ts, bearer(token))).status).toBe(201);
    expect((await ts.del('/api/v1/namespaces/default/serviceaccounts/short-lived')).status).toBe(200);
    expect((await ts.get('/api', bearer(token))).status).toBe(401);
  });

  it('service account issuer discovery: the JWKS verifies the tokens; service accounts may read it, others not', async () => {
    const token = await tokenFor(ts, 'default', 'robot');
    const config = await ts.get('/.well-known/openid-configuration', bearer(token));
    expect(config.status).toBe(200);
    expect(config.body).toEqual({
      issuer: 'https://kubernetes.default.svc.cluster.local',
      jwks_uri: 'https://kubetab.test/openid/v1/jwks',
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
    const jwks = await ts.get('/openid/v1/jwks', bearer(token));
    expect(jwks.headers.get('content-type')).toBe('application/jwk-set+json');
    // kubeadm's RSA-2048 key: the JWKS entry in go-jose's key order.
    expect(Object.keys(jwks.body.keys[0])).toEqual(['use', 'kty', 'kid', 'alg', 'n', 'e']);
    expect(jwks.body.keys[0]).toMatchObject({ use: 'sig', kty: 'RSA', alg: 'RS256', e: 'AQAB' });
    const { createLocalJWKSet, jwtVerify } = await import('jose');
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks.body), { currentDate: new Date(clock.now()) });
    expect(payload.sub).toBe('system:serviceaccount:default:robot');
    expect((await ts.get('/openid/v1/jwks', bearer(USERS.alice))).body.message).toBe('forbidden: User "alice" cannot get path "/openid/v1/jwks"');
  });

  it('a token signed by another cluster is 401 (rule: only our keys verify)', async () => {
    const other = await secureCluster();
    try {
      await other.post('/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
      const foreign = await tokenFor(other, 'default', 'robot');
      expect((await whoami(other, bearer(foreign))).status).toBe(201);
      expect((await ts.get('/api', bearer(foreign))).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('signing key across restarts', () => {
  it('tokens issued before a restart still authenticate after it', async () => {
    const { openStore } = await import('../../storage/mvcc-store');
    const { createApiServer } = await import('../../server');
    const clock = manualClock();
    const store = await openStore({ clock });
    const files: Record<string, string> = { '/tokens.csv': 'admin,admin,1,system:masters\n' };
    const flags = { 'authorization-mode': 'RBAC', 'token-auth-file': '/tokens.csv' };
    const readFile = async (p: string) => files[p]!;
    const send = (server: { handle(r: Request): Promise<Response> }, method: string, path: string, token: string, body?: unknown) =>
      server.handle(new Request(`http://kubetab.test${path}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) }));
    const first = await createApiServer({ store, clock, flags, host: 'node', controllers: [], readFile });
    await first.idle();
    expect((await send(first, 'POST', '/api/v1/namespaces/default/serviceaccounts', 'admin', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'keeper' } })).status).toBe(201);
    const res = await send(first, 'POST', '/api/v1/namespaces/default/serviceaccounts/keeper/token', 'admin', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
    const token = ((await res.json()) as { status: { token: string } }).status.token;
    // A second server on the same store (a restart): the key stored by the first signs and verifies.
    const second = await createApiServer({ store, clock, flags, host: 'node', controllers: [], readFile });
    await second.idle();
    const who = await send(second, 'POST', WHOAMI, token, whoamiBody);
    expect(who.status).toBe(201);
    expect(((await who.json()) as { status: { userInfo: { username: string } } }).status.userInfo.username).toBe('system:serviceaccount:default:keeper');
  });
});

describe('--service-account-signing-key-file', () => {
  it('signs with the given key (kid from its public key) and verifies with it', async () => {
    const { exportPKCS8, generateKeyPair } = await import('jose');
    const { keyIdOf } = await import('../../auth');
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const ts = await secureCluster({ 'service-account-signing-key-file': '/etc/kubetab/sa.key' }, { files: { '/etc/kubetab/sa.key': await exportPKCS8(privateKey) } });
    try {
      await ts.post('/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
      const token = await tokenFor(ts, 'default', 'robot');
      const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { alg: string; kid: string };
      expect(header).toEqual({ alg: 'RS256', kid: await keyIdOf(publicKey) });
      expect((await whoami(ts, bearer(token))).status).toBe(201);
    } finally {
      await ts.close();
    }
  });
});

describe('anonymous and the AlwaysAllow default', () => {
  it('with --authorization-mode=AlwaysAllow anonymous is off: no credentials is 401 (rule: kube resets AnonymousAuth)', async () => {
    const ts = await secureCluster({ 'authorization-mode': 'AlwaysAllow' });
    try {
      expect((await ts.get('/api/v1/namespaces', ANONYMOUS)).body).toEqual(UNAUTHORIZED);
      expect((await ts.get('/api/v1/namespaces?limit=9', bearer(USERS.alice))).status).toBe(200);
      // The decision the audit log shows is the chain's: system:masters has no opinion, AlwaysAllow allows.
      const items = (await ts.get('/kubetab/v1/audit')).body.items as { event: { requestURI: string }; authorization: { trace: { authorizer: string; decision: string }[] } }[];
      const entry = items.find((i) => i.event.requestURI === '/api/v1/namespaces?limit=9');
      expect(entry?.authorization.trace.map((t) => [t.authorizer, t.decision])).toEqual([
        ['Privileged', 'NoOpinion'],
        ['AlwaysAllow', 'Allow'],
      ]);
    } finally {
      await ts.close();
    }
  });

  it('--anonymous-auth=false makes no credentials a 401 under RBAC too', async () => {
    const ts = await secureCluster({ 'anonymous-auth': 'false' });
    try {
      expect((await ts.get('/healthz', ANONYMOUS)).body).toEqual(UNAUTHORIZED);
    } finally {
      await ts.close();
    }
  });

  it('anonymous limited to configured paths by AuthenticationConfiguration (rule: anonymous.conditions)', async () => {
    const config = [
      'apiVersion: apiserver.config.k8s.io/v1beta1',
      'kind: AuthenticationConfiguration',
      'anonymous:',
      '  enabled: true',
      '  conditions:',
      '  - path: /livez',
    ].join('\n');
    const ts = await secureCluster({ 'authentication-config': '/etc/kubetab/authn.yaml' }, { files: { '/etc/kubetab/authn.yaml': config } });
    try {
      expect((await ts.get('/livez', ANONYMOUS)).status).toBe(200);
      // /readyz is granted to system:unauthenticated by RBAC, but anonymous is not allowed there.
      expect((await ts.get('/readyz', ANONYMOUS)).body).toEqual(UNAUTHORIZED);
    } finally {
      await ts.close();
    }
  });

  it('without any access-control flag a request without credentials is served with no user (decision 0150), and bad credentials are still 401', async () => {
    const ts = await startTestServer();
    try {
      expect(ts.adminToken).toBeUndefined();
      expect((await ts.get('/api/v1/namespaces')).status).toBe(200);
      expect((await ts.get('/api/v1/namespaces', bearer('garbage'))).body).toEqual(UNAUTHORIZED);
      // kube answers this way when the request has no user.
      const who = await ts.post(WHOAMI, whoamiBody);
      expect(who.status).toBe(400);
      expect(who.body.message).toBe('no user present on request');
    } finally {
      await ts.close();
    }
  });
});

describe('start-up errors (rule: configuration is checked at start)', () => {
  it('--authorization-config and --authorization-mode together', async () => {
    await expect(
      startTestServer({ 'authorization-config': '/a.yaml', 'authorization-mode': 'RBAC' }, manualClock(), [], { files: { '/a.yaml': 'kind: AuthorizationConfiguration' } }),
    ).rejects.toThrow('--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined');
  });

  it('an unknown mode, a token file with too few columns, a missing file', async () => {
    await expect(startTestServer({ 'authorization-mode': 'RBAC,Magic' })).rejects.toThrow('authorization-mode "Magic" is not a valid mode');
    await expect(startTestServer({ 'token-auth-file': '/t.csv' }, manualClock(), [], { files: { '/t.csv': 'tok,user\n' } })).rejects.toThrow(
      "token file '/t.csv' must have at least 3 columns (token, user name, user uid), found 2",
    );
    await expect(startTestServer({ 'authorization-mode': 'ABAC', 'authorization-policy-file': '/missing.jsonl' })).rejects.toThrow('open /missing.jsonl');
    await expect(startTestServer({ 'service-account-signing-key-file': '/sa.key' }, manualClock(), [], { files: { '/sa.key': 'not a key' } })).rejects.toThrow(
      'failed to parse service-account-issuer-key-file',
    );
  });
});
