// Authorization through HTTP (spec 001 "Decision rules", "Modes", "RBAC
// rules", "Node authorizer", "Errors"): the chain in its configured order,
// kube's 403 texts, 500 when an authorizer failed, and the attributes
// authorizers receive (verbs from methods, subresources, names, selectors).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test-support/api-harness';
import { ANONYMOUS, bearer, rbac, RBAC_API, secureCluster, USERS } from './test-cluster';

const alice = bearer(USERS.alice);

describe('RBAC decisions and 403 texts', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await secureCluster({}, { controllers: ['clusterrole-aggregation-controller'] });
    await ts.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    await ts.post(`${RBAC_API}/namespaces/team/roles`, rbac.role('team', 'cm-reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]));
    await ts.post(`${RBAC_API}/namespaces/team/rolebindings`, rbac.roleBinding('team', 'alice-reads', { kind: 'Role', name: 'cm-reader' }, [rbac.user('alice')]));
    await ts.post(`${RBAC_API}/namespaces/team/roles`, rbac.role('team', 'one-secret', [{ apiGroups: [''], resources: ['secrets'], resourceNames: ['token'], verbs: ['get'] }]));
    await ts.post(`${RBAC_API}/namespaces/team/rolebindings`, rbac.roleBinding('team', 'alice-one-secret', { kind: 'Role', name: 'one-secret' }, [rbac.user('alice')]));
    await ts.server.idle();
  });
  afterAll(() => ts.close());

  it('a grant in a RoleBinding allows in its namespace only (rule: RoleBinding scope)', async () => {
    expect((await ts.get('/api/v1/namespaces/team/configmaps', alice)).status).toBe(200);
    const other = await ts.get('/api/v1/namespaces/default/configmaps', alice);
    expect(other.status).toBe(403);
    expect(other.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"',
      reason: 'Forbidden',
      details: { kind: 'configmaps' },
      code: 403,
    });
  });

  it('verbs come from the method: POST create, PUT update, DELETE delete or deletecollection, ?watch (rule: resource verbs)', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'team' } };
    expect((await ts.post('/api/v1/namespaces/team/configmaps', cm, alice)).body.message).toBe(
      'configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "team"',
    );
    expect((await ts.put('/api/v1/namespaces/team/configmaps/x', cm, alice)).body.message).toBe(
      'configmaps "x" is forbidden: User "alice" cannot update resource "configmaps" in API group "" in the namespace "team"',
    );
    expect((await ts.del('/api/v1/namespaces/team/configmaps', undefined, alice)).body.message).toBe(
      'configmaps is forbidden: User "alice" cannot deletecollection resource "configmaps" in API group "" in the namespace "team"',
    );
    expect((await ts.get('/api/v1/namespaces/team/configmaps?watch=1', alice)).body.message).toBe(
      'configmaps is forbidden: User "alice" cannot watch resource "configmaps" in API group "" in the namespace "team"',
    );
  });

  it('resourceNames restrict to the named object; a subresource is its own resource (rule: resourceNames, subresources)', async () => {
    await ts.post('/api/v1/namespaces/team/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token' } });
    expect((await ts.get('/api/v1/namespaces/team/secrets/token', alice)).status).toBe(200);
    expect((await ts.get('/api/v1/namespaces/team/secrets/other', alice)).body.message).toBe(
      'secrets "other" is forbidden: User "alice" cannot get resource "secrets" in API group "" in the namespace "team"',
    );
    // A list pinned to the name by a field selector is authorized as that name.
    expect((await ts.get('/api/v1/namespaces/team/secrets?fieldSelector=metadata.name%3Dtoken', alice)).body.message).toBe(
      'secrets "token" is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "team"',
    );
    expect((await ts.get('/api/v1/namespaces/kube-system/pods/p/log', alice)).body.message).toBe(
      'pods "p" is forbidden: User "alice" cannot get resource "pods/log" in API group "" in the namespace "kube-system"',
    );
  });

  it('cluster-scoped resources and groups are named as kube names them', async () => {
    expect((await ts.get('/api/v1/nodes/n1', alice)).body).toMatchObject({
      message: 'nodes "n1" is forbidden: User "alice" cannot get resource "nodes" in API group "" at the cluster scope',
      details: { name: 'n1', kind: 'nodes' },
    });
    expect((await ts.get('/apis/apps/v1/namespaces/team/deployments', alice)).body).toMatchObject({
      message: 'deployments.apps is forbidden: User "alice" cannot list resource "deployments" in API group "apps" in the namespace "team"',
      details: { group: 'apps', kind: 'deployments' },
    });
  });

  it('authorization comes before routing: an unknown resource is 403 for a user who may not see it, 404 for one who may (rule: filter order)', async () => {
    expect((await ts.get('/apis/example.com/v1/widgets', alice)).status).toBe(403);
    expect((await ts.get('/apis/example.com/v1/widgets')).status).toBe(404);
  });

  it('discovery and public info are open to every authenticated user; /version and /healthz to anonymous (rule: discovery roles)', async () => {
    for (const path of ['/api', '/apis', '/api/v1', '/apis/apps/v1', '/openapi/v3', '/version']) {
      expect((await ts.get(path, alice)).status, path).toBe(200);
    }
    expect((await ts.get('/version', ANONYMOUS)).status).toBe(200);
    expect((await ts.get('/livez', ANONYMOUS)).status).toBe(200);
    expect((await ts.get('/metrics', alice)).body.message).toBe('forbidden: User "alice" cannot get path "/metrics"');
  });

  it('system:masters passes everything without any binding (rule: privileged group)', async () => {
    expect((await ts.del('/api/v1/nodes/whatever')).status).toBe(404);
  });
});

describe('the Node authorizer with selectors (AuthorizeNodeWithSelectors)', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await secureCluster();
  });
  afterAll(() => ts.close());

  it('a node lists pods only with a field selector on its own name (rule: selectors reach authorizers)', async () => {
    const node = bearer(USERS.node1);
    expect((await ts.get('/api/v1/pods?fieldSelector=spec.nodeName%3Dnode1', node)).status).toBe(200);
    const all = await ts.get('/api/v1/pods', node);
    expect(all.status).toBe(403);
    expect(all.body.message).toBe(
      'pods is forbidden: User "system:node:node1" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector',
    );
    expect((await ts.get('/api/v1/pods?fieldSelector=spec.nodeName%3Dnode2', node)).status).toBe(403);
  });

  it('a node reads the Secrets, ConfigMaps and service-account tokens of pods bound to it, not others (rule: the node graph)', async () => {
    const node = bearer(USERS.node1);
    const pod = (name: string, nodeName: string) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default' },
      spec: {
        nodeName,
        serviceAccountName: 'runner',
        containers: [{ name: 'c', image: 'busybox', envFrom: [{ configMapRef: { name: `${name}-env` } }] }],
        volumes: [{ name: 'creds', secret: { secretName: `${name}-creds` } }],
      },
    });
    for (const p of [pod('here', 'node1'), pod('there', 'node2')]) expect((await ts.post('/api/v1/namespaces/default/pods', p)).status).toBe(201);
    for (const name of ['here-creds', 'there-creds']) await ts.post('/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name } });
    expect((await ts.get('/api/v1/namespaces/default/secrets/here-creds', node)).status).toBe(200);
    const other = await ts.get('/api/v1/namespaces/default/secrets/there-creds', node);
    expect(other.status).toBe(403);
    expect(other.body.message).toBe(
      'secrets "there-creds" is forbidden: User "system:node:node1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node \'node1\' and this object',
    );
    expect((await ts.get('/api/v1/namespaces/default/configmaps/here-env', node)).status).toBe(404);
    expect((await ts.get('/api/v1/namespaces/default/configmaps/there-env', node)).status).toBe(403);
    expect((await ts.get('/api/v1/namespaces/default/pods/here', node)).status).toBe(200);
    expect((await ts.get('/api/v1/namespaces/default/pods/there', node)).status).toBe(403);
    // Deleting the pod removes the relationship.
    await ts.del('/api/v1/namespaces/default/pods/here?gracePeriodSeconds=0');
    expect((await ts.get('/api/v1/namespaces/default/secrets/here-creds', node)).status).toBe(403);
  });

  it('a node reads its own Node object only', async () => {
    await ts.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node1' } });
    await ts.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node2' } });
    expect((await ts.get('/api/v1/nodes/node1', bearer(USERS.node1))).status).toBe(200);
    expect((await ts.get('/api/v1/nodes/node2', bearer(USERS.node1))).status).toBe(403);
  });
});

describe('other modes', () => {
  it('AlwaysDeny: 403 with its reason "Everything is forbidden." (rule: no opinion everywhere is a denial)', async () => {
    const ts = await secureCluster({ 'authorization-mode': 'AlwaysDeny' });
    try {
      const res = await ts.get('/api/v1/namespaces', alice);
      expect(res.body.message).toBe('namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope: Everything is forbidden.');
      // system:masters comes first in kube's chain.
      expect((await ts.get('/api/v1/namespaces')).status).toBe(200);
    } finally {
      await ts.close();
    }
  });

  it('ABAC policy lines, and RBAC after it (rule: first Allow decides)', async () => {
    const policy = [
      '{"apiVersion": "abac.authorization.kubernetes.io/v1beta1", "kind": "Policy", "spec": {"user": "alice", "namespace": "*", "resource": "pods", "apiGroup": "*", "readonly": true}}',
      '{"apiVersion": "abac.authorization.kubernetes.io/v1beta1", "kind": "Policy", "spec": {"group": "system:authenticated", "nonResourcePath": "*", "readonly": true}}',
    ].join('\n');
    const ts = await secureCluster({ 'authorization-mode': 'ABAC,RBAC', 'authorization-policy-file': '/etc/kubetab/abac.jsonl' }, { files: { '/etc/kubetab/abac.jsonl': policy } });
    try {
      expect((await ts.get('/api/v1/namespaces/default/pods', alice)).status).toBe(200);
      expect((await ts.get('/healthz', alice)).status).toBe(200);
      expect((await ts.post('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }, alice)).status).toBe(403);
      expect((await ts.get('/api/v1/namespaces/default/services', alice)).status).toBe(403);
    } finally {
      await ts.close();
    }
  });

  it('an authorization webhook that cannot be reached: failurePolicy Deny answers 500, NoOpinion lets RBAC decide (rule: failurePolicy)', async () => {
    const kubeconfig = [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: hook, cluster: {server: "http://127.0.0.1:9/authorize"}}]',
      'users: [{name: apiserver, user: {}}]',
      'contexts: [{name: hook, context: {cluster: hook, user: apiserver}}]',
      'current-context: hook',
    ].join('\n');
    const config = (policy: string) =>
      [
        'apiVersion: apiserver.config.k8s.io/v1',
        'kind: AuthorizationConfiguration',
        'authorizers:',
        '- type: Webhook',
        '  name: hook',
        '  webhook:',
        '    timeout: 3s',
        '    subjectAccessReviewVersion: v1',
        '    matchConditionSubjectAccessReviewVersion: v1',
        `    failurePolicy: ${policy}`,
        '    connectionInfo:',
        '      type: KubeConfigFile',
        '      kubeConfigFile: /etc/kubetab/hook.kubeconfig',
        '- type: RBAC',
        '  name: rbac',
      ].join('\n');
    for (const policy of ['Deny', 'NoOpinion']) {
      const ts = await secureCluster(
        { 'authorization-config': '/etc/kubetab/authz.yaml' },
        { files: { '/etc/kubetab/authz.yaml': config(policy), '/etc/kubetab/hook.kubeconfig': kubeconfig } },
      );
      try {
        // Nobody allows and an authorizer failed: kube answers 500 in plain text.
        const res = await ts.get('/api/v1/namespaces/default/pods', alice);
        expect(res.status).toBe(500);
        expect(res.headers.get('content-type')).toBe('text/plain');
        expect(res.text).toMatch(/^Internal Server Error: "\/api\/v1\/namespaces\/default\/pods": /);
        // Deny stops the chain at the webhook; NoOpinion goes on to RBAC, which allows discovery.
        expect((await ts.get('/apis', alice)).status).toBe(policy === 'Deny' ? 500 : 200);
        // system:masters is asked first, before any webhook.
        expect((await ts.get('/api/v1/namespaces/default/pods')).status).toBe(200);
      } finally {
        await ts.close();
      }
    }
  });
});
