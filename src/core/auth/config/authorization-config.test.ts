// Authorization configuration (spec 001 "Modes": flags vs file are exclusive;
// AuthorizationConfiguration limits: names required, timeout <= 30s, at most
// 64 match conditions).
import { describe, expect, it } from 'vitest';
import { authorizationConfigurationFromFlags, defaultAuthorizationConfiguration, validateAuthorizationConfiguration } from './authorization-config';
import { formatGoDuration, parseGoDuration } from './duration';
import { aggregateFieldErrors } from '../../errors/field-errors';
import type { AuthorizationConfiguration } from '../types';

const webhook = {
  timeout: '3s',
  subjectAccessReviewVersion: 'v1' as const,
  matchConditionSubjectAccessReviewVersion: 'v1' as const,
  failurePolicy: 'NoOpinion' as const,
  connectionInfo: { type: 'KubeConfigFile' as const, kubeConfigFile: '/etc/kube/webhook.yaml' },
};
const cfg = (authorizers: AuthorizationConfiguration['authorizers']): AuthorizationConfiguration => ({
  apiVersion: 'apiserver.config.k8s.io/v1',
  kind: 'AuthorizationConfiguration',
  authorizers,
});

describe('authorization configuration', () => {
  it('--authorization-config with --authorization-mode is a start-up error', () => {
    expect(authorizationConfigurationFromFlags({ 'authorization-config': '/a.yaml', 'authorization-mode': 'RBAC' }).errors).toEqual([
      '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
    ]);
  });

  it('converts --authorization-mode into authorizers named after the modes', () => {
    expect(authorizationConfigurationFromFlags({ 'authorization-mode': 'Node,RBAC' }).config?.authorizers).toEqual([
      { type: 'Node', name: 'node' },
      { type: 'RBAC', name: 'rbac' },
    ]);
    expect(authorizationConfigurationFromFlags({}).config?.authorizers).toEqual([{ type: 'AlwaysAllow', name: 'alwaysallow' }]);
    const wh = authorizationConfigurationFromFlags({ 'authorization-mode': 'Webhook', 'authorization-webhook-config-file': '/w.yaml', 'authorization-webhook-cache-authorized-ttl': '10m' });
    expect(wh.config?.authorizers[0]).toMatchObject({ name: 'webhook', webhook: { authorizedTTL: '10m0s', unauthorizedTTL: '30s', timeout: '30s', failurePolicy: 'NoOpinion', subjectAccessReviewVersion: 'v1beta1' } });
  });

  it('reports bad legacy flags as kube does', () => {
    expect(authorizationConfigurationFromFlags({ 'authorization-mode': 'RBAC,Foo,ABAC,RBAC' }).errors).toEqual([
      'authorization-mode "Foo" is not a valid mode',
      "authorization-mode ABAC's authorization policy file not passed",
      'authorization-mode ["RBAC" "Foo" "ABAC" "RBAC"] has mode specified more than once',
    ]);
    expect(authorizationConfigurationFromFlags({ 'authorization-mode': 'RBAC', 'authorization-policy-file': '/p' }).errors).toEqual([
      'cannot specify --authorization-policy-file without mode ABAC',
    ]);
  });

  it('validates names, types and webhook limits', () => {
    // Defaulting (the TTLs) runs before validation, as when kube decodes the file.
    const errs = validateAuthorizationConfiguration(
      defaultAuthorizationConfiguration(cfg([
        { type: 'RBAC', name: '' },
        { type: 'RBAC', name: 'again' },
        { type: 'Magic', name: 'm' },
        { type: 'Webhook', name: 'Bad_Name', webhook: { ...webhook, timeout: '45s' } },
        { type: 'Webhook', name: 'w2', webhook: { ...webhook, matchConditions: Array.from({ length: 65 }, (_, i) => ({ expression: `${i} == ${i}` })) } },
        { type: 'Node', name: 'node', webhook },
      ])),
    );
    expect(aggregateFieldErrors(errs).split(', authorizers')).toEqual([
      '[authorizers[0].name: Required value',
      '[1].type: Duplicate value: "RBAC"',
      '[2].type: Unsupported value: "Magic": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"',
      expect.stringMatching(/^\[3\]\.name: Invalid value: "Bad_Name": authorizer name is invalid: a lowercase RFC 1123 subdomain/),
      '[3].webhook.timeout: Invalid value: "45s": must be > 0s and <= 30s',
      '[4].webhook.matchConditions: Too many: 65: must have at most 64 items',
      '[5].webhook: Invalid value: "non-null": may only be specified when type=Webhook]',
    ]);
    expect(validateAuthorizationConfiguration(cfg([]))).toEqual([{ type: 'FieldValueRequired', field: 'authorizers', detail: 'at least one authorization mode must be defined' }]);
  });

  it('parses and prints Go durations', () => {
    expect(parseGoDuration('5m0s')).toBe(300_000);
    expect(parseGoDuration('1h30m')).toBe(5_400_000);
    expect(parseGoDuration('250ms')).toBe(250);
    expect(parseGoDuration('5 minutes')).toBeUndefined();
    expect(formatGoDuration(300_000)).toBe('5m0s');
    expect(formatGoDuration(30_000)).toBe('30s');
    expect(formatGoDuration(5_400_000)).toBe('1h30m0s');
  });
});
