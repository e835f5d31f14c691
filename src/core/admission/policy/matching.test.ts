// Rule matching shared by policies and webhooks (kube's rules.Matcher):
// operations, groups, versions, resources with subresource patterns, scope,
// resourceNames; excludeResourceRules and selectors of matchResources.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import type { AdmissionAttributes, AdmissionContext } from '../types';
import { matchResourcesMatch, ruleMatches } from './matching';

function attrs(resource: string, subresource = '', namespace = 'default', extra: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE',
    resource: { group: '', version: 'v1', resource },
    subresource,
    kind: { group: '', version: 'v1', kind: 'X' },
    namespace,
    name: 'n',
    dryRun: false,
    addWarning: () => undefined,
    addAuditAnnotation: () => undefined,
    ...extra,
  };
}

const rule = (resources: string[], extra: Record<string, unknown> = {}) => ({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources, ...extra });

describe('rules (webhook and policy resource rules)', () => {
  it('matches resources and subresources as kube does', () => {
    expect(ruleMatches(rule(['*']), attrs('pods'))).toBe(true);
    expect(ruleMatches(rule(['*']), attrs('pods', 'status'))).toBe(false);
    expect(ruleMatches(rule(['*/*']), attrs('pods', 'status'))).toBe(true);
    expect(ruleMatches(rule(['pods/*']), attrs('pods', 'status'))).toBe(true);
    expect(ruleMatches(rule(['pods/*']), attrs('pods'))).toBe(false);
    expect(ruleMatches(rule(['*/status']), attrs('deployments', 'status'))).toBe(true);
    expect(ruleMatches(rule(['pods']), attrs('pods', 'status'))).toBe(false);
    expect(ruleMatches(rule(['pods/status']), attrs('pods', 'status'))).toBe(true);
  });

  it('matches scope, operations and resourceNames', () => {
    expect(ruleMatches(rule(['*'], { scope: 'Namespaced' }), attrs('pods'))).toBe(true);
    expect(ruleMatches(rule(['*'], { scope: 'Namespaced' }), attrs('nodes', '', ''))).toBe(false);
    expect(ruleMatches(rule(['*'], { scope: 'Cluster' }), attrs('namespaces', '', 'ns'))).toBe(true);
    expect(ruleMatches(rule(['*'], { scope: 'Namespaced' }), attrs('namespaces', '', 'ns'))).toBe(false);
    expect(ruleMatches(rule(['*'], { operations: ['UPDATE'] }), attrs('pods'))).toBe(false);
    expect(ruleMatches(rule(['*'], { resourceNames: ['other'] }), attrs('pods'))).toBe(false);
    expect(ruleMatches(rule(['*'], { resourceNames: ['n'] }), attrs('pods'))).toBe(true);
  });
});

describe('matchResources (namespace and object selectors, excluded rules)', () => {
  const ctx: AdmissionContext = {
    reader: {
      get: async (_gr, _ns, name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { env: name === 'prod' ? 'prod' : 'dev' } } }) as KubeObject,
      list: async () => [],
    },
    clock: undefined as never,
    randomString: () => '',
    services: {},
  };
  const mr = { resourceRules: [rule(['*'])], namespaceSelector: { matchLabels: { env: 'prod' } } };

  it('selects by the namespace\'s labels, and ignores the namespace selector for cluster-scoped objects', async () => {
    expect(await matchResourcesMatch(mr, attrs('pods', '', 'prod'), ctx)).toBe(true);
    expect(await matchResourcesMatch(mr, attrs('pods', '', 'dev'), ctx)).toBe(false);
    expect(await matchResourcesMatch(mr, attrs('nodes', '', ''), ctx)).toBe(true);
  });

  it('selects by old or new object labels and drops excluded resources', async () => {
    const withLabels = (labels: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'n', labels } }) as KubeObject;
    const sel = { resourceRules: [rule(['*'])], objectSelector: { matchLabels: { a: 'b' } }, excludeResourceRules: [rule(['secrets'])] };
    expect(await matchResourcesMatch(sel, attrs('pods', '', 'x', { object: withLabels({ a: 'b' }) }), ctx)).toBe(true);
    expect(await matchResourcesMatch(sel, attrs('pods', '', 'x', { object: withLabels({}), oldObject: withLabels({ a: 'b' }) }), ctx)).toBe(true);
    expect(await matchResourcesMatch(sel, attrs('pods', '', 'x', { object: withLabels({}) }), ctx)).toBe(false);
    expect(await matchResourcesMatch(sel, attrs('secrets', '', 'x', { object: withLabels({ a: 'b' }) }), ctx)).toBe(false);
  });
});
