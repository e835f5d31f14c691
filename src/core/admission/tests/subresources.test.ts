// Admission on the subresources kube admits with their own kind and
// operation (k8s.io/apiserver's create, update, patch and connect handlers):
//   pods/binding, bindings         CREATE of a v1 Binding
//   serviceaccounts/token          CREATE of an authentication.k8s.io/v1 TokenRequest
//   deployments/scale (any scale)  UPDATE of autoscaling/v1 Scales (old and new)
//   pods/exec, attach, portforward, proxy; nodes/proxy; services/proxy
//                                  CONNECT with the options object (PodExecOptions …)
// checked through what a webhook receives, what a ValidatingAdmissionPolicy
// refuses, and NodeRestriction's rules for a node's token requests.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { bearer, secureCluster, USERS } from '../../api/access/test-cluster';
import { registerPolicy, registerWebhook, stubWebhooks, type WebhookStub } from './webhook-stub';

let t: TestServer;
let hooks: WebhookStub;
beforeEach(async () => {
  hooks = stubWebhooks();
});
afterEach(async () => {
  hooks.restore();
  await t.close();
});

const NS = '/api/v1/namespaces/default';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});
const deployment = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});
const rule = (apiGroups: string[], operations: string[], resources: string[]) => ({ apiGroups, apiVersions: ['v1'], operations, resources });
const policyOn = (apiGroups: string[], operations: string[], resources: string[], expression: string, message: string) => ({
  matchConstraints: { resourceRules: [rule(apiGroups, operations, resources)] },
  validations: [{ expression, message }],
});
const lastReview = () => hooks.received[hooks.received.length - 1]!.review.request;

describe('pods/binding and bindings', () => {
  beforeEach(async () => {
    t = await startTestServer();
  });

  it('a webhook sees a CREATE of pods/binding with the Binding as object, named after the pod', async () => {
    await registerWebhook(t, 'Validating', 'watch', [rule([''], ['CREATE'], ['pods/binding', 'bindings'])]);
    await t.post(`${NS}/pods`, pod('p'));
    const res = await t.post(`${NS}/pods/p/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'n1' } });
    expect(res.status).toBe(201);
    expect(hooks.received).toHaveLength(1);
    expect(lastReview()).toMatchObject({
      kind: { group: '', version: 'v1', kind: 'Binding' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      subResource: 'binding',
      requestSubResource: 'binding',
      name: 'p',
      namespace: 'default',
      operation: 'CREATE',
      object: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p', namespace: 'default' }, target: { kind: 'Node', name: 'n1' } },
      oldObject: null,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    });
    // POST bindings: the resource is bindings, no subresource.
    await t.post(`${NS}/pods`, pod('q'));
    expect((await t.post(`${NS}/bindings`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'q' }, target: { name: 'n1' } })).status).toBe(201);
    expect(lastReview()).toMatchObject({ kind: { kind: 'Binding' }, resource: { resource: 'bindings' }, name: 'q', operation: 'CREATE' });
    expect(lastReview().subResource).toBeUndefined();
  });

  it('a policy refusing the binding leaves the pod unscheduled', async () => {
    await registerPolicy(t, 'no-bad-node', policyOn([''], ['CREATE'], ['pods/binding'], "object.target.name != 'bad'", 'not that node'));
    await t.post(`${NS}/pods`, pod('p'));
    const res = await t.post(`${NS}/pods/p/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { name: 'bad' } });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(`pods "p" is forbidden: ValidatingAdmissionPolicy 'no-bad-node' with binding 'no-bad-node-b' denied request: not that node`);
    expect((await t.get(`${NS}/pods/p`)).body.spec.nodeName).toBeUndefined();
    expect((await t.post(`${NS}/pods/p/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { name: 'good' } })).status).toBe(201);
    expect((await t.get(`${NS}/pods/p`)).body.spec.nodeName).toBe('good');
  });
});

describe('scale', () => {
  beforeEach(async () => {
    t = await startTestServer();
  });

  it('a webhook sees an UPDATE of deployments/scale with the new and old Scales (PUT: UpdateOptions, PATCH: PatchOptions)', async () => {
    expect((await t.post(DEPLOYMENTS, deployment('d'))).status).toBe(201);
    await registerWebhook(t, 'Validating', 'watch', [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['deployments/scale'] }]);
    const current = (await t.get(`${DEPLOYMENTS}/d/scale`)).body;
    expect((await t.put(`${DEPLOYMENTS}/d/scale`, { ...current, spec: { replicas: 3 } })).status).toBe(200);
    expect(hooks.received).toHaveLength(1);
    expect(lastReview()).toMatchObject({
      kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: 'scale',
      name: 'd',
      operation: 'UPDATE',
      object: { kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 } },
      oldObject: { kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 1 } },
      options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' },
    });
    expect((await t.patch(`${DEPLOYMENTS}/d/scale`, { spec: { replicas: 4 } }, 'application/merge-patch+json')).status).toBe(200);
    expect(lastReview()).toMatchObject({ operation: 'UPDATE', object: { kind: 'Scale', spec: { replicas: 4 } }, oldObject: { spec: { replicas: 3 } }, options: { kind: 'PatchOptions' } });
  });

  it('a policy on deployments/scale refuses a PUT and a PATCH; the Deployment keeps its replicas', async () => {
    expect((await t.post(DEPLOYMENTS, deployment('d'))).status).toBe(201);
    await registerPolicy(t, 'max-five', policyOn(['apps'], ['UPDATE'], ['deployments/scale'], 'object.spec.replicas <= 5', 'at most five'));
    const current = (await t.get(`${DEPLOYMENTS}/d/scale`)).body;
    const put = await t.put(`${DEPLOYMENTS}/d/scale`, { ...current, spec: { replicas: 10 } });
    expect(put.status).toBe(422);
    expect(put.body.message).toBe(`deployments.apps "d" is forbidden: ValidatingAdmissionPolicy 'max-five' with binding 'max-five-b' denied request: at most five`);
    expect((await t.patch(`${DEPLOYMENTS}/d/scale`, { spec: { replicas: 6 } }, 'application/merge-patch+json')).status).toBe(422);
    expect((await t.get(`${DEPLOYMENTS}/d`)).body.spec.replicas).toBe(1);
    expect((await t.patch(`${DEPLOYMENTS}/d/scale`, { spec: { replicas: 5 } }, 'application/merge-patch+json')).status).toBe(200);
    expect((await t.get(`${DEPLOYMENTS}/d`)).body.spec.replicas).toBe(5);
  });

  it('a mutating webhook\'s change to the Scale reaches the parent', async () => {
    expect((await t.post(DEPLOYMENTS, deployment('d'))).status).toBe(201);
    hooks.answer = () => ({ allowed: true, patch: Buffer.from(JSON.stringify([{ op: 'replace', path: '/spec/replicas', value: 2 }])).toString('base64'), patchType: 'JSONPatch' });
    await registerWebhook(t, 'Mutating', 'cap', [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['deployments/scale'] }]);
    const res = await t.patch(`${DEPLOYMENTS}/d/scale`, { spec: { replicas: 9 } }, 'application/merge-patch+json');
    expect(res.status).toBe(200);
    expect(res.body.spec.replicas).toBe(2);
    expect((await t.get(`${DEPLOYMENTS}/d`)).body.spec.replicas).toBe(2);
  });
});

describe('CONNECT subresources', () => {
  beforeEach(async () => {
    t = await startTestServer();
  });

  it('exec: a webhook sees CONNECT of pods/exec with the PodExecOptions from the query, before the upgrade is asked for', async () => {
    await t.post(`${NS}/pods`, pod('p'));
    await registerWebhook(t, 'Validating', 'watch', [rule([''], ['CONNECT'], ['pods/exec', 'pods/attach', 'pods/portforward', 'pods/proxy', 'services/proxy', 'nodes/proxy'])]);
    const res = await t.request('POST', `${NS}/pods/p/exec?command=ls&command=-l&container=c&stdout=true&stderr=true`);
    // Admitted; then kube's streamLocation looks at the pod, which is on no node.
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('pod p does not have a host assigned');
    expect(lastReview()).toEqual({
      uid: lastReview().uid,
      kind: { group: '', version: 'v1', kind: 'PodExecOptions' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      subResource: 'exec',
      requestKind: { group: '', version: 'v1', kind: 'PodExecOptions' },
      requestResource: { group: '', version: 'v1', resource: 'pods' },
      requestSubResource: 'exec',
      name: 'p',
      namespace: 'default',
      operation: 'CONNECT',
      userInfo: {},
      object: { kind: 'PodExecOptions', apiVersion: 'v1', stdout: true, stderr: true, container: 'c', command: ['ls', '-l'] },
      oldObject: null,
      dryRun: false,
    });
    await t.request('GET', `${NS}/pods/p/attach?stdin=1&tty=true`);
    expect(lastReview()).toMatchObject({ kind: { kind: 'PodAttachOptions' }, subResource: 'attach', object: { kind: 'PodAttachOptions', apiVersion: 'v1', stdin: true, tty: true } });
    await t.request('GET', `${NS}/pods/p/portforward?ports=8080`);
    expect(lastReview()).toMatchObject({ kind: { kind: 'PodPortForwardOptions' }, subResource: 'portforward', object: { kind: 'PodPortForwardOptions', ports: [8080] } });
  });

  it('proxy: pods, services and nodes send their *ProxyOptions (path: what follows /proxy, never ?path=)', async () => {
    await t.post(`${NS}/pods`, pod('p'));
    await registerWebhook(t, 'Validating', 'watch', [rule([''], ['CONNECT'], ['pods/proxy', 'services/proxy', 'nodes/proxy'])]);
    await t.get(`${NS}/pods/p/proxy?path=/ignored`);
    expect(lastReview()).toMatchObject({ kind: { kind: 'PodProxyOptions' }, subResource: 'proxy', name: 'p', operation: 'CONNECT', object: { kind: 'PodProxyOptions', apiVersion: 'v1' } });
    expect(lastReview().object.path).toBeUndefined();
    await t.get(`${NS}/services/web:80/proxy/`);
    expect(lastReview()).toMatchObject({ kind: { kind: 'ServiceProxyOptions' }, resource: { resource: 'services' }, name: 'web:80', object: { kind: 'ServiceProxyOptions', path: '/' } });
    await t.get('/api/v1/nodes/n1/proxy');
    expect(lastReview()).toMatchObject({ kind: { kind: 'NodeProxyOptions' }, resource: { resource: 'nodes' }, name: 'n1', object: { kind: 'NodeProxyOptions' } });
    expect(lastReview().namespace).toBeUndefined();
  });

  it('a policy on CONNECT pods/exec refuses a tty exec (403 before anything else)', async () => {
    await t.post(`${NS}/pods`, pod('p'));
    await registerPolicy(t, 'no-tty', { ...policyOn([''], ['CONNECT'], ['pods/exec'], '!(has(object.tty) && object.tty)', 'no interactive exec'), failurePolicy: 'Fail' });
    const refused = await t.request('POST', `${NS}/pods/p/exec?command=sh&stdin=true&tty=true`);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(`pods "p" is forbidden: ValidatingAdmissionPolicy 'no-tty' with binding 'no-tty-b' denied request: no interactive exec`);
    expect((await t.request('POST', `${NS}/pods/p/exec?command=ls`)).status).toBe(400);
  });
});

describe('serviceaccounts/token', () => {
  it('a webhook sees a CREATE of serviceaccounts/token with the TokenRequest, named after the account', async () => {
    t = await secureCluster();
    await t.post(`${NS}/serviceaccounts`, { metadata: { name: 'builder' } });
    await registerWebhook(t, 'Validating', 'watch', [rule([''], ['CREATE'], ['serviceaccounts/token'])]);
    const res = await t.post(`${NS}/serviceaccounts/builder/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['vault'], expirationSeconds: 600 } });
    expect(res.status).toBe(201);
    expect(lastReview()).toMatchObject({
      kind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
      resource: { group: '', version: 'v1', resource: 'serviceaccounts' },
      subResource: 'token',
      name: 'builder',
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: 'kubetab-admin' },
      object: { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata: { name: 'builder', namespace: 'default' }, spec: { audiences: ['vault'], expirationSeconds: 600 } },
    });
    // The validating phase never sees the issued token.
    expect(lastReview().object.status).toEqual({ token: '', expirationTimestamp: null });
  });

  it('a webhook denial refuses the token', async () => {
    t = await secureCluster();
    await t.post(`${NS}/serviceaccounts`, { metadata: { name: 'builder' } });
    hooks.answer = () => ({ allowed: false, status: { code: 403, message: 'tokens are issued elsewhere' } });
    await registerWebhook(t, 'Validating', 'deny', [rule([''], ['CREATE'], ['serviceaccounts/token'])]);
    const res = await t.post(`${NS}/serviceaccounts/builder/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('admission webhook "deny.example.com" denied the request: tokens are issued elsewhere');
    expect(res.body.status).toBe('Failure');
  });

  it('NodeRestriction: a node gets tokens only bound to its own pods', async () => {
    t = await secureCluster();
    await t.post(`${NS}/serviceaccounts`, { metadata: { name: 'builder' } });
    const mine = await t.post(`${NS}/pods`, pod('mine', { nodeName: 'node1', serviceAccountName: 'builder' }));
    const theirs = await t.post(`${NS}/pods`, pod('theirs', { nodeName: 'node2', serviceAccountName: 'builder' }));
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    const node = bearer(USERS.node1);
    const request = (boundObjectRef?: Record<string, unknown>) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: boundObjectRef ? { boundObjectRef } : {} });
    const tokenPath = `${NS}/serviceaccounts/builder/token`;
    let unbound = await t.post(tokenPath, request(), node);
    // The Node authorizer learns the pod → node edge from the store's watch.
    for (let i = 0; i < 50 && unbound.status === 403 && !unbound.body.message.includes('node requested'); i++) {
      await new Promise((r) => setTimeout(r, 10));
      unbound = await t.post(tokenPath, request(), node);
    }
    expect(unbound.status).toBe(403);
    expect(unbound.body.message).toBe('serviceaccounts "builder" is forbidden: node requested token not bound to a pod');
    const noUid = await t.post(tokenPath, request({ apiVersion: 'v1', kind: 'Pod', name: 'mine' }), node);
    expect(noUid.body.message).toBe('serviceaccounts "builder" is forbidden: node requested token with a pod binding without a uid');
    const elsewhere = await t.post(tokenPath, request({ apiVersion: 'v1', kind: 'Pod', name: 'theirs', uid: theirs.body.metadata.uid }), node);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.message).toBe('serviceaccounts "builder" is forbidden: node requested token bound to a pod scheduled on a different node');
    const ok = await t.post(tokenPath, request({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: mine.body.metadata.uid }), node);
    expect(ok.status).toBe(201);
    expect(ok.body.status.token).toMatch(/^ey/);
  });
});
