// The unconfigured mode (no access-control flag: AlwaysAllow, requests served
// without a user, decision 0150): AlwaysAllow answers impersonation's checks
// as it answers every other one (decision 0302), so `kubectl --as` works in
// the open set-up as on a real AlwaysAllow cluster.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

describe('impersonation without access control', () => {
  it('serves the request as the impersonated user', async () => {
    const res = await t.post(
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      { 'Impersonate-User': 'jane', 'Impersonate-Group': 'developers' },
    );
    expect(res.status).toBe(201);
    expect(res.body.status.userInfo).toEqual({ username: 'jane', groups: ['developers', 'system:authenticated'] });
  });

  it('still has no user without impersonation (kube: "no user present on request")', async () => {
    const res = await t.post('/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('no user present on request');
  });
});
