// Audit annotations added by admission plugins reach the request's
// audit.k8s.io/v1 Event (kube's admission audit handler adds them to the
// request's audit context, refused requests included): PodSecurity's
// enforce-policy, a mutating webhook's round_<n>_index_<i> record, a
// ValidatingAdmissionPolicy's <policy>/<key>. Read back through the audit
// log endpoint.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { registerPolicy, registerWebhook, stubWebhooks, type WebhookStub } from './webhook-stub';

let t: TestServer;
let hooks: WebhookStub;
beforeEach(async () => {
  hooks = stubWebhooks();
  t = await startTestServer();
});
afterEach(async () => {
  hooks.restore();
  await t.close();
});

interface Item {
  event: { verb: string; requestURI: string; objectRef?: { name?: string }; responseStatus?: { code?: number }; annotations?: Record<string, string> };
}

/** The last create event recorded for this request URI. */
async function eventFor(uri: string): Promise<Item['event'] | undefined> {
  const items = (await t.get('/kubetab/v1/audit?limit=500')).body.items as Item[];
  return items
    .map((i) => i.event)
    .filter((e) => e.verb === 'create' && e.requestURI === uri)
    .pop();
}

/** The authorizer's own annotations (no authorization configured: allowed). */
const ALLOWED = { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' };

const pod = (name: string, privileged = false) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx', ...(privileged ? { securityContext: { privileged: true } } : {}) }] },
});

describe('admission audit annotations in the audit event', () => {
  it('PodSecurity\'s enforce-policy on an admitted pod and on a refused one (403)', async () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'secured', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } };
    expect((await t.post('/api/v1/namespaces', ns)).status).toBe(201);
    const uri = '/api/v1/namespaces/secured/pods';
    expect((await t.post(uri, pod('ok'))).status).toBe(201);
    const admitted = await eventFor(uri);
    expect(admitted?.annotations).toEqual({ ...ALLOWED, 'pod-security.kubernetes.io/enforce-policy': 'baseline:latest' });

    expect((await t.post(`${uri}?dryRun=All`, pod('bad', true))).status).toBe(403);
    const refused = await eventFor(`${uri}?dryRun=All`);
    expect(refused?.responseStatus?.code).toBe(403);
    expect(refused?.annotations).toEqual({ ...ALLOWED, 'pod-security.kubernetes.io/enforce-policy': 'baseline:latest' });
  });

  it('a mutating webhook\'s round record and a policy\'s audit annotation', async () => {
    await registerWebhook(t, 'Mutating', 'm', [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }]);
    await registerPolicy(
      t,
      'p',
      {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
        validations: [{ expression: 'true' }],
        auditAnnotations: [{ key: 'who', valueExpression: "'made ' + object.metadata.name" }],
      },
      ['Audit'],
    );
    const uri = '/api/v1/namespaces/default/configmaps';
    expect((await t.post(uri, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } })).status).toBe(201);
    const event = await eventFor(uri);
    expect(event?.annotations).toEqual({
      ...ALLOWED,
      'mutation.webhook.admission.k8s.io/round_0_index_0': '{"configuration":"m","webhook":"m.example.com","mutated":false}',
      'p/who': 'made c',
    });
  });
});
