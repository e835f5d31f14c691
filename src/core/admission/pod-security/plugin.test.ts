// The PodSecurity plugin with a configuration (PodSecurityConfiguration
// defaults and exemptions), driven directly with admission attributes.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import type { AdmissionAttributes, AdmissionContext } from '../types';
import { podSecurityConfigFromObject } from './config';
import { createPodSecurityPlugin } from './plugin';

function context(namespaces: Record<string, Record<string, string>>): AdmissionContext {
  return {
    reader: {
      get: async (_gr, _ns, name) => (namespaces[name] ? ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: namespaces[name] } } as KubeObject) : undefined),
      list: async () => [],
    },
    clock: undefined as never,
    randomString: () => '',
    services: {},
  };
}

function attrs(resource: string, object: KubeObject, extra: Partial<AdmissionAttributes> = {}) {
  const warnings: string[] = [];
  const annotations: Record<string, string> = {};
  const a: AdmissionAttributes = {
    operation: 'CREATE',
    resource: { group: '', version: 'v1', resource },
    subresource: '',
    kind: { group: '', version: 'v1', kind: resource === 'pods' ? 'Pod' : 'Namespace' },
    namespace: resource === 'pods' ? 'team' : '',
    name: object.metadata?.name ?? '',
    object,
    dryRun: false,
    addWarning: (m) => warnings.push(m),
    addAuditAnnotation: (k, v) => (annotations[k] = v),
    ...extra,
  };
  return { a, warnings, annotations };
}

const hostPod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { hostPID: true, containers: [{ name: 'c' }] } } as KubeObject;

describe('PodSecurity configuration (PodSecurityConfiguration defaults and exemptions)', () => {
  it('applies configured defaults to namespaces without labels, with audit annotations', async () => {
    const plugin = createPodSecurityPlugin(podSecurityConfigFromObject({ defaults: { enforce: 'baseline', audit: 'baseline' } }));
    const { a, annotations } = attrs('pods', hostPod);
    await expect(plugin.validate!(a, context({ team: {} }))).rejects.toThrow('pods "p" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true)');
    expect(annotations).toEqual({
      'pod-security.kubernetes.io/enforce-policy': 'baseline:latest',
      'pod-security.kubernetes.io/audit-violations': 'would violate PodSecurity "baseline:latest": host namespaces (hostPID=true)',
    });
  });

  it('lets exempt namespaces, users and runtime classes through with the exempt annotation', async () => {
    const plugin = createPodSecurityPlugin(
      podSecurityConfigFromObject({ defaults: { enforce: 'restricted' }, exemptions: { namespaces: ['team'], usernames: ['ops'], runtimeClasses: ['kata'] } }),
    );
    const ns = attrs('pods', hostPod);
    await plugin.validate!(ns.a, context({ team: {} }));
    expect(ns.annotations).toEqual({ 'pod-security.kubernetes.io/exempt': 'namespace' });
    const user = attrs('pods', hostPod, { namespace: 'other', user: { username: 'ops', groups: [] } as never });
    await plugin.validate!(user.a, context({ other: {} }));
    expect(user.annotations).toEqual({ 'pod-security.kubernetes.io/exempt': 'user' });
    const rc = attrs('pods', { ...hostPod, spec: { ...(hostPod as any).spec, runtimeClassName: 'kata' } } as KubeObject, { namespace: 'other' });
    await plugin.validate!(rc.a, context({ other: {} }));
    expect(rc.annotations).toEqual({ 'pod-security.kubernetes.io/exempt': 'runtimeClass' });
  });

  it('warns that the labels of an exempt namespace will be ignored', async () => {
    const plugin = createPodSecurityPlugin(podSecurityConfigFromObject({ exemptions: { namespaces: ['team'] } }));
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team', labels: { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'baseline' } } } as KubeObject;
    const { a, warnings } = attrs('namespaces', ns);
    await plugin.validate!(a, context({}));
    expect(warnings).toEqual(['namespace "team" is exempt from Pod Security, and the policy (enforce=restricted:latest, warn=baseline:latest) will be ignored']);
  });

  it('refuses bad defaults as kube-apiserver does at start-up', () => {
    expect(() => podSecurityConfigFromObject({ defaults: { enforce: 'strict' } })).toThrow('defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted');
  });
});
