// The `authorizer` variable of ValidatingAdmissionPolicy CEL: checks ask the
// server's authorizer chain (RBAC here) as the requesting user, and
// authorizer.requestResource describes the request's own resource.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
const JANE = { Authorization: 'Bearer jane-token' };
beforeEach(async () => {
  t = await startTestServer({ 'authorization-mode': 'RBAC', 'token-auth-file': '/t/tokens.csv' }, undefined, [], { files: { '/t/tokens.csv': 'jane-token,jane,jane-uid\n' } });
  const rbac = '/apis/rbac.authorization.k8s.io/v1/namespaces/default';
  await t.post(`${rbac}/roles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'cm' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }] });
  await t.post(`${rbac}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'cm' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm' },
    subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }],
  });
  const AR = '/apis/admissionregistration.k8s.io/v1';
  await t.post(`${AR}/validatingadmissionpolicies`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'secret-admins' },
    spec: {
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
      validations: [
        {
          expression: "!has(object.metadata.labels) || !('sensitive' in object.metadata.labels) || authorizer.group('').resource('secrets').namespace(object.metadata.namespace).check('delete').allowed()",
          messageExpression: "'only those who may delete secrets may label configmaps sensitive'",
          reason: 'Forbidden',
        },
        { expression: "authorizer.requestResource.check('create').allowed()", message: 'request resource check' },
      ],
    },
  });
  await t.post(`${AR}/validatingadmissionpolicybindings`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'secret-admins' },
    spec: { policyName: 'secret-admins', validationActions: ['Deny'] },
  });
});
afterEach(async () => {
  await t.close();
});

const cm = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels } });

describe('ValidatingAdmissionPolicy authorizer', () => {
  it('asks the authorizer chain as the requesting user', async () => {
    expect((await t.post('/api/v1/namespaces/default/configmaps', cm('plain'), JANE)).status).toBe(201);
    const refused = await t.post('/api/v1/namespaces/default/configmaps', cm('s', { sensitive: 'yes' }), JANE);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      "configmaps \"s\" is forbidden: ValidatingAdmissionPolicy 'secret-admins' with binding 'secret-admins' denied request: only those who may delete secrets may label configmaps sensitive",
    );
    // The administrator (system:masters) may delete secrets.
    expect((await t.post('/api/v1/namespaces/default/configmaps', cm('s', { sensitive: 'yes' }))).status).toBe(201);
  });
});
