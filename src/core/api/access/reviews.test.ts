// The review objects and the TokenRequest subresource through HTTP (spec 001
// "Review objects", "SelfSubjectReview and review resources are virtual",
// "Permission checks"): created by POST (201), answered in status, never
// stored, in JSON or protobuf as the client sends them.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeKubernetesProtobuf, encodeKubernetesProtobuf } from '../../protobuf';
import type { TestServer } from '../../../test-support/api-harness';
import { bearer, rbac, RBAC_API, secureCluster, USERS } from './test-cluster';

const AUTHZ = '/apis/authorization.k8s.io/v1';
const AUTHN = '/apis/authentication.k8s.io/v1';
const alice = bearer(USERS.alice);
const ssar = (resourceAttributes: Record<string, unknown>) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes } });

describe('access reviews', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await secureCluster();
    await ts.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    await ts.post(`${RBAC_API}/namespaces/team/roles`, rbac.role('team', 'cm-reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]));
    await ts.post(`${RBAC_API}/namespaces/team/rolebindings`, rbac.roleBinding('team', 'alice-reads', { kind: 'Role', name: 'cm-reader' }, [rbac.user('alice')]));
  });
  afterAll(() => ts.close());

  it('SelfSubjectAccessReview answers for the caller, 201, in Go field order (kubectl auth can-i)', async () => {
    const yes = await ts.post(`${AUTHZ}/selfsubjectaccessreviews`, ssar({ namespace: 'team', verb: 'list', resource: 'configmaps' }), alice);
    expect(yes.status).toBe(201);
    expect(Object.keys(yes.body)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(yes.body.metadata).toEqual({ creationTimestamp: null });
    expect(yes.body.status.allowed).toBe(true);
    expect(yes.body.status.reason).toBe('RBAC: allowed by RoleBinding "alice-reads/team" of Role "cm-reader" to User "alice"');
    const no = await ts.post(`${AUTHZ}/selfsubjectaccessreviews`, ssar({ namespace: 'default', verb: 'list', resource: 'configmaps' }), alice);
    expect(no.body.status).toEqual({ allowed: false });
    const path = await ts.post(`${AUTHZ}/selfsubjectaccessreviews`, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } }, alice);
    expect(path.body.status.allowed).toBe(true);
  });

  it('a protobuf body is understood (kubectl sends protobuf); the answer is protobuf, as kubectl asks first (decision 0280)', async () => {
    const body = encodeKubernetesProtobuf(ssar({ namespace: 'team', verb: 'get', resource: 'configmaps' }), 'authorization.k8s.io/v1', 'SelfSubjectAccessReview');
    const res = await ts.server.handle(
      new Request(`http://kubetab.test${AUTHZ}/selfsubjectaccessreviews`, {
        method: 'POST',
        headers: { ...alice, 'Content-Type': 'application/vnd.kubernetes.protobuf', Accept: 'application/vnd.kubernetes.protobuf, */*' },
        body: body as Uint8Array<ArrayBuffer>,
      }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
    const answer = decodeKubernetesProtobuf(new Uint8Array(await res.arrayBuffer())).object as { spec: { resourceAttributes: { verb: string } }; status: { allowed: boolean } };
    expect(answer.spec.resourceAttributes.verb).toBe('get');
    expect(answer.status.allowed).toBe(true);
  });

  it('SubjectAccessReview: about anyone, for those allowed to ask; a spec without user or group is 422', async () => {
    const sar = (spec: Record<string, unknown>) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec });
    const res = await ts.post(`${AUTHZ}/subjectaccessreviews`, sar({ user: 'alice', resourceAttributes: { namespace: 'team', verb: 'get', resource: 'configmaps' } }));
    expect(res.status).toBe(201);
    expect(res.body.status.allowed).toBe(true);
    expect((await ts.post(`${AUTHZ}/subjectaccessreviews`, sar({ user: 'bob', resourceAttributes: { verb: 'get', resource: 'pods' } }), alice)).body.message).toBe(
      'subjectaccessreviews.authorization.k8s.io is forbidden: User "alice" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
    );
    const invalid = await ts.post(`${AUTHZ}/subjectaccessreviews`, sar({ resourceAttributes: { verb: 'get', resource: 'pods' } }));
    expect(invalid.status).toBe(422);
    expect(invalid.body.message).toBe('SubjectAccessReview.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified');
  });

  it('LocalSubjectAccessReview is confined to the namespace of its URL', async () => {
    const lsar = (namespace: string) => ({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'LocalSubjectAccessReview',
      metadata: { namespace: 'team' },
      spec: { user: 'alice', resourceAttributes: { namespace, verb: 'list', resource: 'configmaps' } },
    });
    const ok = await ts.post(`${AUTHZ}/namespaces/team/localsubjectaccessreviews`, lsar('team'));
    expect(ok.status).toBe(201);
    expect(ok.body.status.allowed).toBe(true);
    const other = await ts.post(`${AUTHZ}/namespaces/team/localsubjectaccessreviews`, lsar('default'));
    expect(other.status).toBe(422);
    expect(other.body.message).toBe(
      'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "default": must match metadata.namespace',
    );
  });

  it('SelfSubjectRulesReview lists what the caller may do in a namespace (kubectl auth can-i --list)', async () => {
    const res = await ts.post(`${AUTHZ}/selfsubjectrulesreviews`, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'team' } }, alice);
    expect(res.status).toBe(201);
    expect(res.body.status.resourceRules).toContainEqual({ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] });
    expect(res.body.status.resourceRules).toContainEqual({ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] });
    expect(res.body.status.nonResourceRules.length).toBeGreaterThan(0);
    expect(res.body.status.incomplete).toBe(false);
  });

  it('TokenReview: a valid token names its user; an unknown one is not authenticated, and the token is not repeated in the error', async () => {
    const review = (token: string) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
    const ok = await ts.post(`${AUTHN}/tokenreviews`, review(USERS.bob));
    expect(ok.status).toBe(201);
    expect(ok.body.status).toMatchObject({
      authenticated: true,
      user: { username: 'bob', uid: 'bob-uid', groups: ['developers', 'qa', 'system:authenticated'] },
      audiences: ['https://kubernetes.default.svc.cluster.local'],
    });
    // A static token is for the API server only.
    const elsewhere = await ts.post(`${AUTHN}/tokenreviews`, { ...review(USERS.bob), spec: { token: USERS.bob, audiences: ['vault'] } });
    expect(elsewhere.body.status.authenticated).toBeUndefined();
    const bad = await ts.post(`${AUTHN}/tokenreviews`, review('definitely-not-a-token'));
    expect(bad.status).toBe(201);
    expect(bad.body.status.authenticated).toBeUndefined();
    expect(bad.body.status.user).toEqual({});
    expect(bad.body.status.error).not.toContain('definitely-not-a-token');
  });

  it('reviews are only created: GET is 405, a named path 404, and nothing is stored', async () => {
    const list = await ts.get(`${AUTHZ}/selfsubjectaccessreviews`);
    expect(list.status).toBe(405);
    expect(list.body.message).toBe('the server does not allow this method on the requested resource');
    expect((await ts.post(`${AUTHZ}/selfsubjectaccessreviews/x`, ssar({ verb: 'get', resource: 'pods' }))).status).toBe(404);
    const revision = Number((await ts.get('/api/v1/namespaces')).body.metadata.resourceVersion);
    await ts.post(`${AUTHZ}/selfsubjectaccessreviews`, ssar({ verb: 'get', resource: 'pods' }));
    expect(Number((await ts.get('/api/v1/namespaces')).body.metadata.resourceVersion)).toBe(revision);
  });
});

describe('TokenRequest (serviceaccounts/<name>/token)', () => {
  let ts: TestServer;
  const tokenPath = (name: string) => `/api/v1/namespaces/default/serviceaccounts/${name}/token`;
  const request = (spec: Record<string, unknown>) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec });
  beforeAll(async () => {
    ts = await secureCluster();
    await ts.post('/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder' } });
  });
  afterAll(() => ts.close());

  it('defaults the audiences and one hour (kubectl create token)', async () => {
    const res = await ts.post(tokenPath('builder'), request({}));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name: 'builder', namespace: 'default' },
      spec: { audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3600 },
      status: { expirationTimestamp: '2024-12-11T13:00:00Z' },
    });
    const claims = JSON.parse(Buffer.from((res.body.status.token as string).split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ iss: 'https://kubernetes.default.svc.cluster.local', sub: 'system:serviceaccount:default:builder', aud: ['https://kubernetes.default.svc.cluster.local'] });
  });

  it('refuses a missing service account, a short expiration, and a pod that does not exist', async () => {
    const missing = await ts.post(tokenPath('nobody'), request({}));
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('serviceaccounts "nobody" not found');
    const short = await ts.post(tokenPath('builder'), request({ expirationSeconds: 60 }));
    expect(short.status).toBe(422);
    expect(short.body.message).toBe('TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
    const pod = await ts.post(tokenPath('builder'), request({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'ghost' } }));
    expect(pod.status).toBe(404);
    expect(pod.body.message).toBe('pods "ghost" not found');
  });

  it('needs create on serviceaccounts/token', async () => {
    const res = await ts.post(tokenPath('builder'), request({}), alice);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('serviceaccounts "builder" is forbidden: User "alice" cannot create resource "serviceaccounts/token" in API group "" in the namespace "default"');
  });
});
