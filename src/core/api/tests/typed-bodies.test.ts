// Bodies of endpoints that decode into a kind other than a stored object's
// (reviews, Binding, Eviction, Scale): a Go type error is kube's 400 decode
// error, not accepted with the wrong type.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

describe('type errors in typed bodies', () => {
  it('refuses a SelfSubjectRulesReview whose namespace is a number', async () => {
    const res = await t.post('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: 5 },
    });
    expect(res.status).toBe(400);
    expect(res.body.reason).toBe('BadRequest');
    expect(res.body.message).toBe(
      'SelfSubjectRulesReview in version "v1" cannot be handled as a SelfSubjectRulesReview: json: cannot unmarshal number into Go struct field SelfSubjectRulesReviewSpec.spec.namespace of type string',
    );
  });

  it('refuses a Binding whose target is a string, and leaves the pod unbound', async () => {
    await t.post('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    const res = await t.post('/api/v1/namespaces/default/pods/p/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: 'node-1' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'Binding in version "v1" cannot be handled as a Binding: json: cannot unmarshal string into Go struct field Binding.target of type v1.ObjectReference',
    );
    expect((await t.get('/api/v1/namespaces/default/pods/p')).body.spec.nodeName).toBeUndefined();
  });

  it('accepts a well-typed Binding after a refused one, dropping unknown fields as Go decoding does', async () => {
    await t.post('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'q' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    const bad = await t.post('/api/v1/namespaces/default/pods/q/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'q' }, target: { kind: 'Node', name: 7 } });
    expect(bad.status).toBe(400);
    const res = await t.post('/api/v1/namespaces/default/pods/q/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'q' }, target: { kind: 'Node', name: 'node-1' }, extra: true });
    expect(res.status).toBe(201);
    expect((await t.get('/api/v1/namespaces/default/pods/q')).body.spec.nodeName).toBe('node-1');
  });
});
