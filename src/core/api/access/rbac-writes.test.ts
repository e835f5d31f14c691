// Writes of RBAC objects through HTTP (spec 001 "RBAC rules" 2, 4, 5, 7):
// escalation prevention with the `escalate` and `bind` verbs, enforced
// whatever the authorizer; roleRef immutable; the default policy created and
// repaired at every start (unless autoupdate is "false"); aggregation.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../clock';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { bearer, rbac, RBAC_API, secureCluster, USERS } from './test-cluster';

const alice = bearer(USERS.alice);
const carol = bearer(USERS.carol);
const ESCALATION = 'is attempting to grant RBAC permissions not currently held:';

describe('escalation prevention', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await secureCluster({}, { controllers: ['clusterrole-aggregation-controller'] });
    await ts.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    // alice administers the namespace "team" (the default "admin" role, bound in the namespace).
    await ts.post(`${RBAC_API}/namespaces/team/rolebindings`, rbac.roleBinding('team', 'alice-admin', { kind: 'ClusterRole', name: 'admin' }, [rbac.user('alice')]));
    // carol may write roles and bindings in "team", with escalate on roles and bind on cluster-admin only.
    await ts.post(
      `${RBAC_API}/clusterroles`,
      rbac.clusterRole('rbac-writer', [
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['create', 'update', 'get'] },
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] },
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['cluster-admin'], verbs: ['bind'] },
      ]),
    );
    await ts.post(`${RBAC_API}/namespaces/team/rolebindings`, rbac.roleBinding('team', 'carol-rbac', { kind: 'ClusterRole', name: 'rbac-writer' }, [rbac.user('carol')]));
    await ts.server.idle();
  });
  afterAll(() => ts.close());

  it('a user may create a role granting what they hold in that namespace', async () => {
    const res = await ts.post(`${RBAC_API}/namespaces/team/roles`, rbac.role('team', 'cm-reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]), alice);
    expect(res.status, res.text).toBe(201);
  });

  it('granting more than they hold is 403 listing the missing rules (rule: escalation prevention)', async () => {
    const res = await ts.post(
      `${RBAC_API}/namespaces/team/roles`,
      rbac.role('team', 'node-reader', [{ apiGroups: [''], resources: ['nodes', 'configmaps'], verbs: ['get'] }]),
      alice,
    );
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      reason: 'Forbidden',
      details: { name: 'node-reader', group: 'rbac.authorization.k8s.io', kind: 'roles' },
      message: `roles.rbac.authorization.k8s.io "node-reader" is forbidden: user "alice" (groups=["system:authenticated"]) ${ESCALATION}\n{APIGroups:[""], Resources:["nodes"], Verbs:["get"]}`,
    });
  });

  it('updating a role to grant more is refused the same way', async () => {
    const current = (await ts.get(`${RBAC_API}/namespaces/team/roles/cm-reader`)).body;
    const res = await ts.put(`${RBAC_API}/namespaces/team/roles/cm-reader`, { ...current, rules: [...current.rules, { apiGroups: [''], resources: ['nodes'], verbs: ['list'] }] }, alice);
    expect(res.status).toBe(403);
    expect(res.body.message).toContain(`${ESCALATION}\n{APIGroups:[""], Resources:["nodes"], Verbs:["list"]}`);
  });

  it('binding a role one does not hold is refused; binding one held is allowed (rule: bind)', async () => {
    const toAdmin = await ts.post(
      `${RBAC_API}/namespaces/team/rolebindings`,
      rbac.roleBinding('team', 'bob-cluster-admin', { kind: 'ClusterRole', name: 'cluster-admin' }, [rbac.user('bob')]),
      alice,
    );
    expect(toAdmin.status).toBe(403);
    expect(toAdmin.body.message).toBe(
      `rolebindings.rbac.authorization.k8s.io "bob-cluster-admin" is forbidden: user "alice" (groups=["system:authenticated"]) ${ESCALATION}\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}`,
    );
    const toView = await ts.post(`${RBAC_API}/namespaces/team/rolebindings`, rbac.roleBinding('team', 'bob-view', { kind: 'ClusterRole', name: 'view' }, [rbac.user('bob')]), alice);
    expect(toView.status, toView.text).toBe(201);
  });

  it('a binding to a role that does not exist names the lookup failure', async () => {
    const res = await ts.post(`${RBAC_API}/namespaces/team/rolebindings`, rbac.roleBinding('team', 'ghost', { kind: 'Role', name: 'ghost' }, [rbac.user('bob')]), alice);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('rolebindings.rbac.authorization.k8s.io "ghost" is forbidden: roles.rbac.authorization.k8s.io "ghost" not found');
  });

  it('the escalate verb allows granting what one does not hold; bind allows binding the named role only', async () => {
    const role = await ts.post(`${RBAC_API}/namespaces/team/roles`, rbac.role('team', 'secret-admin', [{ apiGroups: [''], resources: ['secrets'], verbs: ['*'] }]), carol);
    expect(role.status, role.text).toBe(201);
    const admin = await ts.post(
      `${RBAC_API}/namespaces/team/rolebindings`,
      rbac.roleBinding('team', 'dave-admin', { kind: 'ClusterRole', name: 'cluster-admin' }, [rbac.user('dave')]),
      carol,
    );
    expect(admin.status, admin.text).toBe(201);
    const edit = await ts.post(`${RBAC_API}/namespaces/team/rolebindings`, rbac.roleBinding('team', 'dave-edit', { kind: 'ClusterRole', name: 'edit' }, [rbac.user('dave')]), carol);
    expect(edit.status).toBe(403);
  });

  it('the checks apply even when the authorizer allows everything (rule: enforced whatever the authorizer)', async () => {
    const open = await secureCluster({ 'authorization-mode': 'AlwaysAllow' });
    try {
      const res = await open.post(`${RBAC_API}/clusterroles`, rbac.clusterRole('everything', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]), alice);
      // AlwaysAllow answers "escalate" too, so the write goes through, as in kube.
      expect(res.status).toBe(201);
    } finally {
      await open.close();
    }
    // ABAC alone, letting alice write rolebindings: "bind" is asked of ABAC (no grant on clusterroles),
    // then the RBAC objects are consulted although RBAC is not an authorizer here.
    const abacOnly = await secureCluster({ 'authorization-mode': 'ABAC', 'authorization-policy-file': '/p.jsonl' }, {
      files: { '/p.jsonl': '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"alice","namespace":"*","resource":"rolebindings","apiGroup":"*"}}' },
    });
    try {
      const res = await abacOnly.post(`${RBAC_API}/namespaces/default/rolebindings`, rbac.roleBinding('default', 'b', { kind: 'ClusterRole', name: 'cluster-admin' }, [rbac.user('alice')]), alice);
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/^rolebindings\.rbac\.authorization\.k8s\.io "b" is forbidden: user "alice" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n/);
    } finally {
      await abacOnly.close();
    }
  });

  it('without access control configured (AlwaysAllow, no user) RBAC writes are allowed as AlwaysAllow allows escalate and bind', async () => {
    const bare = await startTestServer();
    try {
      const role = await bare.post(`${RBAC_API}/clusterroles`, rbac.clusterRole('r', []));
      expect(role.status).toBe(201);
      const binding = await bare.post(`${RBAC_API}/namespaces/default/rolebindings`, rbac.roleBinding('default', 'b', { kind: 'ClusterRole', name: 'cluster-admin' }, [rbac.user('alice')]));
      expect(binding.status).toBe(201);
      expect((await bare.get(`${RBAC_API}/namespaces/default/rolebindings/b`)).body.roleRef.name).toBe('cluster-admin');
    } finally {
      await bare.close();
    }
  });
});

describe('roleRef is immutable', () => {
  it('changing it is 422 with kube\'s text; other fields may change (rule: roleRef immutable)', async () => {
    const ts = await secureCluster();
    try {
      const created = await ts.post(`${RBAC_API}/clusterrolebindings`, rbac.clusterRoleBinding('readers', 'view', [rbac.group('qa')]));
      expect(created.status).toBe(201);
      const changed = await ts.put(`${RBAC_API}/clusterrolebindings/readers`, { ...created.body, roleRef: { ...created.body.roleRef, name: 'edit' } });
      expect(changed.status).toBe(422);
      expect(changed.body).toMatchObject({
        reason: 'Invalid',
        message:
          'ClusterRoleBinding.rbac.authorization.k8s.io "readers" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
        details: { name: 'readers', group: 'rbac.authorization.k8s.io', kind: 'ClusterRoleBinding', causes: [{ reason: 'FieldValueInvalid', field: 'roleRef' }] },
      });
      const patched = await ts.patch(`${RBAC_API}/clusterrolebindings/readers`, { subjects: [rbac.group('qa'), rbac.group('developers')] }, 'application/merge-patch+json');
      expect(patched.status).toBe(200);
    } finally {
      await ts.close();
    }
  });
});

describe('the default policy', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await secureCluster({}, { controllers: ['clusterrole-aggregation-controller'] });
  });
  afterAll(() => ts.close());

  it('exists at first start, labelled and annotated as kube-apiserver creates it', async () => {
    const admin = await ts.get(`${RBAC_API}/clusterroles/cluster-admin`);
    expect(admin.body).toMatchObject({
      metadata: { labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' }, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } },
      rules: [
        { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
        { nonResourceURLs: ['*'], verbs: ['*'] },
      ],
    });
    expect(admin.body.metadata.managedFields[0]).toMatchObject({ manager: 'kube-apiserver', operation: 'Update' });
    const binding = await ts.get(`${RBAC_API}/clusterrolebindings/system:public-info-viewer`);
    expect(binding.body.subjects).toEqual([rbac.group('system:authenticated'), rbac.group('system:unauthenticated')]);
    expect((await ts.get(`${RBAC_API}/namespaces/kube-system/roles/extension-apiserver-authentication-reader`)).status).toBe(200);
  });

  it('the aggregation controller fills admin, edit and view, and adds a new aggregated role\'s rules (rule: aggregationRule)', async () => {
    const view = await ts.get(`${RBAC_API}/clusterroles/view`);
    expect(view.body.rules.length).toBeGreaterThan(5);
    expect(view.body.metadata.managedFields.map((m: { manager: string }) => m.manager)).toContain('clusterrole-aggregation-controller');
    await ts.post(
      `${RBAC_API}/clusterroles`,
      rbac.clusterRole('crontab-reader', [{ apiGroups: ['stable.example.com'], resources: ['crontabs'], verbs: ['get', 'list', 'watch'] }], {
        metadata: { name: 'crontab-reader', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      }),
    );
    await ts.server.idle();
    for (const name of ['view', 'edit', 'admin']) {
      const role = await ts.get(`${RBAC_API}/clusterroles/${name}`);
      expect(role.body.rules, name).toContainEqual({ apiGroups: ['stable.example.com'], resources: ['crontabs'], verbs: ['get', 'list', 'watch'] });
    }
  });
});

describe('reconciliation at every start', () => {
  it('repairs a changed default, but leaves one annotated autoupdate "false" (rule: defaults repaired unless autoupdate=false)', async () => {
    const { openStore } = await import('../../storage/mvcc-store');
    const { createApiServer } = await import('../../server');
    const clock = manualClock();
    const store = await openStore({ clock });
    const flags = { 'authorization-mode': 'RBAC', 'token-auth-file': '/t.csv' };
    const readFile = async () => 'admin,admin,1,system:masters\n';
    const call = async (server: { handle(r: Request): Promise<Response> }, method: string, path: string, body?: unknown) => {
      const res = await server.handle(
        new Request(`http://kubetab.test${path}`, { method, headers: { Authorization: 'Bearer admin', 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) }),
      );
      return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const first = await createApiServer({ store, clock, flags, host: 'node', controllers: [], readFile });
    await first.idle();
    const discovery = (await call(first, 'GET', `${RBAC_API}/clusterroles/system:discovery`)).body;
    expect((await call(first, 'PUT', `${RBAC_API}/clusterroles/system:discovery`, { ...discovery, rules: [] })).status).toBe(200);
    const basic = (await call(first, 'GET', `${RBAC_API}/clusterroles/system:basic-user`)).body;
    const annotations = { ...basic.metadata.annotations, 'rbac.authorization.kubernetes.io/autoupdate': 'false' };
    expect((await call(first, 'PUT', `${RBAC_API}/clusterroles/system:basic-user`, { ...basic, metadata: { ...basic.metadata, annotations }, rules: [] })).status).toBe(200);
    expect((await call(first, 'DELETE', `${RBAC_API}/clusterrolebindings/system:discovery`)).status).toBe(200);

    const second = await createApiServer({ store, clock, flags, host: 'node', controllers: [], readFile });
    await second.idle();
    // The missing permissions come back one URL per rule, as kube's reconciler adds them.
    const urls = (discovery.rules as { nonResourceURLs: string[] }[]).flatMap((r) => r.nonResourceURLs);
    expect((await call(second, 'GET', `${RBAC_API}/clusterroles/system:discovery`)).body.rules).toEqual(urls.map((u) => ({ nonResourceURLs: [u], verbs: ['get'] })));
    expect((await call(second, 'GET', `${RBAC_API}/clusterroles/system:basic-user`)).body.rules).toEqual([]);
    expect((await call(second, 'GET', `${RBAC_API}/clusterrolebindings/system:discovery`)).status).toBe(200);
    // Nothing left to repair: a third start writes nothing.
    const revision = store.currentRevision();
    const third = await createApiServer({ store, clock, flags, host: 'node', controllers: [], readFile });
    await third.idle();
    expect(store.currentRevision()).toBe(revision);
  });
});
