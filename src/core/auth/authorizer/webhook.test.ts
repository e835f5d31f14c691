// Authorization webhook contract (spec 001 "Authorization webhook contract",
// AuthorizationConfiguration webhook fields): allow / no opinion / deny,
// matchConditions, failurePolicy on timeout and garbage, the two cache TTLs.
import { describe, expect, it } from 'vitest';
import { createWebhookAuthorizer, type SubjectAccessReviewJson } from './webhook';
import { createAuthorizerChain } from './union';
import { resourceAttributes, nonResourceAttributes } from '../attributes';
import { manualClock } from '../../clock';
import type { UserInfo, WebhookAuthorizerConfiguration } from '../types';

const alice: UserInfo = { username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'] };
const baseConfig: WebhookAuthorizerConfiguration = {
  timeout: '3s',
  authorizedTTL: '5m0s',
  unauthorizedTTL: '30s',
  subjectAccessReviewVersion: 'v1',
  matchConditionSubjectAccessReviewVersion: 'v1',
  failurePolicy: 'NoOpinion',
  connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '/etc/webhook.kubeconfig' },
};

function webhook(answer: (r: SubjectAccessReviewJson) => unknown, config: Partial<WebhookAuthorizerConfiguration> = {}) {
  const seen: SubjectAccessReviewJson[] = [];
  const clock = manualClock();
  const authz = createWebhookAuthorizer({
    name: 'my-webhook',
    clock,
    config: { ...baseConfig, ...config },
    transport: {
      send: async (r) => {
        seen.push(r);
        return answer(r);
      },
    },
  });
  return { authz, seen, clock };
}

describe('authorization webhook', () => {
  it('sends a v1 SubjectAccessReview and maps allowed / denied / no opinion', async () => {
    const { authz, seen } = webhook(() => ({ status: { allowed: true, reason: 'ok by policy' } }));
    const step = await authz.authorize(resourceAttributes(alice, { verb: 'get', resource: 'pods', namespace: 'ns', name: 'p', apiVersion: 'v1' }));
    expect(step).toMatchObject({ authorizer: 'Webhook', name: 'my-webhook', decision: 'Allow', reason: 'ok by policy' });
    expect(seen[0]).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        resourceAttributes: { namespace: 'ns', verb: 'get', version: 'v1', resource: 'pods', name: 'p' },
        user: 'alice',
        groups: ['dev', 'system:authenticated'],
        uid: 'u1',
      },
    });
    expect((await webhook(() => ({ status: { allowed: false, denied: true, reason: 'no' } })).authz.authorize(nonResourceAttributes(alice, 'get', '/x'))).decision).toBe('Deny');
    expect((await webhook(() => ({ status: { allowed: false } })).authz.authorize(nonResourceAttributes(alice, 'get', '/x'))).decision).toBe('NoOpinion');
  });

  it('v1beta1 names the groups field `group`', async () => {
    const { authz, seen } = webhook(() => ({ status: { allowed: true } }), { subjectAccessReviewVersion: 'v1beta1' });
    await authz.authorize(nonResourceAttributes(alice, 'get', '/healthz'));
    expect(seen[0]).toEqual({
      apiVersion: 'authorization.k8s.io/v1beta1',
      kind: 'SubjectAccessReview',
      spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'alice', group: ['dev', 'system:authenticated'], uid: 'u1' },
    });
  });

  it('a definitive deny short-circuits the chain; no opinion lets later authorizers decide', async () => {
    const deny = webhook(() => ({ status: { allowed: false, denied: true, reason: 'blocked' } })).authz;
    const allowAll = { type: 'AlwaysAllow', authorize: () => ({ authorizer: 'AlwaysAllow', decision: 'Allow' as const, reason: '' }) };
    expect(await createAuthorizerChain([deny, allowAll]).authorize(nonResourceAttributes(alice, 'get', '/'))).toMatchObject({ decision: 'Deny', reason: 'blocked' });
    const none = webhook(() => ({ status: { allowed: false } })).authz;
    expect((await createAuthorizerChain([none, allowAll]).authorize(nonResourceAttributes(alice, 'get', '/'))).decision).toBe('Allow');
  });

  it('matchConditions: false skips the webhook, an error applies the failure policy', async () => {
    const cond = { matchConditions: [{ expression: "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'kube-system'" }] };
    const { authz, seen } = webhook(() => ({ status: { allowed: true } }), cond);
    expect((await authz.authorize(resourceAttributes(alice, { verb: 'get', resource: 'pods', namespace: 'default' }))).decision).toBe('NoOpinion');
    expect(seen).toHaveLength(0);
    expect((await authz.authorize(resourceAttributes(alice, { verb: 'get', resource: 'pods', namespace: 'kube-system' }))).decision).toBe('Allow');
    const erroring = webhook(() => ({ status: { allowed: true } }), { failurePolicy: 'Deny', matchConditions: [{ expression: 'request.resourceAttributes.namespace == "x"' }] });
    const step = await erroring.authz.authorize(nonResourceAttributes(alice, 'get', '/'));
    expect(step.decision).toBe('Deny');
    expect(step.error).toMatch(/^matchCondition/);
    expect(() => webhook(() => ({}), { matchConditions: [{ expression: 'request.user ==' }] })).toThrow(/compilation failed/);
  });

  it('timeouts and garbage answers follow failurePolicy, with an error (500 unless someone allows)', async () => {
    const slow = createWebhookAuthorizer({
      name: 'slow',
      clock: manualClock(),
      config: { ...baseConfig, timeout: '50ms', failurePolicy: 'Deny' },
      transport: { send: () => new Promise(() => {}) },
    });
    const t = await slow.authorize(nonResourceAttributes(alice, 'get', '/'));
    expect(t).toMatchObject({ decision: 'Deny', error: 'Failed to make webhook authorizer request: webhook did not answer within 50ms' });
    const chain = await createAuthorizerChain([slow]).authorize(nonResourceAttributes(alice, 'get', '/'));
    expect(chain.error).toBeDefined();
    const garbage = webhook(() => 'not json object');
    expect(await garbage.authz.authorize(nonResourceAttributes(alice, 'get', '/'))).toMatchObject({ decision: 'NoOpinion', error: 'webhook returned a malformed SubjectAccessReview' });
    const badType = webhook(() => ({ status: { allowed: 'yes' } }), { failurePolicy: 'Deny' });
    expect((await badType.authz.authorize(nonResourceAttributes(alice, 'get', '/'))).decision).toBe('Deny');
    const failing = webhook(() => {
      throw new Error('connection refused');
    });
    expect(await failing.authz.authorize(nonResourceAttributes(alice, 'get', '/'))).toMatchObject({ decision: 'NoOpinion', error: 'Failed to make webhook authorizer request: connection refused' });
  });

  it('caches allowed answers for authorizedTTL and others for unauthorizedTTL', async () => {
    let allowed = true;
    const { authz, seen, clock } = webhook(() => ({ status: { allowed } }));
    const attrs = nonResourceAttributes(alice, 'get', '/x');
    await authz.authorize(attrs);
    allowed = false;
    clock.advance(299_000);
    expect((await authz.authorize(attrs)).decision).toBe('Allow');
    expect(seen).toHaveLength(1);
    clock.advance(2_000);
    expect((await authz.authorize(attrs)).decision).toBe('NoOpinion');
    expect(seen).toHaveLength(2);
    clock.advance(29_000);
    await authz.authorize(attrs);
    expect(seen).toHaveLength(2);
    clock.advance(2_000);
    await authz.authorize(attrs);
    expect(seen).toHaveLength(3);
  });
});
