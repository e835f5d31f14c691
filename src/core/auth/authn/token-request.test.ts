// TokenRequest (spec 001 "Service-account token"; issue: issued by the
// serviceaccounts/<name>/token subresource as `kubectl create token` uses it).
import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createTokenRequest, type TokenRequestDeps } from './token-request';
import { createServiceAccountAuthenticator } from './service-account';
import { generateSigningKey, keysFor } from './service-account-keys';
import { manualClock } from '../../clock';
import { isStatusError, type StatusError } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';

async function setup() {
  const clock = manualClock(Date.UTC(2024, 0, 1));
  const keys = keysFor(await generateSigningKey());
  const store: Record<string, KubeObject> = {
    'sa/ns/builder': { metadata: { name: 'builder', namespace: 'ns', uid: 'sa-uid' } },
    'pod/ns/web': { metadata: { name: 'web', namespace: 'ns', uid: 'pod-uid' }, spec: { serviceAccountName: 'builder', nodeName: 'n1' } },
    'pod/ns/other': { metadata: { name: 'other', namespace: 'ns', uid: 'o-uid' }, spec: { serviceAccountName: 'default' } },
    'node/n1': { metadata: { name: 'n1', uid: 'node-uid' } },
  };
  const deps: TokenRequestDeps = {
    issuer: ISSUER,
    apiAudiences: [ISSUER],
    keys,
    clock,
    getServiceAccount: (ns, n) => store[`sa/${ns}/${n}`],
    getPod: (ns, n) => store[`pod/${ns}/${n}`],
    getSecret: (ns, n) => store[`secret/${ns}/${n}`],
    getNode: (n) => store[`node/${n}`],
  };
  return { deps, clock, keys, store };
}

async function rejects(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    if (isStatusError(err)) return err;
    throw err;
  }
  throw new Error('expected a StatusError');
}

describe('TokenRequest', () => {
  it('kubectl create token: defaults audiences and one hour, and the token authenticates', async () => {
    const { deps } = await setup();
    const { object } = await createTokenRequest('ns', 'builder', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }, deps);
    expect(object).toMatchObject({
      metadata: { name: 'builder', namespace: 'ns', creationTimestamp: '2024-01-01T00:00:00Z' },
      spec: { audiences: [ISSUER], expirationSeconds: 3600 },
      status: { expirationTimestamp: '2024-01-01T01:00:00Z' },
    });
    const token = (object.status as { token: string }).token;
    const authn = createServiceAccountAuthenticator({ ...deps, issuers: [ISSUER], getServiceAccount: deps.getServiceAccount, getSecret: deps.getSecret, getPod: deps.getPod, getNode: deps.getNode });
    expect(await authn.authenticateToken(token)).toMatchObject({ status: 'ok', user: { username: 'system:serviceaccount:ns:builder' } });
  });

  it('validates expirationSeconds and metadata', async () => {
    const { deps } = await setup();
    const short = await rejects(createTokenRequest('ns', 'builder', { spec: { expirationSeconds: 599 } }, deps));
    expect(short.status.message).toBe('TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
    const name = await rejects(createTokenRequest('ns', 'builder', { metadata: { name: 'x' }, spec: {} }, deps));
    expect(name.status.message).toBe('TokenRequest.authentication.k8s.io "builder" is invalid: metadata.name: Invalid value: "x": must match the service account name if specified');
    expect((await rejects(createTokenRequest('ns', 'nobody', { spec: {} }, deps))).status.message).toBe('serviceaccounts "nobody" not found');
  });

  it('binds to a pod of this service account, with node info, and checks the UID', async () => {
    const { deps } = await setup();
    const { object } = await createTokenRequest('ns', 'builder', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } } }, deps);
    const claims = decodeJwt((object.status as { token: string }).token);
    expect(claims['kubernetes.io']).toMatchObject({ namespace: 'ns', pod: { name: 'web', uid: 'pod-uid' }, node: { name: 'n1', uid: 'node-uid' }, serviceaccount: { name: 'builder', uid: 'sa-uid' } });
    const other = await rejects(createTokenRequest('ns', 'builder', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'other' } } }, deps));
    expect(other.status).toMatchObject({ code: 400, message: 'cannot bind token for serviceaccount "builder" to pod running with different serviceaccount name.' });
    const uid = await rejects(createTokenRequest('ns', 'builder', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web', uid: 'old' } } }, deps));
    expect(uid.status.code).toBe(409);
    const cm = await rejects(createTokenRequest('ns', 'builder', { spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'c' } } }, deps));
    expect(cm.status.message).toBe('cannot bind token to object of type /v1, Kind=ConfigMap');
    expect((await rejects(createTokenRequest('ns', 'builder', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'gone' } } }, deps))).status.message).toBe('pods "gone" not found');
  });

  it('caps the expiration with a warning and extends kubelet tokens (3607 s) to a year', async () => {
    const { deps } = await setup();
    const capped = await createTokenRequest('ns', 'builder', { spec: { expirationSeconds: 7200 } }, { ...deps, maxExpirationSeconds: 3600 });
    expect(capped.warnings).toEqual(['requested expiration of 7200 seconds shortened to 3600 seconds']);
    const ext = await createTokenRequest('ns', 'builder', { spec: { expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } } }, deps);
    const claims = decodeJwt((ext.object.status as { token: string }).token);
    expect(claims.exp! - claims.iat!).toBe(365 * 24 * 3600);
    expect((claims['kubernetes.io'] as { warnafter: number }).warnafter).toBe(claims.iat! + 3607);
    expect((ext.object.status as { expirationTimestamp: string }).expirationTimestamp).toBe('2024-01-01T01:00:07Z');
  });
});
