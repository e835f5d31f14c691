// x-kubernetes-validations (CEL) on custom resources, with apiextensions'
// error shapes: `<path>: Invalid value: "<type>": <message>`, the default
// "failed rule: …" message, messageExpression, reason and fieldPath,
// transition rules with oldSelf, and the single "not checked" error when the
// object already failed its schema.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { createEstablished } from './fixtures';

let t: TestServer;
const P = '/apis/stable.example.com/v1/namespaces/default/pools';

function poolCrd(): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'pools.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'pools', kind: 'Pool' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  'x-kubernetes-validations': [
                    { rule: 'self.minReplicas <= self.maxReplicas', message: 'minReplicas must not exceed maxReplicas' },
                    { rule: "self.mode != 'fixed' || has(self.size)", reason: 'FieldValueRequired', fieldPath: '.size', messageExpression: "'size is required in mode ' + self.mode" },
                  ],
                  properties: {
                    minReplicas: { type: 'integer' },
                    maxReplicas: { type: 'integer' },
                    mode: { type: 'string', enum: ['fixed', 'auto'] },
                    size: { type: 'integer' },
                    name: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'name is immutable' }, { rule: 'self.size() <= 5' }] },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

const pool = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'stable.example.com/v1', kind: 'Pool', metadata: { name }, spec });

beforeEach(async () => {
  t = await startTestServer();
  await createEstablished(t, poolCrd(), P);
});
afterEach(async () => {
  await t.close();
});

describe('validation rules', () => {
  it('a failing rule reports its message on the node, with the schema type as the value', async () => {
    const res = await t.post(P, pool('a', { minReplicas: 5, maxReplicas: 2, mode: 'auto' }));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Pool.stable.example.com "a" is invalid: spec: Invalid value: "object": minReplicas must not exceed maxReplicas');
  });

  it('messageExpression, reason and fieldPath; the default message names the rule', async () => {
    const res = await t.post(P, pool('a', { minReplicas: 1, maxReplicas: 2, mode: 'fixed', name: 'toolong' }));
    expect(res.body.message).toBe(
      'Pool.stable.example.com "a" is invalid: [spec.size: Required value: size is required in mode fixed, spec.name: Invalid value: "string": failed rule: self.size() <= 5]',
    );
  });

  it('transition rules (oldSelf) apply on update only', async () => {
    const created = await t.post(P, pool('a', { minReplicas: 1, maxReplicas: 2, mode: 'auto', name: 'one' }));
    expect(created.status).toBe(201);
    const res = await t.patch(`${P}/a`, { spec: { name: 'two' } }, 'application/merge-patch+json');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Pool.stable.example.com "a" is invalid: spec.name: Invalid value: "string": name is immutable');
    expect((await t.patch(`${P}/a`, { spec: { maxReplicas: 3 } }, 'application/merge-patch+json')).status).toBe(200);
  });

  it('are not run on an object that fails its schema', async () => {
    const res = await t.post(P, pool('a', { minReplicas: 5, maxReplicas: 2, mode: 'other' }));
    expect(res.body.message).toBe(
      'Pool.stable.example.com "a" is invalid: [spec.mode: Unsupported value: "other": supported values: "fixed", "auto", <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]',
    );
  });
});
