// Impersonation through HTTP (spec 001 "Impersonation"): the caller is
// authenticated, each Impersonate-* header is checked with the `impersonate`
// verb, then the request continues — and is authorized — as the new user.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test-support/api-harness';
import { bearer, rbac, RBAC_API, secureCluster, USERS } from './test-cluster';

const WHOAMI = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const whoamiBody = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };

describe('impersonation', () => {
  let ts: TestServer;
  const who = async (headers: Record<string, string>) => ts.post(WHOAMI, whoamiBody, headers);

  beforeAll(async () => {
    ts = await secureCluster();
    // bob may impersonate alice (only), the group "qa", and set the "scopes" extra.
    await ts.post(
      `${RBAC_API}/clusterroles`,
      rbac.clusterRole('impersonate-alice', [
        { apiGroups: [''], resources: ['users'], resourceNames: ['alice'], verbs: ['impersonate'] },
        { apiGroups: [''], resources: ['groups'], resourceNames: ['qa'], verbs: ['impersonate'] },
        { apiGroups: ['authentication.k8s.io'], resources: ['userextras/scopes'], verbs: ['impersonate'] },
      ]),
    );
    await ts.post(`${RBAC_API}/clusterrolebindings`, rbac.clusterRoleBinding('bob-impersonates', 'impersonate-alice', [rbac.user('bob')]));
  });
  afterAll(() => ts.close());

  it('an administrator acts as another user, who gets system:authenticated (rule: Impersonate-User)', async () => {
    const res = await who({ 'Impersonate-User': 'alice' });
    expect(res.status).toBe(201);
    expect(res.body.status.userInfo).toEqual({ username: 'alice', groups: ['system:authenticated'] });
  });

  it('the request is authorized as the impersonated user (kubectl get pods --as alice)', async () => {
    const res = await ts.get('/api/v1/namespaces/default/pods', { 'Impersonate-User': 'alice' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"');
  });

  it('groups, uid and extras come along; a service account gets its groups (rule: Impersonate-Group/-Uid/-Extra-*)', async () => {
    const res = await who({ 'Impersonate-User': 'dave', 'Impersonate-Group': 'ops', 'Impersonate-Uid': 'u-1', 'Impersonate-Extra-Scopes': 'view' });
    expect(res.body.status.userInfo).toEqual({ username: 'dave', uid: 'u-1', groups: ['ops', 'system:authenticated'], extra: { scopes: ['view'] } });
    const sa = await who({ 'Impersonate-User': 'system:serviceaccount:default:robot' });
    expect(sa.body.status.userInfo).toEqual({
      username: 'system:serviceaccount:default:robot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
  });

  it('without permission: 403 naming the impersonated object (rule: impersonate verb)', async () => {
    const res = await who({ ...bearer(USERS.alice), 'Impersonate-User': 'bob' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      message: 'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
      details: { name: 'bob', kind: 'users' },
    });
  });

  it('a grant limited by resourceNames: bob may be alice, not carol; may add group qa, not ops', async () => {
    const bob = bearer(USERS.bob);
    expect((await who({ ...bob, 'Impersonate-User': 'alice' })).body.status.userInfo.username).toBe('alice');
    expect((await who({ ...bob, 'Impersonate-User': 'carol' })).body.message).toBe(
      'users "carol" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    expect((await who({ ...bob, 'Impersonate-User': 'alice', 'Impersonate-Group': 'qa' })).body.status.userInfo.groups).toEqual(['qa', 'system:authenticated']);
    expect((await who({ ...bob, 'Impersonate-User': 'alice', 'Impersonate-Group': 'ops' })).body.message).toBe(
      'groups "ops" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
    expect((await who({ ...bob, 'Impersonate-User': 'alice', 'Impersonate-Extra-Scopes': 'all' })).body.status.userInfo.extra).toEqual({ scopes: ['all'] });
    expect((await who({ ...bob, 'Impersonate-User': 'alice', 'Impersonate-Uid': 'x' })).body.message).toBe(
      'uids.authentication.k8s.io "x" is forbidden: User "bob" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
    );
  });

  it('a group without a user is an internal error in plain text, as kube answers', async () => {
    const res = await who({ 'Impersonate-Group': 'ops' });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.text).toBe(`Internal Server Error: "${WHOAMI}": requested [{Group  ops    }] without impersonating a user`);
  });

  it('the audit log records the requestor and the impersonated user', async () => {
    await ts.get('/api/v1/namespaces/default/configmaps?limit=7', { 'Impersonate-User': 'alice' });
    const log = await ts.get('/kubetab/v1/audit?limit=50');
    const item = (log.body.items as { event: { requestURI: string; user: { username: string }; impersonatedUser?: { username: string } } }[]).find(
      (i) => i.event.requestURI === '/api/v1/namespaces/default/configmaps?limit=7',
    );
    expect(item?.event.user.username).toBe('kubetab-admin');
    expect(item?.event.impersonatedUser?.username).toBe('alice');
  });
});
