// Review objects (spec 001 "TokenReview", "SelfSubjectReview",
// "SubjectAccessReview family", "Permission checks"), with kube's validation
// errors for bad specs.
import { describe, expect, it } from 'vitest';
import { createLocalSubjectAccessReview, createSelfSubjectAccessReview, createSelfSubjectRulesReview, createSubjectAccessReview } from './access-review';
import { createTokenReview } from './token-review';
import { createSelfSubjectReview } from './self-subject-review';
import { bootstrapPolicy } from '../bootstrap/policy';
import { aggregateClusterRoles } from '../bootstrap/aggregation';
import { createRbacAuthorizer } from '../authorizer/rbac';
import { createNodeAuthorizer } from '../authorizer/node';
import { createAuthorizerChain } from '../authorizer/union';
import { createPrivilegedGroupsAuthorizer } from '../authorizer/simple';
import { createMemoryRbacSource } from '../rbac-memory-source';
import { createRequestAuthenticatorChain } from '../authn/request-authenticator';
import { createStaticTokenAuthenticator, parseTokenFile } from '../authn/token-file';
import { manualClock } from '../../clock';
import { StatusError } from '../../errors/status';
import { rejectionOf } from '../../util/testing/thrown';
import type { UserInfo } from '../types';

const G = 'rbac.authorization.k8s.io';
const policy = bootstrapPolicy();
const source = createMemoryRbacSource({
  clusterRoles: aggregateClusterRoles(policy.clusterRoles),
  clusterRoleBindings: policy.clusterRoleBindings,
  roleBindings: [{ metadata: { name: 'alice-view', namespace: 'dev' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'alice', apiGroup: G }] }],
});
const chain = createAuthorizerChain([createPrivilegedGroupsAuthorizer(), createNodeAuthorizer(), createRbacAuthorizer(source)]);
const deps = { authorize: chain.authorize, rulesFor: chain.rulesFor };
const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };

const rejects = (p: Promise<unknown>): Promise<StatusError> => rejectionOf(p, StatusError);

describe('SelfSubjectAccessReview (kubectl auth can-i)', () => {
  it('answers allowed with RBAC\'s reason', async () => {
    const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { namespace: 'dev', verb: 'list', resource: 'pods' } } };
    expect(await createSelfSubjectAccessReview(body, alice, deps)).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'dev', verb: 'list', resource: 'pods' } },
      status: { allowed: true, reason: 'RBAC: allowed by RoleBinding "alice-view/dev" of ClusterRole "view" to User "alice"' },
    });
  });

  it('answers not allowed without denied, and non-resource checks', async () => {
    const no = await createSelfSubjectAccessReview({ spec: { resourceAttributes: { namespace: 'dev', verb: 'delete', resource: 'pods' } } }, alice, deps);
    expect(no.status).toEqual({ allowed: false });
    const api = await createSelfSubjectAccessReview({ spec: { nonResourceAttributes: { path: '/api', verb: 'get' } } }, alice, deps);
    expect(api.status).toMatchObject({ allowed: true });
  });

  it('validates the spec with kube\'s messages', async () => {
    const none = await rejects(createSelfSubjectAccessReview({ spec: {} }, alice, deps));
    expect(none.status.code).toBe(422);
    expect(none.status.message).toBe(
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
    const both = await rejects(createSelfSubjectAccessReview({ spec: { resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/x', verb: 'get' } } }, alice, deps));
    expect(both.status.message).toBe(
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
    );
    expect(both.status.details).toMatchObject({ group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview' });
    const sel = await rejects(createSelfSubjectAccessReview({ spec: { resourceAttributes: { verb: 'list', resource: 'pods', labelSelector: {} } } }, alice, deps));
    expect(sel.status.message).toBe(
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required',
    );
  });
});

describe('SubjectAccessReview and LocalSubjectAccessReview', () => {
  it('asks about another user with its groups as given (v1 groups, v1beta1 group)', async () => {
    const v1 = await createSubjectAccessReview(
      { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'bob', groups: ['system:authenticated'], nonResourceAttributes: { path: '/version', verb: 'get' } } },
      deps,
    );
    expect(v1.status).toMatchObject({ allowed: true });
    const beta = await createSubjectAccessReview(
      { apiVersion: 'authorization.k8s.io/v1beta1', kind: 'SubjectAccessReview', spec: { user: 'bob', group: ['system:masters'], resourceAttributes: { verb: 'delete', resource: 'nodes' } } },
      deps,
    );
    expect(beta.status).toEqual({ allowed: true });
  });

  it('requires a user or group and empty metadata', async () => {
    const err = await rejects(createSubjectAccessReview({ metadata: { name: 'x' }, spec: {} }, deps));
    expect(err.status.message).toMatch(
      /^SubjectAccessReview\.authorization\.k8s\.io "" is invalid: \[spec\.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec\.user: Invalid value: "": at least one of user or group must be specified, metadata: Invalid value: v1\.ObjectMeta\{Name:"x", .*\}: must be empty\]$/,
    );
  });

  it('LocalSubjectAccessReview is confined to the URL namespace', async () => {
    const ok = await createLocalSubjectAccessReview(
      { metadata: { namespace: 'dev' }, spec: { user: 'alice', resourceAttributes: { namespace: 'dev', verb: 'get', resource: 'pods' } } },
      'dev',
      deps,
    );
    expect(ok.status).toMatchObject({ allowed: true });
    expect(ok.metadata).toEqual({ namespace: 'dev', creationTimestamp: null });
    const wrongNs = await rejects(createLocalSubjectAccessReview({ spec: { user: 'alice', resourceAttributes: { namespace: 'prod', verb: 'get', resource: 'pods' } } }, 'dev', deps));
    expect(wrongNs.status.message).toBe(
      'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "prod": must match metadata.namespace',
    );
    const nonRes = await rejects(createLocalSubjectAccessReview({ spec: { user: 'alice', nonResourceAttributes: { path: '/x', verb: 'get' } } }, 'dev', deps));
    expect(nonRes.status.message).toBe(
      'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: disallowed on this kind of request',
    );
    expect((await rejects(createLocalSubjectAccessReview({ spec: {} }, '', deps))).status).toMatchObject({ code: 400, message: 'namespace is required on this type: ' });
  });
});

describe('SelfSubjectRulesReview (kubectl auth can-i --list)', () => {
  it('lists the rules in the namespace, discovery rules included', async () => {
    const r = await createSelfSubjectRulesReview({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'dev' } }, alice, deps);
    const status = r.status as { resourceRules: { verbs: string[]; resources?: string[] }[]; nonResourceRules: { nonResourceURLs?: string[] }[]; incomplete: boolean };
    expect(r.spec).toEqual({});
    expect(status.incomplete).toBe(false);
    expect(status.resourceRules[0]).toEqual({ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] });
    expect(status.resourceRules.some((x) => x.resources?.includes('pods') && x.verbs.includes('list'))).toBe(true);
    expect(status.nonResourceRules.some((x) => x.nonResourceURLs?.includes('/api/*'))).toBe(true);
    const other = await createSelfSubjectRulesReview({ spec: { namespace: 'prod' } }, alice, deps);
    expect((other.status as typeof status).resourceRules.some((x) => x.resources?.includes('pods'))).toBe(false);
    expect((await rejects(createSelfSubjectRulesReview({ spec: {} }, alice, deps))).status).toMatchObject({ code: 400, message: 'no namespace on request' });
  });

  it('a node is marked incomplete with the Node authorizer\'s error', async () => {
    const node: UserInfo = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
    const r = await createSelfSubjectRulesReview({ spec: { namespace: 'dev' } }, node, deps);
    expect(r.status).toMatchObject({ incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' });
  });
});

describe('TokenReview and SelfSubjectReview', () => {
  const authn = createRequestAuthenticatorChain({ tokenAuthenticators: [createStaticTokenAuthenticator(parseTokenFile('tok,alice,u1,"dev"').entries)] });
  const tdeps = { authenticateToken: authn.authenticateToken, apiAudiences: [] };

  it('reports the user of a valid token', async () => {
    const r = await createTokenReview({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'tok' } }, '', tdeps);
    expect(r.status).toEqual({ authenticated: true, user: { username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'] } });
  });

  it('reports an invalid token without echoing it', async () => {
    const r = await createTokenReview({ spec: { token: 'secret-value' } }, '', tdeps);
    expect(r.status).toEqual({ user: {}, error: 'invalid bearer token' });
    expect(JSON.stringify(r.status)).not.toContain('secret-value');
  });

  it('refuses an empty token and a namespace', async () => {
    expect((await rejects(createTokenReview({ spec: {} }, '', tdeps))).status).toMatchObject({ code: 400, message: 'token is required for TokenReview in authentication' });
    expect((await rejects(createTokenReview({ spec: { token: 't' } }, 'ns', tdeps))).status.message).toBe('namespace is not allowed on this type: ns');
  });

  it('SelfSubjectReview returns the caller (kubectl auth whoami)', () => {
    const r = createSelfSubjectReview({}, { username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } }, manualClock(Date.UTC(2024, 0, 2, 3, 4, 5)));
    expect(r).toEqual({
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: '2024-01-02T03:04:05Z' },
      status: { userInfo: { username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } } },
    });
  });
});
