// RoleBinding subjects as kube stores and returns them: a ServiceAccount's
// empty apiGroup is defaulted to "" and left out by omitempty, Users and Groups
// get rbac.authorization.k8s.io.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer({ 'authorization-mode': 'RBAC' });
});
afterEach(async () => {
  await t.close();
});

describe('RoleBinding subjects', () => {
  it('omit the empty apiGroup of a ServiceAccount and default the group of a User', async () => {
    const res = await t.post('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'rb' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'ServiceAccount', name: 'default', namespace: 'default', apiGroup: '' },
        { kind: 'User', name: 'u1' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'default', namespace: 'default' },
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'u1' },
    ]);
    const got = await t.get('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/rb');
    expect(got.body.subjects[0]).not.toHaveProperty('apiGroup');
  });
});
