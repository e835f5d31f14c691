// A SelfSubjectRulesReview of a system:masters member (the harness's
// administrator) lists what RBAC grants: cluster-admin's rules once. kube's
// privileged-group authorizer allows everything but resolves no rules, so
// `kubectl auth can-i --list` shows one `*.*` row and one `[*]` row.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test-support/api-harness';
import { secureCluster } from './test-cluster';

describe('SelfSubjectRulesReview of system:masters', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await secureCluster();
  });
  afterAll(() => ts.close());

  it('lists cluster-admin\'s rules once, not a second time for the privileged group', async () => {
    const res = await ts.post('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: 'default' },
    });
    expect(res.status).toBe(201);
    const everything = (r: { verbs: string[]; resources?: string[]; nonResourceURLs?: string[] }) =>
      r.verbs.includes('*') && (r.resources?.includes('*') || r.nonResourceURLs?.includes('*'));
    expect(res.body.status.resourceRules.filter(everything)).toEqual([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    expect(res.body.status.nonResourceRules.filter(everything)).toEqual([{ verbs: ['*'], nonResourceURLs: ['*'] }]);
  });
});
