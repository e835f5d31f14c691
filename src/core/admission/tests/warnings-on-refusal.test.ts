// Warnings reach the client with a refusal too: kube-apiserver's warning
// recorder is per request and writes each warning as a `Warning: 299 - "…"`
// header as it is added, so an error response carries every warning recorded
// before the request failed — a policy's Warn action, a webhook's warnings
// (added before its denial is looked at), field-validation warnings of the
// body. A successful write carries each warning once.

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

const CM = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, data: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
const configmapRules = (operations: string[]) => ({
  matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations, resources: ['configmaps'] }] },
});

const WARN = "Validation failed for ValidatingAdmissionPolicy 'prefer-small' with binding 'prefer-small-b': prefer one key";

describe('Warning headers on refused requests', () => {
  it('a ValidatingAdmissionPolicy Warn is sent with another policy\'s denial (422)', async () => {
    await registerPolicy(t, 'prefer-small', { ...configmapRules(['CREATE']), validations: [{ expression: 'size(object.data) <= 1', message: 'prefer one key' }] }, ['Warn']);
    await registerPolicy(t, 'max-two', { ...configmapRules(['CREATE']), validations: [{ expression: 'size(object.data) <= 2', message: 'at most two keys' }] });
    const refused = await t.post(CM, cm('big', { a: '1', b: '2', c: '3' }));
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(`configmaps "big" is forbidden: ValidatingAdmissionPolicy 'max-two' with binding 'max-two-b' denied request: at most two keys`);
    expect(refused.headers.get('warning')).toBe(`299 - ${JSON.stringify(WARN)}`);
    // The success path: the same warning, once.
    const created = await t.post(CM, cm('two', { a: '1', b: '2' }));
    expect(created.status).toBe(201);
    expect(created.headers.get('warning')).toBe(`299 - ${JSON.stringify(WARN)}`);
  });

  it('a denying validating webhook\'s own warnings come with its 403', async () => {
    hooks.answer = () => ({ allowed: false, status: { code: 403, message: 'no thanks' }, warnings: ['think twice', 'really'] });
    await registerWebhook(t, 'Validating', 'deny', [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }]);
    const res = await t.post(CM, cm('x'));
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('admission webhook "deny.example.com" denied the request: no thanks');
    expect(res.headers.get('warning')).toBe('299 - "think twice", 299 - "really"');
  });

  it('field-validation warnings of the body (fieldValidation=Warn) and a mutating webhook\'s come with a later denial, in the order they were added', async () => {
    hooks.answer = (review) => (review.request.operation === 'CREATE' ? { allowed: true, warnings: ['from the mutating webhook'] } : { allowed: true });
    await registerWebhook(t, 'Mutating', 'note', [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }]);
    await registerPolicy(t, 'named', { ...configmapRules(['CREATE']), validations: [{ expression: "object.metadata.name != 'nope'", message: 'not that name' }] });
    const res = await t.post(`${CM}?fieldValidation=Warn`, { ...cm('nope'), bogus: 1 });
    expect(res.status).toBe(422);
    expect(res.headers.get('warning')).toBe('299 - "unknown field \\"bogus\\"", 299 - "from the mutating webhook"');
  });

  it('a refused update and a refused delete carry the warnings recorded before the refusal', async () => {
    expect((await t.post(CM, cm('keep', { a: '1' }))).status).toBe(201);
    await registerPolicy(t, 'prefer-small', { ...configmapRules(['UPDATE', 'DELETE']), validations: [{ expression: 'false', message: 'prefer one key' }] }, ['Warn']);
    await registerPolicy(t, 'frozen', { ...configmapRules(['UPDATE', 'DELETE']), validations: [{ expression: 'false', message: 'frozen' }], failurePolicy: 'Fail' });
    const put = await t.put(`${CM}/keep`, cm('keep', { a: '2' }));
    expect(put.status).toBe(422);
    expect(put.headers.get('warning')).toBe(`299 - ${JSON.stringify(WARN)}`);
    const patch = await t.patch(`${CM}/keep`, { data: { a: '3' } }, 'application/merge-patch+json');
    expect(patch.status).toBe(422);
    expect(patch.headers.get('warning')).toBe(`299 - ${JSON.stringify(WARN)}`);
    const del = await t.del(`${CM}/keep`);
    expect(del.status).toBe(422);
    expect(del.headers.get('warning')).toBe(`299 - ${JSON.stringify(WARN)}`);
    expect((await t.get(`${CM}/keep`)).body.data).toEqual({ a: '1' });
  });

  it('a request refused before admission sends no Warning header', async () => {
    const res = await t.get(`${CM}/missing`);
    expect(res.status).toBe(404);
    expect(res.headers.get('warning')).toBeNull();
  });
});
