// The decision steps the access view shows: from an audit record (the
// server's trace, the response code) and from a composed request (the chain
// walked until an authorizer decides, kube's union rule; the server's
// SubjectAccessReview answer as the final word, with the 403 text).

import { describe, expect, it } from 'vitest';
import type { AuditRecord } from './audit';
import { chainOf, stepsFromAudit, stepsFromReview } from './steps';
import type { RbacObjects } from './rbac-types';

const rbac: RbacObjects = {
  clusterRoles: [{ metadata: { name: 'view' }, rules: [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }] }],
  clusterRoleBindings: [],
  roles: [],
  roleBindings: [{ metadata: { name: 'jane-view', namespace: 'dev' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'jane' }] }],
};
const list = (user: string, groups: string[], namespace: string) => ({ user, groups, verb: 'list', resource: { group: '', resource: 'pods', subresource: '', namespace, name: '' } });

describe('composed requests (rule: the chain is asked in order; the first Allow or Deny decides; system:masters first)', () => {
  const chain = chainOf({ authorizers: [{ type: 'Node', name: 'node' }, { type: 'RBAC', name: 'rbac' }] });

  it('walks Privileged, Node, RBAC and ends with the server\'s answer', () => {
    const steps = stepsFromReview(list('jane', ['system:authenticated'], 'dev'), chain, rbac, { allowed: true, reason: 'RBAC: allowed by RoleBinding "jane-view/dev" of ClusterRole "view" to User "jane"' });
    expect(steps.authorizers.map((a) => `${a.type}:${a.decision}`)).toEqual(['Privileged:NoOpinion', 'Node:NoOpinion', 'RBAC:Allow']);
    expect(steps.authorizers[2]!.bindings![0]!.name).toBe('jane-view');
    expect(steps.final).toMatchObject({ decision: 'Allow', status: 200, statusText: 'OK' });
    expect(steps.final.mismatch).toBeUndefined();
  });

  it('a denied request ends in 403 with kube-apiserver\'s message', () => {
    const steps = stepsFromReview(list('jane', [], 'prod'), chain, rbac, { allowed: false, reason: '' });
    expect(steps.final).toMatchObject({ decision: 'NoOpinion', status: 403, statusText: 'Forbidden', message: 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "prod"' });
  });

  it('system:masters stops the walk at the first step', () => {
    const steps = stepsFromReview(list('admin', ['system:masters'], 'dev'), chain, rbac, { allowed: true });
    expect(steps.authorizers.map((a) => a.type)).toEqual(['Privileged']);
  });

  it('says so when the server and the explanation disagree', () => {
    const steps = stepsFromReview(list('jane', [], 'dev'), chain, rbac, { allowed: false });
    expect(steps.final.mismatch).toMatch(/^The server does not allow this/);
  });

  it('no authorization configured is kube\'s default AlwaysAllow', () => {
    expect(chainOf(undefined).map((c) => c.type)).toEqual(['Privileged', 'AlwaysAllow']);
  });
});

describe('audit records (the server\'s own trace)', () => {
  const record: AuditRecord = {
    seq: 4,
    event: {
      auditID: 'a',
      stage: 'ResponseComplete',
      requestURI: '/api/v1/namespaces/dev/pods',
      verb: 'list',
      user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
      impersonatedUser: { username: 'jane', groups: ['system:authenticated'] },
      responseStatus: { code: 403, message: 'pods is forbidden: …' },
      requestReceivedTimestamp: '2024-12-11T12:00:00.000000Z',
    },
    authentication: { authenticator: 'token-file', status: 'ok', steps: [{ authenticator: 'token-file', status: 'ok' }] },
    impersonation: [{ attributes: { verb: 'impersonate', resource: 'users', name: 'jane' }, decision: { decision: 'Allow', reason: '', trace: [] } }],
    authorization: { decision: 'NoOpinion', reason: '', trace: [{ authorizer: 'Privileged', decision: 'NoOpinion', reason: '' }, { authorizer: 'RBAC', name: 'rbac', decision: 'NoOpinion', reason: '', bindings: [] }] },
  };

  it('shows authentication, impersonation, each authorizer and the response code', () => {
    const steps = stepsFromAudit(record);
    expect(steps.authentication).toMatchObject({ outcome: 'ok', summary: 'Authenticated by token-file as kubernetes-admin.' });
    expect(steps.impersonation).toMatchObject({ summary: 'kubernetes-admin acts as jane.', checks: [{ what: 'impersonate users jane', decision: 'Allow' }] });
    expect(steps.authorizers.map((a) => `${a.type}:${a.decision}:${a.source}`)).toEqual(['Privileged:NoOpinion:server', 'RBAC:NoOpinion:server']);
    expect(steps.final).toMatchObject({ decision: 'NoOpinion', status: 403, statusText: 'Forbidden' });
  });

  it('a refused credential is Unauthorized (401)', () => {
    const refused = { ...record, impersonation: undefined, authorization: undefined, event: { ...record.event, impersonatedUser: undefined, user: {}, responseStatus: { code: 401 } }, authentication: { status: 'none', steps: [{ authenticator: 'token-file', status: 'none' }] } } as AuditRecord;
    expect(stepsFromAudit(refused).final).toMatchObject({ decision: 'Unauthorized', status: 401, statusText: 'Unauthorized' });
  });
});
