// audit.k8s.io/v1 Policy matching and validation (--audit-policy-file, kube's
// policy checker): the first matching rule decides the level; users,
// userGroups and verbs narrow; namespaces/resources only match resource
// requests, nonResourceURLs only non-resource ones; resource patterns
// "pods", "pods/log", "*", "*/status", "pods/*"; resourceNames; omitStages
// of the policy and the rule together; omitManagedFields of the rule first.

import { describe, expect, it } from 'vitest';
import { requestInfoFor } from '../request-info';
import { auditDecision, parseAuditPolicy, type AuditPolicy } from './policy';

const policy = (rules: AuditPolicy['rules'], extra: Partial<AuditPolicy> = {}): AuditPolicy => ({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules, ...extra });
const attrs = (method: string, path: string, user = { username: 'alice', groups: ['dev', 'system:authenticated'] }) => ({
  user,
  info: requestInfoFor(method, path, new URLSearchParams()),
});
const level = (p: AuditPolicy, method: string, path: string, user?: { username: string; groups: string[] }) => auditDecision(p, attrs(method, path, user)).level;

describe('audit policy rules', () => {
  it('the first matching rule wins; no match is None', () => {
    const p = policy([
      { level: 'None', users: ['system:kube-proxy'] },
      { level: 'RequestResponse', resources: [{ group: '', resources: ['configmaps'] }] },
      { level: 'Metadata', verbs: ['get'] },
    ]);
    expect(level(p, 'GET', '/api/v1/namespaces/default/configmaps/x', { username: 'system:kube-proxy', groups: [] })).toBe('None');
    expect(level(p, 'GET', '/api/v1/namespaces/default/configmaps/x')).toBe('RequestResponse');
    expect(level(p, 'GET', '/api/v1/namespaces/default/pods/x')).toBe('Metadata');
    expect(level(p, 'DELETE', '/api/v1/namespaces/default/pods/x')).toBe('None');
  });

  it('userGroups match any of the user\'s groups; a rule naming users never matches a request without a user', () => {
    const p = policy([{ level: 'Request', userGroups: ['dev'] }, { level: 'Metadata', users: ['alice'] }]);
    expect(level(p, 'GET', '/api/v1/pods')).toBe('Request');
    expect(level(p, 'GET', '/api/v1/pods', { username: 'alice', groups: [] })).toBe('Metadata');
    expect(auditDecision(p, { info: requestInfoFor('GET', '/api/v1/pods', new URLSearchParams()) }).level).toBe('None');
  });

  it('resource patterns: exact, "*", "*/status", "pods/*" (the resource and all its subresources), and resourceNames', () => {
    const only = (resources: string[], resourceNames?: string[]) => policy([{ level: 'Request', resources: [{ group: '', resources, ...(resourceNames ? { resourceNames } : {}) }] }]);
    expect(level(only(['pods']), 'GET', '/api/v1/namespaces/a/pods/p/log')).toBe('None');
    expect(level(only(['pods/log']), 'GET', '/api/v1/namespaces/a/pods/p/log')).toBe('Request');
    expect(level(only(['*']), 'GET', '/api/v1/namespaces/a/secrets/s')).toBe('Request');
    expect(level(only(['*']), 'GET', '/apis/apps/v1/namespaces/a/deployments/d')).toBe('None');
    expect(level(only(['*/status']), 'PUT', '/api/v1/namespaces/a/pods/p/status')).toBe('Request');
    expect(level(only(['*/status']), 'PUT', '/api/v1/namespaces/a/pods/p')).toBe('None');
    expect(level(only(['pods/*']), 'PUT', '/api/v1/namespaces/a/pods/p')).toBe('Request');
    expect(level(only(['pods/*']), 'PUT', '/api/v1/namespaces/a/pods/p/status')).toBe('Request');
    expect(level(only(['configmaps'], ['kube-root-ca.crt']), 'GET', '/api/v1/namespaces/a/configmaps/kube-root-ca.crt')).toBe('Request');
    expect(level(only(['configmaps'], ['kube-root-ca.crt']), 'GET', '/api/v1/namespaces/a/configmaps/other')).toBe('None');
    // A group with no resources listed matches everything in it.
    expect(level(policy([{ level: 'Request', resources: [{ group: 'apps' }] }]), 'GET', '/apis/apps/v1/deployments')).toBe('Request');
  });

  it('namespaces match resource requests only ("" is cluster scope); nonResourceURLs match non-resource requests only, "*" a prefix', () => {
    const p = policy([
      { level: 'RequestResponse', namespaces: ['kube-system'] },
      { level: 'Request', namespaces: [''] },
      { level: 'None', nonResourceURLs: ['/healthz*', '/version'] },
      { level: 'Metadata' },
    ]);
    expect(level(p, 'GET', '/api/v1/namespaces/kube-system/pods')).toBe('RequestResponse');
    expect(level(p, 'GET', '/api/v1/nodes')).toBe('Request');
    expect(level(p, 'GET', '/healthz/etcd')).toBe('None');
    expect(level(p, 'GET', '/version')).toBe('None');
    expect(level(p, 'GET', '/versions')).toBe('Metadata');
  });

  it('omitStages of the policy and of the rule are both left out; omitManagedFields: the rule\'s, else the policy\'s', () => {
    const p = policy(
      [
        { level: 'Request', verbs: ['create'], omitStages: ['ResponseStarted'], omitManagedFields: false },
        { level: 'Metadata' },
      ],
      { omitStages: ['RequestReceived'], omitManagedFields: true },
    );
    expect(auditDecision(p, attrs('POST', '/api/v1/namespaces/a/pods'))).toEqual({ level: 'Request', omitStages: ['RequestReceived', 'ResponseStarted'], omitManagedFields: false });
    expect(auditDecision(p, attrs('GET', '/api/v1/pods'))).toEqual({ level: 'Metadata', omitStages: ['RequestReceived'], omitManagedFields: true });
  });
});

describe('audit policy file', () => {
  it('YAML with kind Policy of audit.k8s.io/v1 loads', () => {
    const p = parseAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n', '/etc/audit.yaml');
    expect(p.rules).toEqual([{ level: 'Metadata' }]);
  });

  it('refuses an unknown level, a stage that does not exist, a rule for both resources and URLs, and no rules', () => {
    expect(() => parseAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Everything\n', 'p.yaml')).toThrow(
      'loading audit policy file: invalid audit policy file "p.yaml": rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
    );
    expect(() => parseAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  omitStages: [Done]\n', 'p.yaml')).toThrow(
      'rules[0].omitStages[0]: Unsupported value: "Done": supported values: "RequestReceived", "ResponseStarted", "ResponseComplete", "Panic"',
    );
    expect(() =>
      parseAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  namespaces: [a]\n  nonResourceURLs: [/x]\n', 'p.yaml'),
    ).toThrow('rules cannot apply to both regular resources and non-resource URLs');
    expect(() => parseAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n', 'p.yaml')).toThrow('loaded illegal policy with 0 rules from file "p.yaml"');
    expect(() => parseAuditPolicy('kind: Config\n', 'p.yaml')).toThrow('failed decoding file "p.yaml"');
  });
});
