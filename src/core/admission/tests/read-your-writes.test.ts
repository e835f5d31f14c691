// Admission reads its configuration from in-memory copies (decision 0320);
// rule checked here: a write right after a change to a namespace, policy,
// binding, webhook configuration, ResourceQuota or LimitRange is admitted
// by the changed configuration, with no pause in between (kube's informers
// may lag; KubeTab's tutorials and tests rely on read-your-writes).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { stubWebhooks, type WebhookStub } from './webhook-stub';

let t: TestServer;
let stub: WebhookStub | undefined;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  stub?.restore();
  stub = undefined;
  await t.close();
});

const AR = '/apis/admissionregistration.k8s.io/v1';
const cm = (name: string, data: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
const pod = (name: string) => ({ metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx' }] } });

describe('admission sees every configuration change at once', () => {
  it('namespaces: a create in a namespace made just before, then refused once it is terminating', async () => {
    expect((await t.post('/api/v1/namespaces/fresh/configmaps', cm('early'))).status).toBe(404);
    expect((await t.post('/api/v1/namespaces', { metadata: { name: 'fresh' } })).status).toBe(201);
    expect((await t.post('/api/v1/namespaces/fresh/configmaps', cm('a'))).status).toBe(201);
    expect((await t.del('/api/v1/namespaces/fresh')).status).toBe(200);
    const refused = await t.post('/api/v1/namespaces/fresh/configmaps', cm('b'));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('configmaps "b" is forbidden: unable to create new content in namespace fresh because it is being terminated');
  });

  it('ValidatingAdmissionPolicy: a binding takes effect, a changed rule applies, a deleted binding stops it', async () => {
    const rules = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }];
    const created = await t.post(`${AR}/validatingadmissionpolicies`, {
      metadata: { name: 'keys' },
      spec: { matchConstraints: { resourceRules: rules }, validations: [{ expression: 'size(object.data) <= 1', message: 'at most one key' }] },
    });
    expect(created.status).toBe(201);
    // Without a binding the policy does nothing.
    expect((await t.post('/api/v1/namespaces/default/configmaps', cm('two', { a: '1', b: '2' }))).status).toBe(201);
    expect((await t.post(`${AR}/validatingadmissionpolicybindings`, { metadata: { name: 'keys-b' }, spec: { policyName: 'keys', validationActions: ['Deny'] } })).status).toBe(201);
    expect((await t.post('/api/v1/namespaces/default/configmaps', cm('two-b', { a: '1', b: '2' }))).status).toBe(422);
    const policy = (await t.get(`${AR}/validatingadmissionpolicies/keys`)).body;
    policy.spec.validations = [{ expression: 'size(object.data) == 0', message: 'no keys' }];
    expect((await t.put(`${AR}/validatingadmissionpolicies/keys`, policy)).status).toBe(200);
    const one = await t.post('/api/v1/namespaces/default/configmaps', cm('one', { a: '1' }));
    expect(one.status).toBe(422);
    expect(one.body.message).toBe("configmaps \"one\" is forbidden: ValidatingAdmissionPolicy 'keys' with binding 'keys-b' denied request: no keys");
    expect((await t.del(`${AR}/validatingadmissionpolicybindings/keys-b`)).status).toBe(200);
    expect((await t.post('/api/v1/namespaces/default/configmaps', cm('one-b', { a: '1' }))).status).toBe(201);
  });

  it('webhooks: a configuration is called for the next write, and not after it is deleted', async () => {
    stub = stubWebhooks(() => ({ allowed: false, status: { message: 'no' } }));
    const config = {
      metadata: { name: 'deny' },
      webhooks: [
        {
          name: 'deny.example.com',
          clientConfig: { url: 'https://hook.example.com/deny' },
          rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    };
    expect((await t.post(`${AR}/validatingwebhookconfigurations`, config)).status).toBe(201);
    const refused = await t.post('/api/v1/namespaces/default/configmaps', cm('x'));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('admission webhook "deny.example.com" denied the request: no');
    expect((await t.del(`${AR}/validatingwebhookconfigurations/deny`)).status).toBe(200);
    expect((await t.post('/api/v1/namespaces/default/configmaps', cm('y'))).status).toBe(201);
    expect(stub.received).toHaveLength(1);
  });

  it('ResourceQuota: hard limits count from the next write, and stop when the quota goes', async () => {
    const NS = '/api/v1/namespaces/default';
    expect((await t.post(`${NS}/resourcequotas`, { metadata: { name: 'cms' }, spec: { hard: { configmaps: '0' } } })).status).toBe(201);
    // What the controller would write (the test server runs none).
    const quota = (await t.get(`${NS}/resourcequotas/cms`)).body;
    quota.status = { hard: { configmaps: '0' }, used: { configmaps: '0' } };
    expect((await t.put(`${NS}/resourcequotas/cms/status`, quota)).status).toBe(200);
    const used = (await t.get(`${NS}/configmaps`)).body.items.length;
    const refused = await t.post(`${NS}/configmaps`, cm('over'));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(`configmaps "over" is forbidden: exceeded quota: cms, requested: configmaps=1, used: configmaps=${used}, limited: configmaps=0`);
    expect((await t.del(`${NS}/resourcequotas/cms`)).status).toBe(200);
    expect((await t.post(`${NS}/configmaps`, cm('over'))).status).toBe(201);
  });

  it('LimitRanger: defaults from a LimitRange made just before, none once it is deleted', async () => {
    const NS = '/api/v1/namespaces/default';
    const lr = { metadata: { name: 'defaults' }, spec: { limits: [{ type: 'Container', default: { cpu: '500m' } }] } };
    expect((await t.post(`${NS}/limitranges`, lr)).status).toBe(201);
    expect((await t.post(`${NS}/pods`, pod('p1'))).body.spec.containers[0].resources).toEqual({ limits: { cpu: '500m' }, requests: { cpu: '500m' } });
    expect((await t.del(`${NS}/limitranges/defaults`)).status).toBe(200);
    expect((await t.post(`${NS}/pods`, pod('p2'))).body.spec.containers[0].resources).toBeUndefined();
  });
});
