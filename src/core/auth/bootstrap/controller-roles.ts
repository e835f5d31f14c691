// The system:controller:<name> cluster roles of a default 1.32 server
// (bootstrappolicy controller_policy), each bound to the service account
// <name> in kube-system. Controllers behind gates that are off by default in
// 1.32 (resource-claim, service-cidrs, volumeattributesclass-protection,
// storage-version-*, selinux-warning, clustertrustbundle publisher) are absent.

import { READ, eventsRule, rule } from './rule';
import type { PolicyRule } from '../types';

export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

export interface ControllerRoleSpec {
  /** The controller (and its service account) name, without the prefix. */
  readonly controller: string;
  readonly rules: PolicyRule[];
}

export function controllerRoleSpecs(): ControllerRoleSpec[] {
  const c = (controller: string, rules: PolicyRule[]): ControllerRoleSpec => ({ controller, rules });
  return [
    c('attachdetach-controller', [
      rule(['list', 'watch'], [''], ['persistentvolumes', 'persistentvolumeclaims']),
      rule(['get', 'list', 'watch'], [''], ['nodes']),
      rule(['patch', 'update'], [''], ['nodes/status']),
      rule(['list', 'watch'], [''], ['pods']),
      eventsRule(),
      rule(['get', 'create', 'delete', 'list', 'watch'], ['storage.k8s.io'], ['volumeattachments']),
      rule(['get', 'watch', 'list'], ['storage.k8s.io'], ['csidrivers']),
      rule(['get', 'watch', 'list'], ['storage.k8s.io'], ['csinodes']),
    ]),
    c('clusterrole-aggregation-controller', [rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], ['rbac.authorization.k8s.io'], ['clusterroles'])]),
    c('cronjob-controller', [
      rule(['get', 'list', 'watch', 'update'], ['batch'], ['cronjobs']),
      rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], ['batch'], ['jobs']),
      rule(['update'], ['batch'], ['cronjobs/status']),
      rule(['update'], ['batch'], ['cronjobs/finalizers']),
      rule(['list', 'watch', 'delete'], [''], ['pods']),
      eventsRule(),
    ]),
    c('daemon-set-controller', [
      rule(READ, ['extensions', 'apps'], ['daemonsets']),
      rule(['update'], ['extensions', 'apps'], ['daemonsets/status']),
      rule(['update'], ['extensions', 'apps'], ['daemonsets/finalizers']),
      rule(['list', 'watch'], [''], ['nodes']),
      rule(['list', 'watch', 'create', 'delete', 'patch'], [''], ['pods']),
      rule(['create'], [''], ['pods/binding']),
      rule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], ['apps'], ['controllerrevisions']),
      eventsRule(),
    ]),
    c('deployment-controller', [
      rule(['get', 'list', 'watch', 'update'], ['extensions', 'apps'], ['deployments']),
      rule(['update'], ['extensions', 'apps'], ['deployments/status']),
      rule(['update'], ['extensions', 'apps'], ['deployments/finalizers']),
      rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], ['apps', 'extensions'], ['replicasets']),
      rule(['get', 'list', 'watch', 'update'], [''], ['pods']),
      eventsRule(),
    ]),
    c('disruption-controller', [
      rule(READ, ['extensions', 'apps'], ['deployments']),
      rule(READ, ['apps', 'extensions'], ['replicasets']),
      rule(READ, [''], ['replicationcontrollers']),
      rule(READ, ['policy'], ['poddisruptionbudgets']),
      rule(READ, ['apps'], ['statefulsets']),
      rule(['update'], ['policy'], ['poddisruptionbudgets/status']),
      rule(['patch', 'update'], [''], ['pods/status']),
      rule(['get'], ['*'], ['*/scale']),
      eventsRule(),
    ]),
    c('endpoint-controller', [
      rule(READ, [''], ['services', 'pods']),
      rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [''], ['endpoints']),
      rule(['create'], [''], ['endpoints/restricted']),
      eventsRule(),
    ]),
    c('endpointslice-controller', [
      rule(READ, [''], ['services', 'pods', 'nodes']),
      rule(['update'], [''], ['services/finalizers']),
      rule(['get', 'list', 'watch', 'create', 'update', 'delete'], ['discovery.k8s.io'], ['endpointslices']),
      eventsRule(),
    ]),
    c('endpointslicemirroring-controller', [
      rule(READ, [''], ['services', 'endpoints']),
      rule(['update'], [''], ['services/finalizers']),
      rule(['update'], [''], ['endpoints/finalizers']),
      rule(['get', 'list', 'watch', 'create', 'update', 'delete'], ['discovery.k8s.io'], ['endpointslices']),
      eventsRule(),
    ]),
    c('expand-controller', [
      rule(['get', 'list', 'watch', 'update', 'patch'], [''], ['persistentvolumes']),
      rule(['update', 'patch'], [''], ['persistentvolumeclaims/status']),
      rule(READ, [''], ['persistentvolumeclaims']),
      eventsRule(),
      rule(['get'], [''], ['services']),
    ]),
    c('ephemeral-volume-controller', [
      rule(READ, [''], ['pods']),
      rule(['update'], [''], ['pods/finalizers']),
      rule(['get', 'list', 'watch', 'create'], [''], ['persistentvolumeclaims']),
      eventsRule(),
    ]),
    c('generic-garbage-collector', [rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']), eventsRule()]),
    c('horizontal-pod-autoscaler', [
      rule(READ, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(['update'], ['autoscaling'], ['horizontalpodautoscalers/status']),
      rule(['get', 'update'], ['*'], ['*/scale']),
      rule(['list', 'watch'], [''], ['pods']),
      rule(['list', 'watch'], ['metrics.k8s.io'], ['pods']),
      rule(READ, ['custom.metrics.k8s.io'], ['*']),
      rule(READ, ['external.metrics.k8s.io'], ['*']),
      eventsRule(),
    ]),
    c('job-controller', [
      rule(['get', 'list', 'watch', 'update', 'patch'], ['batch'], ['jobs']),
      rule(['update'], ['batch'], ['jobs/status']),
      rule(['update'], ['batch'], ['jobs/finalizers']),
      rule(['list', 'watch', 'create', 'delete', 'patch'], [''], ['pods']),
      eventsRule(),
    ]),
    c('namespace-controller', [
      rule(['get', 'list', 'watch', 'delete'], [''], ['namespaces']),
      rule(['update'], [''], ['namespaces/finalize', 'namespaces/status']),
      rule(['get', 'list', 'watch', 'delete', 'deletecollection'], ['*'], ['*']),
    ]),
    c('node-controller', [
      rule(['get', 'list', 'watch', 'update', 'delete', 'patch'], [''], ['nodes']),
      rule(['patch', 'update'], [''], ['nodes/status']),
      rule(['patch', 'update'], [''], ['pods/status']),
      rule(['list', 'watch', 'get', 'delete'], [''], ['pods']),
      eventsRule(),
    ]),
    c('persistent-volume-binder', [
      rule(['get', 'list', 'watch', 'update', 'create', 'delete'], [''], ['persistentvolumes']),
      rule(['update'], [''], ['persistentvolumes/status']),
      rule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumeclaims']),
      rule(['update'], [''], ['persistentvolumeclaims/status']),
      rule(['list', 'watch', 'get', 'create', 'delete'], [''], ['pods']),
      rule(READ, ['storage.k8s.io'], ['storageclasses']),
      rule(['list', 'watch'], [''], ['nodes']),
      eventsRule(),
      rule(['watch'], [''], ['events']),
      rule(['get'], [''], ['services']),
    ]),
    c('pod-garbage-collector', [
      rule(['list', 'watch', 'delete'], [''], ['pods']),
      rule(READ, [''], ['nodes']),
      rule(['patch'], [''], ['pods/status']),
    ]),
    c('replicaset-controller', [
      rule(['get', 'list', 'watch', 'update'], ['apps', 'extensions'], ['replicasets']),
      rule(['update'], ['apps', 'extensions'], ['replicasets/status']),
      rule(['update'], ['apps', 'extensions'], ['replicasets/finalizers']),
      rule(['list', 'watch', 'patch', 'create', 'delete'], [''], ['pods']),
      eventsRule(),
    ]),
    c('replication-controller', [
      rule(['get', 'list', 'watch', 'update'], [''], ['replicationcontrollers']),
      rule(['update'], [''], ['replicationcontrollers/status']),
      rule(['update'], [''], ['replicationcontrollers/finalizers']),
      rule(['list', 'watch', 'patch', 'create', 'delete'], [''], ['pods']),
      eventsRule(),
    ]),
    c('resourcequota-controller', [rule(['list', 'watch'], ['*'], ['*']), rule(['update'], [''], ['resourcequotas/status']), eventsRule()]),
    c('route-controller', [rule(['list', 'watch'], [''], ['nodes']), rule(['patch'], [''], ['nodes/status']), eventsRule()]),
    c('service-account-controller', [rule(['create'], [''], ['serviceaccounts']), eventsRule()]),
    c('service-controller', [
      rule(READ, [''], ['services']),
      rule(['patch', 'update'], [''], ['services/status']),
      rule(['list', 'watch'], [''], ['nodes']),
      eventsRule(),
    ]),
    c('statefulset-controller', [
      rule(['list', 'watch'], [''], ['pods']),
      rule(READ, ['apps'], ['statefulsets']),
      rule(['update'], ['apps'], ['statefulsets/status']),
      rule(['update'], ['apps'], ['statefulsets/finalizers']),
      rule(['get', 'create', 'delete', 'update', 'patch'], [''], ['pods']),
      rule(['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'], ['apps'], ['controllerrevisions']),
      rule(['get', 'create', 'list', 'watch'], [''], ['persistentvolumeclaims']),
      rule(['update', 'delete'], [''], ['persistentvolumeclaims']),
      rule(['update'], [''], ['pods/finalizers']),
      eventsRule(),
    ]),
    c('ttl-controller', [rule(['update', 'patch', 'list', 'watch'], [''], ['nodes']), eventsRule()]),
    c('certificate-controller', [
      rule(['get', 'list', 'watch', 'delete'], ['certificates.k8s.io'], ['certificatesigningrequests']),
      rule(['update'], ['certificates.k8s.io'], ['certificatesigningrequests/status', 'certificatesigningrequests/approval']),
      rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
      rule(['sign'], ['certificates.k8s.io'], ['signers'], [
        'kubernetes.io/legacy-unknown',
        'kubernetes.io/kube-apiserver-client',
        'kubernetes.io/kube-apiserver-client-kubelet',
        'kubernetes.io/kubelet-serving',
      ]),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      eventsRule(),
    ]),
    c('pvc-protection-controller', [rule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumeclaims']), rule(['list', 'watch', 'get'], [''], ['pods']), eventsRule()]),
    c('pv-protection-controller', [rule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumes']), eventsRule()]),
    c('ttl-after-finished-controller', [rule(['get', 'list', 'watch', 'delete'], ['batch'], ['jobs']), eventsRule()]),
    c('root-ca-cert-publisher', [rule(['create', 'update'], [''], ['configmaps']), eventsRule()]),
    c('validatingadmissionpolicy-status-controller', [
      rule(['get', 'list', 'watch'], ['admissionregistration.k8s.io'], ['validatingadmissionpolicies']),
      rule(['get', 'patch', 'update'], ['admissionregistration.k8s.io'], ['validatingadmissionpolicies/status']),
      eventsRule(),
    ]),
    c('legacy-service-account-token-cleaner', [
      rule(['get'], [''], ['configmaps'], ['kube-apiserver-legacy-service-account-token-tracking']),
      rule(['patch', 'delete'], [''], ['secrets']),
    ]),
  ];
}
