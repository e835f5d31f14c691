// The cluster roles a kube-apiserver 1.32 creates at start with default
// feature gates (bootstrappolicy.ClusterRoles), as data. Roles behind gates
// that are off by default in 1.32 (DynamicResourceAllocation,
// ClusterTrustBundle, MultiCIDRServiceAllocator, CoordinatedLeaderElection)
// are left out, as are their rules. admin, edit and view are aggregated: they
// carry an aggregationRule and get their rules from the system:aggregate-to-*
// roles (and from each other) through the aggregation controller.

import { nodeRules } from './node-rules';
import { READ, READ_UPDATE, READ_WRITE, WRITE, eventsRule, rule, urls } from './rule';
import type { AggregationRule, ClusterRole, PolicyRule } from '../types';

const AGG = 'rbac.authorization.k8s.io/aggregate-to-';
const aggregate = (to: string): AggregationRule => ({ clusterRoleSelectors: [{ matchLabels: { [`${AGG}${to}`]: 'true' } }] });

interface Spec {
  name: string;
  rules?: PolicyRule[];
  labels?: Record<string, string>;
  aggregationRule?: AggregationRule;
}

function role(spec: Spec): ClusterRole {
  const r: ClusterRole = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: spec.name }, rules: spec.rules ?? null };
  if (spec.labels) r.metadata.labels = { ...spec.labels };
  if (spec.aggregationRule) r.aggregationRule = spec.aggregationRule;
  return r;
}

export function clusterRoleSpecs(): ClusterRole[] {
  return [
    role({ name: 'cluster-admin', rules: [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])] }),
    role({
      name: 'system:discovery',
      rules: [urls(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'])],
    }),
    role({
      name: 'system:monitoring',
      rules: [urls(['get'], ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'])],
    }),
    role({
      name: 'system:basic-user',
      rules: [
        rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
        rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
      ],
    }),
    role({ name: 'system:public-info-viewer', rules: [urls(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/'])] }),
    role({ name: 'admin', aggregationRule: aggregate('admin') }),
    role({ name: 'edit', labels: { [`${AGG}admin`]: 'true' }, aggregationRule: aggregate('edit') }),
    role({ name: 'view', labels: { [`${AGG}edit`]: 'true' }, aggregationRule: aggregate('view') }),
    role({
      name: 'system:aggregate-to-admin',
      labels: { [`${AGG}admin`]: 'true' },
      rules: [rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']), rule(READ_WRITE, ['rbac.authorization.k8s.io'], ['roles', 'rolebindings'])],
    }),
    role({
      name: 'system:aggregate-to-edit',
      labels: { [`${AGG}edit`]: 'true' },
      rules: [
        // Read on the resources that let one escalate (exec, attach, secrets).
        rule(READ, [''], ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
        rule(['impersonate'], [''], ['serviceaccounts']),
        rule(WRITE, [''], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
        rule(['create'], [''], ['pods/eviction']),
        // No endpoints: write access to Endpoints left edit/admin for clusters created at 1.22 or later.
        rule(WRITE, [''], [
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/proxy',
          'persistentvolumeclaims',
          'configmaps',
          'secrets',
          'events',
        ]),
        rule(['create'], [''], ['serviceaccounts/token']),
        rule(WRITE, ['apps'], [
          'statefulsets',
          'statefulsets/scale',
          'daemonsets',
          'deployments',
          'deployments/scale',
          'deployments/rollback',
          'replicasets',
          'replicasets/scale',
        ]),
        rule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
        rule(WRITE, ['batch'], ['jobs', 'cronjobs']),
        rule(WRITE, ['extensions'], [
          'daemonsets',
          'deployments',
          'deployments/scale',
          'deployments/rollback',
          'ingresses',
          'replicasets',
          'replicasets/scale',
          'replicationcontrollers/scale',
          'networkpolicies',
        ]),
        rule(WRITE, ['policy'], ['poddisruptionbudgets']),
        rule(WRITE, ['networking.k8s.io'], ['networkpolicies', 'ingresses']),
        rule(READ_WRITE, ['coordination.k8s.io'], ['leases']),
      ],
    }),
    role({
      name: 'system:aggregate-to-view',
      labels: { [`${AGG}view`]: 'true' },
      rules: [
        rule(READ, [''], [
          'pods',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/status',
          'endpoints',
          'persistentvolumeclaims',
          'persistentvolumeclaims/status',
          'configmaps',
        ]),
        rule(READ, [''], [
          'limitranges',
          'resourcequotas',
          'bindings',
          'events',
          'pods/status',
          'resourcequotas/status',
          'namespaces/status',
          'replicationcontrollers/status',
          'pods/log',
        ]),
        // Reading namespaces at namespace scope reads *this* namespace.
        rule(READ, [''], ['namespaces']),
        rule(READ, ['discovery.k8s.io'], ['endpointslices']),
        rule(READ, ['apps'], [
          'controllerrevisions',
          'statefulsets',
          'statefulsets/status',
          'statefulsets/scale',
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/status',
          'deployments/scale',
          'replicasets',
          'replicasets/status',
          'replicasets/scale',
        ]),
        rule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
        rule(READ, ['batch'], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
        rule(READ, ['extensions'], [
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'ingresses',
          'ingresses/status',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'replicationcontrollers/scale',
          'networkpolicies',
        ]),
        rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
        rule(READ, ['networking.k8s.io'], ['networkpolicies', 'ingresses', 'ingresses/status']),
      ],
    }),
    role({
      name: 'system:heapster',
      rules: [rule(READ, [''], ['events', 'pods', 'nodes', 'namespaces']), rule(READ, ['extensions'], ['deployments'])],
    }),
    role({ name: 'system:node', rules: nodeRules().map((r) => rule(r.verbs, r.apiGroups ?? [], r.resources ?? [], r.resourceNames)) }),
    role({
      name: 'system:node-problem-detector',
      rules: [rule(['get'], [''], ['nodes']), rule(['patch'], [''], ['nodes/status']), eventsRule()],
    }),
    role({
      name: 'system:kubelet-api-admin',
      rules: [
        rule(['get', 'list', 'watch'], [''], ['nodes']),
        rule(['proxy'], [''], ['nodes']),
        rule(['*'], [''], ['nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log']),
      ],
    }),
    role({ name: 'system:node-bootstrapper', rules: [rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests'])] }),
    role({
      name: 'system:auth-delegator',
      rules: [rule(['create'], ['authentication.k8s.io'], ['tokenreviews']), rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews'])],
    }),
    role({ name: 'system:kube-aggregator', rules: [rule(READ, [''], ['services', 'endpoints'])] }),
    role({
      name: 'system:kube-controller-manager',
      rules: [
        eventsRule(),
        rule(['create'], ['coordination.k8s.io'], ['leases']),
        rule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-controller-manager']),
        rule(['create'], [''], ['secrets', 'serviceaccounts']),
        rule(['delete'], [''], ['secrets']),
        rule(['get'], [''], ['namespaces', 'secrets', 'serviceaccounts', 'configmaps']),
        rule(['update'], [''], ['secrets', 'serviceaccounts']),
        rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
        rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
        rule(['list', 'watch'], ['*'], ['*']),
        rule(['create'], [''], ['serviceaccounts/token']),
      ],
    }),
    role({ name: 'system:kube-dns', rules: [rule(['list', 'watch'], [''], ['endpoints', 'services'])] }),
    role({
      name: 'system:persistent-volume-provisioner',
      rules: [
        rule(['get', 'list', 'watch', 'create', 'delete'], [''], ['persistentvolumes']),
        rule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumeclaims']),
        rule(READ, ['storage.k8s.io'], ['storageclasses']),
        rule(['watch'], [''], ['events']),
        eventsRule(),
      ],
    }),
    role({
      name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient',
      rules: [rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/nodeclient'])],
    }),
    role({
      name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
      rules: [rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/selfnodeclient'])],
    }),
    role({
      name: 'system:volume-scheduler',
      rules: [rule(READ_UPDATE, [''], ['persistentvolumes']), rule(READ, ['storage.k8s.io'], ['storageclasses']), rule(READ_UPDATE, [''], ['persistentvolumeclaims'])],
    }),
    role({
      name: 'system:certificates.k8s.io:legacy-unknown-approver',
      rules: [rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/legacy-unknown'])],
    }),
    role({
      name: 'system:certificates.k8s.io:kubelet-serving-approver',
      rules: [rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kubelet-serving'])],
    }),
    role({
      name: 'system:certificates.k8s.io:kube-apiserver-client-approver',
      rules: [rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client'])],
    }),
    role({
      name: 'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver',
      rules: [rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet'])],
    }),
    role({
      name: 'system:service-account-issuer-discovery',
      rules: [urls(['get'], ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'])],
    }),
    role({
      name: 'system:node-proxier',
      rules: [
        rule(['list', 'watch'], [''], ['services', 'endpoints']),
        rule(['get', 'list', 'watch'], [''], ['nodes']),
        eventsRule(),
        rule(['list', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
      ],
    }),
    role({
      name: 'system:kube-scheduler',
      rules: [
        eventsRule(),
        rule(['create'], ['coordination.k8s.io'], ['leases']),
        rule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-scheduler']),
        rule(READ, [''], ['nodes']),
        rule(['get', 'list', 'watch', 'delete'], [''], ['pods']),
        rule(['create'], [''], ['pods/binding', 'bindings']),
        rule(['patch', 'update'], [''], ['pods/status']),
        rule(READ, [''], ['services', 'replicationcontrollers']),
        rule(READ, ['apps', 'extensions'], ['replicasets']),
        rule(READ, ['apps'], ['statefulsets']),
        rule(READ, ['policy'], ['poddisruptionbudgets']),
        rule(READ, [''], ['persistentvolumeclaims', 'persistentvolumes']),
        rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
        rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
        rule(READ, ['storage.k8s.io'], ['csinodes']),
        rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['volumeattachments']),
        rule(READ, [''], ['namespaces']),
        rule(READ, ['storage.k8s.io'], ['csidrivers']),
        rule(READ, ['storage.k8s.io'], ['csistoragecapacities']),
      ],
    }),
  ];
}
