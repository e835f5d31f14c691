// The FlowSchemas and PriorityLevelConfigurations (flowcontrol.apiserver.k8s.io/v1)
// a 1.32 kube-apiserver creates at start (its mandatory and suggested APF
// configuration), as data. Facts reconstructed from the upstream bootstrap
// configuration; each object carries apf.kubernetes.io/autoupdate-spec=true.

import type { KubeObject } from '../../kinds/types';

const API_VERSION = 'flowcontrol.apiserver.k8s.io/v1';
const AUTOUPDATE = { 'apf.kubernetes.io/autoupdate-spec': 'true' };

type Subject = Record<string, unknown>;
const group = (name: string): Subject => ({ kind: 'Group', group: { name } });
const user = (name: string): Subject => ({ kind: 'User', user: { name } });
const kubeSystemServiceAccount = (name: string): Subject => ({ kind: 'ServiceAccount', serviceAccount: { name, namespace: 'kube-system' } });

const resourceRule = (verbs: string[], apiGroups: string[], resources: string[], namespaces: string[], clusterScope: boolean) =>
  clusterScope ? { verbs, apiGroups, resources, clusterScope: true, namespaces } : { verbs, apiGroups, resources, namespaces };
const ALL_RESOURCES = resourceRule(['*'], ['*'], ['*'], ['*'], true);
const ALL_NON_RESOURCES = { verbs: ['*'], nonResourceURLs: ['*'] };

function priorityLevel(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: API_VERSION, kind: 'PriorityLevelConfiguration', metadata: { name, annotations: { ...AUTOUPDATE } }, spec };
}

function limited(nominalConcurrencyShares: number, lendablePercent: number, queuing?: { queues: number; handSize: number; queueLengthLimit: number }) {
  return {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares,
      lendablePercent,
      limitResponse: queuing ? { type: 'Queue', queuing } : { type: 'Reject' },
    },
  };
}

function flowSchema(name: string, priorityLevelName: string, matchingPrecedence: number, distinguisher: 'ByUser' | 'ByNamespace' | undefined, rule: Record<string, unknown>): KubeObject {
  const spec: Record<string, unknown> = { priorityLevelConfiguration: { name: priorityLevelName }, matchingPrecedence };
  if (distinguisher) spec['distinguisherMethod'] = { type: distinguisher };
  spec['rules'] = [rule];
  return { apiVersion: API_VERSION, kind: 'FlowSchema', metadata: { name, annotations: { ...AUTOUPDATE } }, spec };
}

const everything = (subjects: Subject[]) => ({ subjects, resourceRules: [ALL_RESOURCES], nonResourceRules: [ALL_NON_RESOURCES] });

export const PRIORITY_LEVEL_CONFIGURATIONS: readonly KubeObject[] = [
  // Mandatory.
  priorityLevel('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
  priorityLevel('catch-all', limited(5, 0)),
  // Suggested.
  priorityLevel('system', limited(30, 33, { queues: 64, handSize: 6, queueLengthLimit: 50 })),
  priorityLevel('node-high', limited(40, 25, { queues: 64, handSize: 6, queueLengthLimit: 50 })),
  priorityLevel('leader-election', limited(10, 0, { queues: 16, handSize: 4, queueLengthLimit: 50 })),
  priorityLevel('workload-high', limited(40, 50, { queues: 128, handSize: 6, queueLengthLimit: 50 })),
  priorityLevel('workload-low', limited(100, 90, { queues: 128, handSize: 6, queueLengthLimit: 50 })),
  priorityLevel('global-default', limited(20, 50, { queues: 128, handSize: 6, queueLengthLimit: 50 })),
];

const leaderElectionRules = (endpointNamespaces: string[]) => [
  resourceRule(['get', 'create', 'update'], [''], ['endpoints', 'configmaps'], endpointNamespaces, false),
  resourceRule(['get', 'create', 'update'], ['coordination.k8s.io'], ['leases'], ['*'], false),
];

export const FLOW_SCHEMAS: readonly KubeObject[] = [
  // Mandatory.
  flowSchema('exempt', 'exempt', 1, undefined, everything([group('system:masters')])),
  flowSchema('catch-all', 'catch-all', 10000, 'ByUser', everything([group('system:unauthenticated'), group('system:authenticated')])),
  // Suggested.
  flowSchema('probes', 'exempt', 2, undefined, {
    subjects: [group('system:unauthenticated'), group('system:authenticated')],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
  }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler'), kubeSystemServiceAccount('*')],
    resourceRules: leaderElectionRules(['kube-system']),
  }),
  flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
    subjects: [user('system:kube-controller-manager'), kubeSystemServiceAccount('endpoint-controller'), kubeSystemServiceAccount('endpointslicemirroring-controller')],
    resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints'], ['*'], false)],
  }),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
    subjects: [kubeSystemServiceAccount('*')],
    resourceRules: leaderElectionRules(['*']),
  }),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: [group('system:nodes')],
    resourceRules: [resourceRule(['*'], [''], ['nodes', 'nodes/status'], ['*'], true), resourceRule(['*'], ['coordination.k8s.io'], ['leases'], ['*'], false)],
  }),
  flowSchema('system-nodes', 'system', 500, 'ByUser', everything([group('system:nodes')])),
  flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', everything([user('system:kube-controller-manager')])),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything([user('system:kube-scheduler')])),
  flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', everything([kubeSystemServiceAccount('*')])),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', everything([group('system:serviceaccounts')])),
  flowSchema('global-default', 'global-default', 9900, 'ByUser', everything([group('system:unauthenticated'), group('system:authenticated')])),
];
