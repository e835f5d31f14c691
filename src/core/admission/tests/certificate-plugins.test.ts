// CertificateSubjectRestriction, CertificateApproval and CertificateSigning
// through the HTTP API, with RBAC deciding who may approve and sign.

import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// openssl req -subj "/O=system:masters/CN=eve" and "/O=dev/CN=bob" (P-256 keys), PEM then base64 as the API carries it.
const MASTERS_CSR = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIak1JR0pBZ0VBTUNjeEZ6QVZCZ05WQkFvTURuTjVjM1JsYlRwdFlYTjBaWEp6TVF3d0NnWURWUVFEREFObApkbVV3V1RBVEJnY3Foa2pPUFFJQkJnZ3Foa2pPUFFNQkJ3TkNBQVJOcy9USkhPQXYzVFovbFNoTXFaRE9FZ01GCkI1MzVLb29Wc3EwbFgwUDhqUXdzUUtQd0ZKOHFNa3EwR3dFQzVHVUgyaFlPckZjVUMwb01sNmx0ay9LbG9BQXcKQ2dZSUtvWkl6ajBFQXdJRFNRQXdSZ0loQUlaMzNyUjZNTDJ2VVIyYWNCOFltTklQVEN2Q1NZSmJ5anRvV0VoNQo0ZkpVQWlFQWkzVitJa3JIM0xjbVlHaHBKTWF2ZDVhV1NLWWNiUTV0eFVPbnVoS2l5MWM9Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=';
const DEV_CSR = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIWE1INENBUUF3SERFTU1Bb0dBMVVFQ2d3RFpHVjJNUXd3Q2dZRFZRUUREQU5pYjJJd1dUQVRCZ2NxaGtqTwpQUUlCQmdncWhrak9QUU1CQndOQ0FBVCtpRnBOaGNkS1RrRmdkNFp1THBjVjRleFZLbmxHcG41M0g5c3BkNHM5ClZUdXUzVUFqbEZoTWNXVXp1U2ZYdzlDMlJhRGFrdk5MU09KaUpiQ3dOY3dmb0FBd0NnWUlLb1pJemowRUF3SUQKU1FBd1JnSWhBSm9EdGR5T2pPaStndlgvam10a1VteWhNSTZKOXhmY2d4dDJQOVJBRjFJdkFpRUFxNUVUb1FXcwpBWGhqVTZkeEQyb1pGYitCbzhKMndBRlFyOUNlNllCRjNuWT0KLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg==';
const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const csr = (name: string, request: string, signerName = 'kubernetes.io/kube-apiserver-client') => ({
  metadata: { name },
  spec: { request, signerName, usages: ['client auth'] },
});

describe('CertificateSubjectRestriction', () => {
  it('refuses a kube-apiserver-client request for system:masters, and lets others through', async () => {
    t = await startTestServer();
    const refused = await t.post(CSRS, csr('eve', MASTERS_CSR));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'certificatesigningrequests.certificates.k8s.io "eve" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
    );
    expect((await t.post(CSRS, csr('bob', DEV_CSR))).status).toBe(201);
    // Another signer may carry any subject.
    expect((await t.post(CSRS, csr('eve2', MASTERS_CSR, 'example.com/custom'))).status).toBe(201);
  });
});

describe('CertificateApproval and CertificateSigning', () => {
  it('need approve / sign on the signer; the signer name or <domain>/* grants them', async () => {
    t = await startTestServer({ 'authorization-mode': 'RBAC', 'token-auth-file': '/tokens.csv' }, undefined, [], {
      files: { '/tokens.csv': 'approver-token,approver,u1\n' },
    });
    expect((await t.post(CSRS, csr('bob', DEV_CSR, 'example.com/custom'))).status).toBe(201);
    await t.post('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      metadata: { name: 'csr-approver' },
      rules: [
        { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests', 'certificatesigningrequests/approval', 'certificatesigningrequests/status'], verbs: ['get', 'update', 'patch'] },
      ],
    });
    await t.post('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name: 'csr-approver' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'csr-approver' },
      subjects: [{ kind: 'User', name: 'approver', apiGroup: 'rbac.authorization.k8s.io' }],
    });
    const asApprover = { Authorization: 'Bearer approver-token' };
    const current = (await t.get(`${CSRS}/bob`)).body;
    const approval = { ...current, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] } };
    const refused = await t.put(`${CSRS}/bob/approval`, approval, asApprover);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'certificatesigningrequests.certificates.k8s.io "bob" is forbidden: user not permitted to approve requests with signerName "example.com/custom"',
    );
    await t.post('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      metadata: { name: 'signer' },
      rules: [{ apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['example.com/*'], verbs: ['approve'] }],
    });
    await t.post('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name: 'signer' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'signer' },
      subjects: [{ kind: 'User', name: 'approver', apiGroup: 'rbac.authorization.k8s.io' }],
    });
    expect((await t.put(`${CSRS}/bob/approval`, approval, asApprover)).status).toBe(200);
    const approved = (await t.get(`${CSRS}/bob`)).body;
    const signing = await t.put(`${CSRS}/bob/status`, { ...approved, status: { ...approved.status, certificate: btoa('not really a certificate') } }, asApprover);
    expect(signing.status).toBe(403);
    expect(signing.body.message).toBe(
      'certificatesigningrequests.certificates.k8s.io "bob" is forbidden: user not permitted to sign requests with signerName "example.com/custom"',
    );
  });
});
