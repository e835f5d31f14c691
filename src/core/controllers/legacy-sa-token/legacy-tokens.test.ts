// Legacy service-account tokens through the real server: the token
// controller fills a kubernetes.io/service-account-token Secret with a token
// the server accepts, the cluster CA and the namespace; the authenticator
// labels the Secret with the date of its last use; the cleaner marks
// auto-generated tokens unused for a year invalid (they stop authenticating)
// and deletes them a year later; a deleted account takes its tokens along.

import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let ts: TestServer | undefined;
afterEach(async () => {
  await ts?.close();
  ts = undefined;
});

const CONTROLLERS = ['serviceaccount-token', 'root-ca-cert-publisher', 'legacy-token-tracking-controller', 'legacy-service-account-token-cleaner'];
const SECRETS = '/api/v1/namespaces/default/secrets';
const DAY = 24 * 3600_000;

async function start(): Promise<TestServer> {
  ts = await startTestServer({ 'authorization-mode': 'RBAC' }, undefined, CONTROLLERS, { nodes: [] });
  await ts.server.idle();
  return ts;
}

const tokenSecret = (name: string, account: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, annotations: { 'kubernetes.io/service-account.name': account } },
  type: 'kubernetes.io/service-account-token',
});

async function whoAmI(t: TestServer, token: string): Promise<{ status: number; username?: string; message?: string }> {
  const res = await t.post('/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, { Authorization: `Bearer ${token}` });
  return { status: res.status, username: res.body?.status?.userInfo?.username, message: res.body?.message };
}

describe('legacy service-account token controller', () => {
  it('fills the Secret with a token the server accepts, ca.crt and namespace; the authenticator records the day of use', async () => {
    const t = await start();
    const sa = (await t.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'builder' } })).body;
    expect((await t.post(SECRETS, tokenSecret('builder-token', 'builder'))).status).toBe(201);
    await t.server.idle();
    const secret = (await t.get(`${SECRETS}/builder-token`)).body;
    expect(Object.keys(secret.data).sort()).toEqual(['ca.crt', 'namespace', 'token']);
    expect(atob(secret.data.namespace)).toBe('default');
    const rootCA = (await t.get('/api/v1/namespaces/kube-system/configmaps/kube-root-ca.crt')).body.data['ca.crt'];
    expect(atob(secret.data['ca.crt'])).toBe(rootCA);
    expect(secret.metadata.annotations).toEqual({ 'kubernetes.io/service-account.name': 'builder', 'kubernetes.io/service-account.uid': sa.metadata.uid });
    expect(secret.metadata.labels).toBeUndefined();

    const token = atob(secret.data.token);
    expect(await whoAmI(t, token)).toMatchObject({ status: 201, username: 'system:serviceaccount:default:builder' });
    const used = (await t.get(`${SECRETS}/builder-token`)).body;
    expect(used.metadata.labels).toEqual({ 'kubernetes.io/legacy-token-last-used': '2024-12-11' });
    // Written once a day at most: a second use the same day changes nothing.
    await whoAmI(t, token);
    expect((await t.get(`${SECRETS}/builder-token`)).body.metadata.resourceVersion).toBe(used.metadata.resourceVersion);
    t.clock.advance(DAY);
    await whoAmI(t, token);
    expect((await t.get(`${SECRETS}/builder-token`)).body.metadata.labels['kubernetes.io/legacy-token-last-used']).toBe('2024-12-12');
  });

  it('deletes token Secrets whose account does not exist or goes away', async () => {
    const t = await start();
    await t.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'app' } });
    await t.post(SECRETS, tokenSecret('app-token', 'app'));
    await t.post(SECRETS, tokenSecret('ghost-token', 'ghost'));
    await t.server.idle();
    expect((await t.get(`${SECRETS}/ghost-token`)).status).toBe(404);
    const token = atob((await t.get(`${SECRETS}/app-token`)).body.data.token);
    await t.del('/api/v1/namespaces/default/serviceaccounts/app');
    await t.server.idle();
    expect((await t.get(`${SECRETS}/app-token`)).status).toBe(404);
    expect((await whoAmI(t, token)).status).toBe(401);
  });
});

describe('legacy token tracking and clean-up', () => {
  it('tracks since the first start, marks an auto-generated token unused for a year invalid, deletes it a year later', async () => {
    const t = await start();
    const tracking = (await t.get('/api/v1/namespaces/kube-system/configmaps/kube-apiserver-legacy-service-account-token-tracking')).body;
    expect(tracking.data).toEqual({ since: '2024-12-11' });
    await t.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'old' }, secrets: [{ name: 'old-token' }] });
    await t.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'manual' } });
    await t.post(SECRETS, tokenSecret('old-token', 'old'));
    await t.post(SECRETS, tokenSecret('manual-token', 'manual'));
    await t.server.idle();
    const token = atob((await t.get(`${SECRETS}/old-token`)).body.data.token);
    expect((await whoAmI(t, token)).status).toBe(201);

    // Less than a year of tracking (plus its first day): nothing is judged.
    t.clock.advance(365 * DAY);
    await t.server.idle();
    expect((await t.get(`${SECRETS}/old-token`)).body.metadata.labels).toEqual({ 'kubernetes.io/legacy-token-last-used': '2024-12-11' });

    t.clock.advance(2 * DAY);
    await t.server.idle();
    const marked = (await t.get(`${SECRETS}/old-token`)).body;
    expect(marked.metadata.labels['kubernetes.io/legacy-token-invalid-since']).toBe('2025-12-13');
    // A token the account does not list (made by hand) is not the cleaner's.
    expect((await t.get(`${SECRETS}/manual-token`)).body.metadata.labels).toBeUndefined();
    const refused = await whoAmI(t, token);
    expect(refused.status).toBe(401);

    t.clock.advance(366 * DAY);
    await t.server.idle();
    expect((await t.get(`${SECRETS}/old-token`)).status).toBe(404);
    expect((await t.get(`${SECRETS}/manual-token`)).status).toBe(200);
  });
});
