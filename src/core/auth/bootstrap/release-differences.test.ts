// The default RBAC policy is 1.32's, not a neighbouring release's (issue 5;
// spec 001 "RBAC" 5–8; docs/decisions/0192). Each case names a rule that
// differs between 1.28 and 1.34 and the 1.32 fact it pins, as compared with
// upstream's bootstrappolicy sources of several releases.

import { describe, expect, it } from 'vitest';
import { bootstrapPolicy } from './policy';
import type { PolicyRule } from '../types';

const policy = bootstrapPolicy();
const clusterRole = (name: string) => policy.clusterRoles.find((r) => r.metadata.name === name);
const role = (namespace: string, name: string) => policy.roles.find((r) => r.metadata.name === name && r.metadata.namespace === namespace);
const binding = (namespace: string, name: string) => policy.roleBindings.find((r) => r.metadata.name === name && r.metadata.namespace === namespace);
const grants = (rules: readonly PolicyRule[] | null | undefined, group: string, resource: string, verb: string) =>
  (rules ?? []).some((r) => (r.apiGroups ?? []).includes(group) && (r.resources ?? []).includes(resource) && r.verbs.includes(verb));

describe('1.32 default RBAC policy: rules that differ between releases', () => {
  it('system:service-account-issuer-discovery allows the slash-ended paths (added in 1.28, kubernetes#117511)', () => {
    expect(clusterRole('system:service-account-issuer-discovery')?.rules).toEqual([
      { nonResourceURLs: ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'], verbs: ['get'] },
    ]);
  });

  it('has no roles of controllers whose gates are off by default in 1.32 (service CIDRs: on from 1.33; DRA, VolumeAttributesClass: later)', () => {
    for (const name of ['service-cidrs-controller', 'resource-claim-controller', 'volumeattributesclass-protection-controller', 'selinux-warning-controller', 'device-taint-eviction-controller']) {
      expect([name, clusterRole(`system:controller:${name}`)]).toEqual([name, undefined]);
      expect(policy.clusterRoleBindings.some((b) => b.metadata.name === `system:controller:${name}`)).toBe(false);
    }
  });

  it('has the roles of controllers that 1.29 and 1.30 added, with their rules', () => {
    expect(clusterRole('system:controller:legacy-service-account-token-cleaner')?.rules).toEqual([
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-apiserver-legacy-service-account-token-tracking'], verbs: ['get'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['delete', 'patch'] },
    ]);
    const vap = clusterRole('system:controller:validatingadmissionpolicy-status-controller')?.rules;
    expect(grants(vap, 'admissionregistration.k8s.io', 'validatingadmissionpolicies/status', 'patch')).toBe(true);
  });

  it('lets the pod garbage collector and node controller patch pod status (pod disruption conditions, GA in 1.31)', () => {
    expect(grants(clusterRole('system:controller:pod-garbage-collector')?.rules, '', 'pods/status', 'patch')).toBe(true);
    expect(grants(clusterRole('system:controller:node-controller')?.rules, '', 'pods/status', 'patch')).toBe(true);
  });

  it('keeps configmap leader locking and has no leasecandidates rules (coordinated leader election is alpha in 1.32)', () => {
    const kcm = role('kube-system', 'system::leader-locking-kube-controller-manager')?.rules;
    expect(grants(kcm, '', 'configmaps', 'watch')).toBe(true);
    expect(kcm).toContainEqual({ apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-controller-manager'], verbs: ['get', 'update'] });
    const scheduler = role('kube-system', 'system::leader-locking-kube-scheduler')?.rules;
    expect(scheduler).toEqual([
      { apiGroups: [''], resources: ['configmaps'], verbs: ['watch'] },
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-scheduler'], verbs: ['get', 'update'] },
    ]);
    for (const rules of [kcm, scheduler]) expect(grants(rules, 'coordination.k8s.io', 'leasecandidates', 'create')).toBe(false);
    expect(binding('kube-system', 'system::leader-locking-kube-scheduler')?.subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:kube-scheduler' },
      { kind: 'ServiceAccount', name: 'kube-scheduler', namespace: 'kube-system' },
    ]);
  });

  it('gives nodes no DRA or ClusterTrustBundle rules (both gates off by default in 1.32)', () => {
    const node = clusterRole('system:node')?.rules;
    expect(grants(node, 'resource.k8s.io', 'resourceslices', 'create')).toBe(false);
    expect(grants(node, 'certificates.k8s.io', 'clustertrustbundles', 'list')).toBe(false);
    expect(grants(node, 'node.k8s.io', 'runtimeclasses', 'watch')).toBe(true);
  });

  it('lets every authenticated user create SelfSubjectReviews (kubectl auth whoami)', () => {
    expect(clusterRole('system:basic-user')?.rules).toContainEqual({ apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] });
  });
});
