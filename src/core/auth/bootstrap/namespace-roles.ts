// The Roles and RoleBindings a default 1.32 server creates in kube-system and
// kube-public (bootstrappolicy namespace_policy).

import { READ, eventsRule, rule } from './rule';
import { USER, type PolicyRule, type Subject } from '../types';

export interface NamespaceRoleSpec {
  readonly namespace: string;
  readonly name: string;
  readonly rules: PolicyRule[];
}
export interface NamespaceRoleBindingSpec {
  readonly namespace: string;
  readonly name: string;
  readonly roleName: string;
  readonly subjects: Subject[];
}

const G = 'rbac.authorization.k8s.io';
const user = (name: string): Subject => ({ apiGroup: G, kind: 'User', name });
const sa = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

export function namespaceRoleSpecs(): NamespaceRoleSpec[] {
  return [
    {
      namespace: 'kube-system',
      name: 'extension-apiserver-authentication-reader',
      rules: [rule(READ, [''], ['configmaps'], ['extension-apiserver-authentication'])],
    },
    { namespace: 'kube-system', name: 'system:controller:bootstrap-signer', rules: [rule(READ, [''], ['secrets'])] },
    { namespace: 'kube-system', name: 'system:controller:cloud-provider', rules: [rule(['create', 'get', 'list', 'watch'], [''], ['configmaps'])] },
    { namespace: 'kube-system', name: 'system:controller:token-cleaner', rules: [rule(['get', 'list', 'watch', 'delete'], [''], ['secrets']), eventsRule()] },
    {
      namespace: 'kube-system',
      name: 'system::leader-locking-kube-controller-manager',
      rules: [
        rule(['watch'], [''], ['configmaps']),
        rule(['get', 'update'], [''], ['configmaps'], ['kube-controller-manager']),
        rule(['get', 'watch', 'list', 'create', 'update'], ['coordination.k8s.io'], ['leases']),
      ],
    },
    {
      namespace: 'kube-system',
      name: 'system::leader-locking-kube-scheduler',
      rules: [rule(['watch'], [''], ['configmaps']), rule(['get', 'update'], [''], ['configmaps'], ['kube-scheduler'])],
    },
    {
      namespace: 'kube-public',
      name: 'system:controller:bootstrap-signer',
      rules: [rule(READ, [''], ['configmaps']), rule(['update'], [''], ['configmaps'], ['cluster-info']), eventsRule()],
    },
  ];
}

export function namespaceRoleBindingSpecs(): NamespaceRoleBindingSpec[] {
  return [
    {
      namespace: 'kube-system',
      name: 'system::extension-apiserver-authentication-reader',
      roleName: 'extension-apiserver-authentication-reader',
      subjects: [user(USER.kubeControllerManager), user(USER.kubeScheduler)],
    },
    {
      namespace: 'kube-system',
      name: 'system::leader-locking-kube-controller-manager',
      roleName: 'system::leader-locking-kube-controller-manager',
      subjects: [user(USER.kubeControllerManager), sa('kube-system', 'kube-controller-manager'), sa('kube-system', 'leader-election-controller')],
    },
    {
      namespace: 'kube-system',
      name: 'system::leader-locking-kube-scheduler',
      roleName: 'system::leader-locking-kube-scheduler',
      subjects: [user(USER.kubeScheduler), sa('kube-system', 'kube-scheduler')],
    },
    { namespace: 'kube-system', name: 'system:controller:bootstrap-signer', roleName: 'system:controller:bootstrap-signer', subjects: [sa('kube-system', 'bootstrap-signer')] },
    { namespace: 'kube-system', name: 'system:controller:cloud-provider', roleName: 'system:controller:cloud-provider', subjects: [sa('kube-system', 'cloud-provider')] },
    { namespace: 'kube-system', name: 'system:controller:token-cleaner', roleName: 'system:controller:token-cleaner', subjects: [sa('kube-system', 'token-cleaner')] },
    { namespace: 'kube-public', name: 'system:controller:bootstrap-signer', roleName: 'system:controller:bootstrap-signer', subjects: [sa('kube-system', 'bootstrap-signer')] },
  ];
}
