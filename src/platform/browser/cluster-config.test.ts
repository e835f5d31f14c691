// The configuration document the browser host keeps: what flags and files it
// stands for (kube-apiserver's --authorization-config, --authentication-config,
// --token-auth-file, --feature-gates, --runtime-config), and validation with
// kube's limits before it is saved.

import { describe, expect, it } from 'vitest';
import { parseTokenFile } from '../../core/auth';
import { administratorOf, isOpen, nodesOf, openConfiguration, secureConfiguration, toServerInput, type ClusterConfiguration } from './cluster-config';
import { validateConfiguration } from './cluster-config-validation';

function withAuthorizers(authorizers: unknown[]): ClusterConfiguration {
  return { ...secureConfiguration(), authorization: { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthorizationConfiguration', authorizers } };
}

const webhook = (extra: Record<string, unknown> = {}) => ({
  type: 'Webhook',
  name: 'hook',
  webhook: {
    timeout: '3s',
    authorizedTTL: '5m',
    unauthorizedTTL: '30s',
    subjectAccessReviewVersion: 'v1',
    matchConditionSubjectAccessReviewVersion: 'v1',
    failurePolicy: 'NoOpinion',
    connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '/etc/kubernetes/hook.kubeconfig' },
    ...extra,
  },
});

describe('the secure default (rule: a kubeadm-like cluster: Node,RBAC, an administrator in system:masters, anonymous limited by RBAC)', () => {
  it('stands for --authorization-config with Node then RBAC, a token file, bootstrap tokens and the test issuer', () => {
    const doc = secureConfiguration();
    const { flags, files } = toServerInput(doc);
    expect(flags).toEqual({
      'authorization-config': '/etc/kubernetes/authorization-config.yaml',
      'authentication-config': '/etc/kubernetes/authentication-config.yaml',
      'token-auth-file': '/etc/kubernetes/tokens.csv',
      'enable-bootstrap-token-auth': 'true',
    });
    expect(JSON.parse(files['/etc/kubernetes/authorization-config.yaml']!).authorizers.map((a: { type: string }) => a.type)).toEqual(['Node', 'RBAC']);
    const tokens = parseTokenFile(files['/etc/kubernetes/tokens.csv']!).entries;
    expect(tokens.map((t) => [t.user.username, t.user.groups])).toEqual([
      ['kubernetes-admin', ['system:masters']],
      ['jane', ['developers']],
      ['bob', []],
    ]);
    expect(administratorOf(doc)?.user).toBe('kubernetes-admin');
    expect(isOpen(doc)).toBe(false);
  });

  it('generates a different administrator token for every cluster', () => {
    expect(administratorOf(secureConfiguration())!.token).not.toBe(administratorOf(secureConfiguration())!.token);
    expect(administratorOf(secureConfiguration())!.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('is valid', async () => {
    expect(await validateConfiguration(secureConfiguration())).toEqual({ valid: true, problems: [], warnings: [] });
  });
});

describe('the open set-up (rule: no access-control flags: kube defaults, AlwaysAllow, no credentials needed)', () => {
  it('passes no access flags but keeps feature gates and runtime-config', () => {
    const doc = openConfiguration({ ...secureConfiguration(), featureGates: { AllowUnsafeMalformedObjectDeletion: true }, runtimeConfig: { 'batch/v1': 'false' } });
    expect(isOpen(doc)).toBe(true);
    expect(toServerInput(doc).flags).toEqual({ 'feature-gates': 'AllowUnsafeMalformedObjectDeletion=true', 'runtime-config': 'batch/v1=false' });
  });
});

describe('validation before saving', () => {
  it('refuses authorizers without names (rule: authorizers[].name is required)', async () => {
    const result = await validateConfiguration(withAuthorizers([{ type: 'RBAC' }]));
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([{ field: 'authorization.authorizers[0].name', message: 'authorization.authorizers[0].name: Required value' }]);
  });

  it('refuses a webhook timeout above 30s (rule: timeout must be > 0s and <= 30s)', async () => {
    const result = await validateConfiguration(withAuthorizers([webhook({ timeout: '31s' }), { type: 'RBAC', name: 'rbac' }]));
    expect(result.problems.map((p) => p.message)).toEqual(['authorization.authorizers[0].webhook.timeout: Invalid value: "31s": must be > 0s and <= 30s']);
  });

  it('refuses more than 64 match conditions (rule: at most 64 per webhook)', async () => {
    const matchConditions = Array.from({ length: 65 }, (_, i) => ({ expression: `request.user == "u${i}"` }));
    const result = await validateConfiguration(withAuthorizers([webhook({ matchConditions })]));
    expect(result.problems.map((p) => p.message)).toEqual(['authorization.authorizers[0].webhook.matchConditions: Too many: 65: must have at most 64 items']);
  });

  it('refuses more than 64 JWT authenticators (rule: at most 64)', async () => {
    const jwt = Array.from({ length: 65 }, (_, i) => ({ issuer: { url: `https://issuer-${i}.example`, audiences: ['a'] }, claimMappings: { username: { claim: 'sub', prefix: '' } } }));
    const result = await validateConfiguration({ ...secureConfiguration(), authentication: { apiVersion: 'apiserver.config.k8s.io/v1beta1', kind: 'AuthenticationConfiguration', jwt } });
    expect(result.problems.map((p) => p.message)).toEqual(['authentication.jwt: Too many: 65: must have at most 64 items']);
  });

  it('refuses an http issuer (rule: issuer URL scheme must be https)', async () => {
    const jwt = [{ issuer: { url: 'http://issuer.example', audiences: ['a'] }, claimMappings: { username: { claim: 'sub', prefix: '' } } }];
    const result = await validateConfiguration({ ...secureConfiguration(), authentication: { apiVersion: 'apiserver.config.k8s.io/v1beta1', kind: 'AuthenticationConfiguration', jwt } });
    expect(result.problems.map((p) => p.message)).toEqual(['authentication.jwt[0].issuer.url: Invalid value: "http://issuer.example": URL scheme must be https']);
  });

  it('refuses unknown feature gates and bad runtime-config values as kube-apiserver does at start', async () => {
    const result = await validateConfiguration({ ...secureConfiguration(), featureGates: { NoSuchGate: true }, runtimeConfig: { 'batch/v1': 'maybe' } });
    expect(result.problems.map((p) => p.message)).toEqual([
      'featureGates: unrecognized feature gate: NoSuchGate',
      'runtimeConfig: invalid value of batch/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
    ]);
  });

  it('reports start-up errors with kube-apiserver\'s text (a webhook kubeconfig that is not there)', async () => {
    const result = await validateConfiguration(withAuthorizers([webhook(), { type: 'RBAC', name: 'rbac' }]));
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([{ field: '', message: 'open /etc/kubernetes/hook.kubeconfig: no such file or directory' }]);
  });

  it('checks its own shape: kind, tokens, unknown fields', async () => {
    const result = await validateConfiguration({ apiVersion: 'kubetab.dev/v1', kind: 'Other', tokens: [{ token: 'x', user: '' }], extra: 1 });
    expect(result.problems.map((p) => p.field)).toEqual(['kind', 'extra', 'tokens[0].user', 'tokens[0].uid']);
  });

  it('warns when no user is in system:masters (the app would have no administrator)', async () => {
    const doc = { ...secureConfiguration(), tokens: [{ token: 't', user: 'u', uid: 'u' }] };
    const result = await validateConfiguration(doc);
    expect(result.valid).toBe(true);
    expect(result.warnings).toEqual(['no static token user is in system:masters: the app will have no administrator to send requests as']);
  });

  it('passes on kube\'s start-up warning for anonymous with AlwaysAllow', async () => {
    const result = await validateConfiguration(withAuthorizers([{ type: 'AlwaysAllow', name: 'allow' }]));
    expect(result.valid).toBe(true);
    expect(result.warnings).toEqual(['AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer']);
  });
});

describe('the node topology in the document (issue 13: kind default, configurable, zero allowed)', () => {
  it('means kind\'s three nodes when absent, and the open set-up keeps the nodes it is given', async () => {
    expect(nodesOf(secureConfiguration()).map((n) => `${n.name} ${n.role}`)).toEqual(['kubetab-control-plane control-plane', 'kubetab-worker worker', 'kubetab-worker2 worker']);
    const mine = { ...secureConfiguration(), nodes: [{ name: 'solo', role: 'control-plane' as const, cpu: '2', memory: '4Gi', ephemeralStorage: '20Gi', maxPods: 30 }] };
    expect(openConfiguration(mine).nodes).toEqual(mine.nodes);
  });

  it('accepts no nodes and partial entries, refuses what --nodes-config refuses', async () => {
    expect((await validateConfiguration({ ...secureConfiguration(), nodes: [] })).valid).toBe(true);
    expect((await validateConfiguration({ ...secureConfiguration(), nodes: [{ role: 'control-plane' }, { role: 'worker', cpu: '500m' }] })).valid).toBe(true);
    expect((await validateConfiguration({ ...secureConfiguration(), nodes: [{ role: 'worker', name: 'a' }, { role: 'worker', name: 'a' }] })).problems).toEqual([{ field: 'nodes[1].name', message: 'nodes[1].name: "a" is used twice' }]);
    expect((await validateConfiguration({ ...secureConfiguration(), nodes: [{ role: 'master' }] })).problems).toEqual([{ field: 'nodes[0].role', message: 'nodes[0].role: must be "control-plane" or "worker"' }]);
    expect((await validateConfiguration({ ...secureConfiguration(), nodes: {} })).problems).toEqual([{ field: 'nodes', message: 'nodes: the node list must be a list of nodes' }]);
    const many = Array.from({ length: 101 }, () => ({ role: 'worker' }));
    expect((await validateConfiguration({ ...secureConfiguration(), nodes: many })).problems).toEqual([{ field: 'nodes', message: 'nodes: Too many: 101: must have at most 100 items' }]);
  });
});
