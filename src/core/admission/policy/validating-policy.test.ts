// ValidatingAdmissionPolicy through the API (admissionregistration.k8s.io/v1,
// on by default in 1.32): kube's denial message and status codes, messages
// from message/messageExpression/expression, params (paramKind/paramRef),
// Warn actions as Warning headers, matchConditions, variables, failurePolicy.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

const AR = '/apis/admissionregistration.k8s.io/v1';
const CM = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });

async function policy(name: string, spec: Record<string, unknown>) {
  const res = await t.post(`${AR}/validatingadmissionpolicies`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }] },
      ...spec,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

async function binding(name: string, policyName: string, spec: Record<string, unknown> = {}) {
  const res = await t.post(`${AR}/validatingadmissionpolicybindings`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName, validationActions: ['Deny'], ...spec },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

describe('ValidatingAdmissionPolicy', () => {
  it('denies with kube\'s message, reason Invalid and 422 by default, one cause', async () => {
    await policy('max-keys', { validations: [{ expression: 'size(object.data) <= 1', message: 'at most one key' }] });
    await binding('max-keys-b', 'max-keys');
    expect((await t.post(CM, cm('ok', { a: '1' }))).status).toBe(201);
    const res = await t.post(CM, cm('big', { a: '1', b: '2' }));
    expect(res.status).toBe(422);
    const message = "ValidatingAdmissionPolicy 'max-keys' with binding 'max-keys-b' denied request: at most one key";
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `configmaps "big" is forbidden: ${message}`,
      reason: 'Invalid',
      details: { name: 'big', kind: 'configmaps', causes: [{ message }] },
      code: 422,
    });
    expect((await t.get(`${CM}/big`)).status).toBe(404);
  });

  it('uses the validation\'s reason for the code, messageExpression, then the expression itself', async () => {
    await policy('p', {
      validations: [
        { expression: "!has(object.data) || !('x' in object.data)", messageExpression: "'key x is not allowed in ' + object.metadata.name", reason: 'Forbidden' },
        { expression: "object.metadata.name != 'bad'" },
      ],
    });
    await binding('b', 'p');
    const x = await t.post(CM, cm('c', { x: '1' }));
    expect(x.status).toBe(403);
    expect(x.body.reason).toBe('Forbidden');
    expect(x.body.message).toBe("configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: key x is not allowed in c");
    const bad = await t.post(CM, cm('bad'));
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe("configmaps \"bad\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed expression: object.metadata.name != 'bad'");
  });

  it('reads params through paramRef and refuses when none is found with parameterNotFoundAction Deny', async () => {
    await policy('limits', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [{ expression: 'size(object.data) <= int(params.data.max)', messageExpression: "'too many keys, max ' + params.data.max" }],
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }], objectSelector: { matchLabels: { checked: 'yes' } } },
    });
    await binding('limits-b', 'limits', { paramRef: { name: 'limits-params', namespace: 'default', parameterNotFoundAction: 'Deny' } });
    const missing = await t.post(CM, cm('a', {}, { checked: 'yes' }));
    expect(missing.status).toBe(422);
    expect(missing.body.message).toBe(
      "configmaps \"a\" is forbidden: ValidatingAdmissionPolicy 'limits' with binding 'limits-b' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
    expect((await t.post(CM, cm('limits-params', { max: '1' }))).status).toBe(201);
    expect((await t.post(CM, cm('one', { a: '1' }, { checked: 'yes' }))).status).toBe(201);
    const two = await t.post(CM, cm('two', { a: '1', b: '2' }, { checked: 'yes' }));
    expect(two.body.message).toBe("configmaps \"two\" is forbidden: ValidatingAdmissionPolicy 'limits' with binding 'limits-b' denied request: too many keys, max 1");
  });

  it('turns Warn actions into Warning headers and admits', async () => {
    await policy('w', { validations: [{ expression: "object.metadata.name.startsWith('app-')", message: 'names should start with app-' }] });
    await binding('wb', 'w', { validationActions: ['Warn', 'Audit'] });
    const res = await t.post(CM, cm('x'));
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBe(`299 - "Validation failed for ValidatingAdmissionPolicy 'w' with binding 'wb': names should start with app-"`);
  });

  it('skips requests its matchConditions exclude and evaluates variables', async () => {
    await policy('v', {
      matchConditions: [{ name: 'not-system', expression: "!object.metadata.name.startsWith('system-')" }],
      variables: [{ name: 'keys', expression: 'has(object.data) ? size(object.data) : 0' }],
      validations: [{ expression: 'variables.keys == 0', message: 'no data allowed' }],
    });
    await binding('vb', 'v');
    expect((await t.post(CM, cm('system-x', { a: '1' }))).status).toBe(201);
    expect((await t.post(CM, cm('y', { a: '1' }))).body.message).toContain('denied request: no data allowed');
  });

  it('fails closed on evaluation errors unless failurePolicy is Ignore', async () => {
    await policy('err', { validations: [{ expression: 'object.data.missing == "x"' }] });
    await binding('errb', 'err');
    const res = await t.post(CM, cm('e', { a: '1' }));
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/^configmaps "e" is forbidden: ValidatingAdmissionPolicy 'err' with binding 'errb' denied request: expression 'object.data.missing == "x"' resulted in error: /);
    await t.patch(`${AR}/validatingadmissionpolicies/err`, { spec: { failurePolicy: 'Ignore' } }, 'application/merge-patch+json');
    expect((await t.post(CM, cm('e', { a: '1' }))).status).toBe(201);
  });

  it('does nothing without a binding, and never applies to the admission objects themselves', async () => {
    await policy('unbound', { validations: [{ expression: 'false' }] });
    expect((await t.post(CM, cm('free'))).status).toBe(201);
  });

  it('sees DELETE with oldObject and a null object, and the request variable', async () => {
    await policy('keep', {
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['configmaps'] }] },
      validations: [{ expression: "object == null && !(has(oldObject.metadata.labels) && 'keep' in oldObject.metadata.labels)", messageExpression: "request.operation + ' of ' + request.name + ' refused'" }],
    });
    await binding('keep-b', 'keep');
    await t.post(CM, cm('kept', {}, { keep: 'yes' }));
    await t.post(CM, cm('gone'));
    expect((await t.del(`${CM}/gone`)).status).toBe(200);
    const res = await t.del(`${CM}/kept`);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe("configmaps \"kept\" is forbidden: ValidatingAdmissionPolicy 'keep' with binding 'keep-b' denied request: DELETE of kept refused");
  });
});
