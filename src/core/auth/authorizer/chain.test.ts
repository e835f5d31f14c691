// Decision rules 2 and 6 of spec 001 (chain order, all-NoOpinion is a denial,
// system:masters), the 403 texts, AlwaysAllow/AlwaysDeny, ABAC and Node.
import { describe, expect, it } from 'vitest';
import { createAuthorizerChain } from './union';
import { forbiddenError } from './forbidden';
import { createAlwaysAllowAuthorizer, createAlwaysDenyAuthorizer, createPrivilegedGroupsAuthorizer } from './simple';
import { createRbacAuthorizer } from './rbac';
import { createAbacAuthorizer, parseAbacPolicyFile } from './abac';
import { createNodeAuthorizer } from './node';
import { createMemoryRbacSource } from '../rbac-memory-source';
import { attributesFor, nonResourceAttributes, resourceAttributes } from '../attributes';
import { requestInfoFor } from '../request-info';
import type { Authorizer, UserInfo } from '../types';

const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };
const fixed = (decision: 'Allow' | 'Deny' | 'NoOpinion', reason: string, type = 'Fixed'): Authorizer => ({
  type,
  authorize: () => ({ authorizer: type, decision, reason }),
});

describe('authorizer chain', () => {
  it('the first Allow or Deny decides, in order', async () => {
    const attrs = resourceAttributes(alice, { verb: 'get', resource: 'pods', namespace: 'default', name: 'p' });
    const d1 = await createAuthorizerChain([fixed('NoOpinion', 'a'), fixed('Deny', 'no way'), fixed('Allow', '')]).authorize(attrs);
    expect(d1).toMatchObject({ decision: 'Deny', reason: 'no way' });
    expect(d1.trace).toHaveLength(2);
    const d2 = await createAuthorizerChain([fixed('NoOpinion', ''), fixed('Allow', 'ok')]).authorize(attrs);
    expect(d2).toMatchObject({ decision: 'Allow', reason: 'ok' });
  });

  it('all NoOpinion is a denial with every reason joined by newlines', async () => {
    const attrs = resourceAttributes(alice, { verb: 'get', resource: 'pods', namespace: 'default', name: 'p' });
    const d = await createAuthorizerChain([fixed('NoOpinion', 'first'), fixed('NoOpinion', ''), fixed('NoOpinion', 'second')]).authorize(attrs);
    expect(d).toMatchObject({ decision: 'NoOpinion', reason: 'first\nsecond' });
    expect(d.trace.map((s) => s.decision)).toEqual(['NoOpinion', 'NoOpinion', 'NoOpinion']);
  });

  it('system:masters passes everything, even AlwaysDeny after it', async () => {
    const chain = createAuthorizerChain([createPrivilegedGroupsAuthorizer(), createAlwaysDenyAuthorizer()]);
    const admin: UserInfo = { username: 'root', groups: ['system:masters', 'system:authenticated'] };
    expect((await chain.authorize(nonResourceAttributes(admin, 'delete', '/anything'))).decision).toBe('Allow');
    const d = await chain.authorize(nonResourceAttributes(alice, 'get', '/healthz'));
    expect(d).toMatchObject({ decision: 'NoOpinion', reason: 'Everything is forbidden.' });
  });

  it('AlwaysAllow allows; its rules are everything', async () => {
    const chain = createAuthorizerChain([createAlwaysAllowAuthorizer()]);
    expect((await chain.authorize(resourceAttributes(alice, { verb: 'delete', resource: 'nodes', name: 'n' }))).decision).toBe('Allow');
    expect(await chain.rulesFor(alice, 'x')).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
  });

  it('an authorizer that throws has no opinion and the error is kept', async () => {
    const broken: Authorizer = {
      type: 'Webhook',
      authorize: () => {
        throw new Error('boom');
      },
    };
    const d = await createAuthorizerChain([broken]).authorize(nonResourceAttributes(alice, 'get', '/'));
    expect(d).toMatchObject({ decision: 'NoOpinion', error: 'boom' });
  });
});

describe('403 Forbidden texts', () => {
  it('namespaced resource (kubectl get pods --as alice)', () => {
    const attrs = attributesFor(alice, requestInfoFor('GET', '/api/v1/namespaces/default/pods', 'limit=500'));
    const err = forbiddenError(attrs, '');
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"',
      reason: 'Forbidden',
      details: { kind: 'pods' },
      code: 403,
    });
  });

  it('named, cluster-scoped and grouped resources, with subresources and reasons', () => {
    const node = forbiddenError(attributesFor(alice, requestInfoFor('GET', '/api/v1/nodes/n1')), '');
    expect(node.status.message).toBe('nodes "n1" is forbidden: User "alice" cannot get resource "nodes" in API group "" at the cluster scope');
    expect(node.status.details).toEqual({ name: 'n1', kind: 'nodes' });
    const scale = forbiddenError(attributesFor(alice, requestInfoFor('PATCH', '/apis/apps/v1/namespaces/ns/deployments/d/scale')), 'RBAC: x');
    expect(scale.status.message).toBe(
      'deployments.apps "d" is forbidden: User "alice" cannot patch resource "deployments/scale" in API group "apps" in the namespace "ns": RBAC: x',
    );
    expect(scale.status.details).toEqual({ name: 'd', group: 'apps', kind: 'deployments' });
  });

  it('non-resource paths', () => {
    const err = forbiddenError(attributesFor({ username: 'system:anonymous', groups: ['system:unauthenticated'] }, requestInfoFor('GET', '/metrics')), '');
    expect(err.status.message).toBe('forbidden: User "system:anonymous" cannot get path "/metrics"');
    expect(err.status.details).toEqual({});
    expect(err.status.code).toBe(403);
  });

  it('RBAC alone: a denial carries no reason unless a role lookup failed', async () => {
    const chain = createAuthorizerChain([createPrivilegedGroupsAuthorizer(), createRbacAuthorizer(createMemoryRbacSource())]);
    const attrs = attributesFor(alice, requestInfoFor('GET', '/api/v1/namespaces/default/pods'));
    const d = await chain.authorize(attrs);
    expect(forbiddenError(attrs, d.reason).status.message).toBe(
      'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"',
    );
  });
});

describe('ABAC', () => {
  const file = [
    '# comment',
    '{"apiVersion": "abac.authorization.kubernetes.io/v1beta1", "kind": "Policy", "spec": {"user": "alice", "namespace": "*", "resource": "*", "apiGroup": "*"}}',
    '',
    '{"apiVersion": "abac.authorization.kubernetes.io/v1beta1", "kind": "Policy", "spec": {"user": "bob", "namespace": "projectCaribou", "resource": "pods", "readonly": true}}',
    '{"apiVersion": "abac.authorization.kubernetes.io/v1beta1", "kind": "Policy", "spec": {"group": "system:authenticated", "readonly": true, "nonResourcePath": "/version/*"}}',
    '{"apiVersion": "abac.authorization.kubernetes.io/v1beta1", "kind": "Policy", "spec": {"user": "*", "nonResourcePath": "/healthz"}}',
  ].join('\n');
  const authz = createAbacAuthorizer(parseAbacPolicyFile(file));
  const bob: UserInfo = { username: 'bob', groups: ['system:authenticated'] };

  it('matches subject, readonly, resource attributes and non-resource paths', () => {
    expect(authz.authorize(resourceAttributes(alice, { verb: 'delete', resource: 'secrets', namespace: 'x', name: 's' }))).toMatchObject({ decision: 'Allow' });
    expect(authz.authorize(resourceAttributes(bob, { verb: 'list', resource: 'pods', namespace: 'projectCaribou' })).decision).toBe('Allow');
    expect(authz.authorize(resourceAttributes(bob, { verb: 'create', resource: 'pods', namespace: 'projectCaribou' }))).toMatchObject({
      decision: 'NoOpinion',
      reason: 'No policy matched.',
    });
    // apiGroup "" in the policy only matches the core group.
    expect(authz.authorize(resourceAttributes(bob, { verb: 'list', apiGroup: 'apps', resource: 'pods', namespace: 'projectCaribou' })).decision).toBe('NoOpinion');
    expect(authz.authorize(nonResourceAttributes(bob, 'get', '/version/x')).decision).toBe('Allow');
    expect(authz.authorize(nonResourceAttributes(bob, 'post', '/version/x')).decision).toBe('NoOpinion');
    // "*" user means every authenticated user.
    expect(authz.authorize(nonResourceAttributes(bob, 'post', '/healthz')).decision).toBe('Allow');
    const anon: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
    expect(authz.authorize(nonResourceAttributes(anon, 'get', '/healthz')).decision).toBe('NoOpinion');
  });

  it('converts unversioned (v0) lines and rejects bad lines with kube\'s message', () => {
    const v0 = createAbacAuthorizer(parseAbacPolicyFile('{"user":"carol"}'));
    const carol: UserInfo = { username: 'carol', groups: [] };
    expect(v0.authorize(resourceAttributes(carol, { verb: 'create', apiGroup: 'apps', resource: 'deployments', namespace: 'n' })).decision).toBe('Allow');
    expect(v0.authorize(nonResourceAttributes(carol, 'get', '/anything')).decision).toBe('Allow');
    expect(() => parseAbacPolicyFile('{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"usr":"x"}}', 'p.jsonl')).toThrow(
      /^error reading policy file p\.jsonl, line 1: .*unknown field "spec\.usr"/,
    );
  });
});

describe('Node authorizer', () => {
  const node: UserInfo = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
  const authz = createNodeAuthorizer({ isRelatedToNode: (n, v, ns, name) => n === 'n1' && v === 'secret' && ns === 'app' && name === 'mounted' });

  it('has no opinion on users that are not nodes', () => {
    expect(authz.authorize(resourceAttributes(alice, { verb: 'get', resource: 'nodes', name: 'n1' }))).toMatchObject({ decision: 'NoOpinion', reason: '' });
    const notInGroup: UserInfo = { username: 'system:node:n1', groups: [] };
    expect(authz.authorize(resourceAttributes(notInGroup, { verb: 'get', resource: 'nodes', name: 'n1' })).decision).toBe('NoOpinion');
  });

  it('reads only secrets related to the node', () => {
    expect(authz.authorize(resourceAttributes(node, { verb: 'get', resource: 'secrets', namespace: 'app', name: 'mounted' })).decision).toBe('Allow');
    expect(authz.authorize(resourceAttributes(node, { verb: 'get', resource: 'secrets', namespace: 'app', name: 'other' }))).toMatchObject({
      decision: 'NoOpinion',
      reason: "no relationship found between node 'n1' and this object",
    });
    expect(authz.authorize(resourceAttributes(node, { verb: 'delete', resource: 'secrets', namespace: 'app', name: 'mounted' })).reason).toBe(
      'can only read resources of this type',
    );
  });

  it('reads only its own Node and lists only its own pods (AuthorizeNodeWithSelectors)', () => {
    expect(authz.authorize(resourceAttributes(node, { verb: 'get', resource: 'nodes', name: 'n1' })).decision).toBe('Allow');
    expect(authz.authorize(resourceAttributes(node, { verb: 'get', resource: 'nodes', name: 'n2' })).reason).toBe(
      "node 'n1' cannot read 'n2', only its own Node object",
    );
    const own = attributesFor(node, requestInfoFor('GET', '/api/v1/pods', 'fieldSelector=spec.nodeName%3Dn1'));
    expect(authz.authorize(own).decision).toBe('Allow');
    const all = attributesFor(node, requestInfoFor('GET', '/api/v1/pods'));
    expect(authz.authorize(all).reason).toBe('can only list/watch pods with spec.nodeName field selector');
    expect(authz.authorize(resourceAttributes(node, { verb: 'update', resource: 'pods', subresource: 'status', namespace: 'a', name: 'p' })).decision).toBe('Allow');
    expect(authz.authorize(resourceAttributes(node, { verb: 'create', resource: 'events', namespace: 'a' })).decision).toBe('Allow');
  });

  it('accesses only its own lease in kube-node-lease', () => {
    const lease = (ns: string, name: string) => resourceAttributes(node, { verb: 'update', apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: ns, name });
    expect(authz.authorize(lease('kube-node-lease', 'n1')).decision).toBe('Allow');
    expect(authz.authorize(lease('kube-node-lease', 'n2')).reason).toBe('can only access node lease with the same name as the requesting node');
    expect(authz.authorize(lease('default', 'n1')).reason).toBe('can only access leases in the "kube-node-lease" system namespace');
  });
});
