// The APIService objects of a 1.32 kube-apiserver, as data: one Local
// APIService per served built-in group-version (kube-aggregator's
// autoregister controller creates them at start, labelled
// kube-aggregator.kubernetes.io/automanaged=onstart, with the priorities of
// kube-apiserver's table), one per served version of each CustomResource-
// Definition (automanaged=true, priority 1000/100, as the CRD registration
// controller gives them), and metrics.k8s.io/v1beta1 as metrics-server's
// manifest registers it — but Local, since KubeTab serves that group itself
// (docs/decisions/0353) — with the ClusterRole its manifest adds so that the
// view, edit and admin roles may read metrics.

import type { KubeObject } from '../../kinds/types';

export const AUTOMANAGED_LABEL = 'kube-aggregator.kubernetes.io/automanaged';

interface Priority {
  readonly group: number;
  readonly version: number;
}

/** kube-apiserver 1.32's APIService priorities (group priority minimum, version priority) by group-version. */
const PRIORITIES: Readonly<Record<string, Priority>> = {
  v1: { group: 18000, version: 1 },
  'apiregistration.k8s.io/v1': { group: 18000, version: 15 },
  'apps/v1': { group: 17800, version: 15 },
  'events.k8s.io/v1': { group: 17750, version: 15 },
  'events.k8s.io/v1beta1': { group: 17750, version: 5 },
  'authentication.k8s.io/v1': { group: 17700, version: 15 },
  'authentication.k8s.io/v1beta1': { group: 17700, version: 9 },
  'authentication.k8s.io/v1alpha1': { group: 17700, version: 1 },
  'authorization.k8s.io/v1': { group: 17600, version: 15 },
  'autoscaling/v1': { group: 17500, version: 15 },
  'autoscaling/v2': { group: 17500, version: 30 },
  'autoscaling/v2beta1': { group: 17500, version: 9 },
  'autoscaling/v2beta2': { group: 17500, version: 1 },
  'batch/v1': { group: 17400, version: 15 },
  'batch/v1beta1': { group: 17400, version: 9 },
  'batch/v2alpha1': { group: 17400, version: 9 },
  'certificates.k8s.io/v1': { group: 17300, version: 15 },
  'certificates.k8s.io/v1beta1': { group: 17300, version: 9 },
  'certificates.k8s.io/v1alpha1': { group: 17300, version: 1 },
  'networking.k8s.io/v1': { group: 17200, version: 15 },
  'networking.k8s.io/v1beta1': { group: 17200, version: 9 },
  'networking.k8s.io/v1alpha1': { group: 17200, version: 1 },
  'policy/v1': { group: 17100, version: 15 },
  'policy/v1beta1': { group: 17100, version: 9 },
  'rbac.authorization.k8s.io/v1': { group: 17000, version: 15 },
  'storage.k8s.io/v1': { group: 16800, version: 15 },
  'storage.k8s.io/v1beta1': { group: 16800, version: 9 },
  'storage.k8s.io/v1alpha1': { group: 16800, version: 1 },
  'apiextensions.k8s.io/v1': { group: 16700, version: 15 },
  'admissionregistration.k8s.io/v1': { group: 16700, version: 15 },
  'admissionregistration.k8s.io/v1beta1': { group: 16700, version: 12 },
  'admissionregistration.k8s.io/v1alpha1': { group: 16700, version: 9 },
  'scheduling.k8s.io/v1': { group: 16600, version: 15 },
  'coordination.k8s.io/v1': { group: 16500, version: 15 },
  'coordination.k8s.io/v1alpha2': { group: 16500, version: 12 },
  'node.k8s.io/v1': { group: 16300, version: 15 },
  'node.k8s.io/v1beta1': { group: 16300, version: 9 },
  'node.k8s.io/v1alpha1': { group: 16300, version: 1 },
  'discovery.k8s.io/v1': { group: 16200, version: 15 },
  'flowcontrol.apiserver.k8s.io/v1': { group: 16100, version: 21 },
  'flowcontrol.apiserver.k8s.io/v1beta3': { group: 16100, version: 18 },
  'internal.apiserver.k8s.io/v1alpha1': { group: 16000, version: 9 },
  'resource.k8s.io/v1beta1': { group: 15900, version: 15 },
  'resource.k8s.io/v1alpha3': { group: 15900, version: 9 },
  'storagemigration.k8s.io/v1alpha1': { group: 15800, version: 9 },
};

/** A custom resource group's APIService priorities (the CRD registration controller's). */
const CRD_PRIORITY: Priority = { group: 1000, version: 100 };
/** metrics-server's manifest. */
const METRICS_PRIORITY: Priority = { group: 100, version: 100 };
export const METRICS_GROUP_VERSION = 'metrics.k8s.io/v1beta1';

function groupVersionKey(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** An APIService's name: "<version>.<group>" ("v1." for the core group). */
export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}

function apiService(group: string, version: string, priority: Priority, labels: Record<string, string>): KubeObject {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: apiServiceName(group, version), labels },
    // group is omitempty: the core group's APIService has none.
    spec: { ...(group ? { group } : {}), version, groupPriorityMinimum: priority.group, versionPriority: priority.version },
  };
}

/**
 * The APIService of a served group-version of the server itself, or undefined
 * when kube-apiserver has no priority for it (kube then registers none, so that a
 * group could not be left behind for ever).
 */
export function builtinApiService(group: string, version: string): KubeObject | undefined {
  if (groupVersionKey(group, version) === METRICS_GROUP_VERSION) return apiService(group, version, METRICS_PRIORITY, { 'k8s-app': 'metrics-server' });
  const priority = PRIORITIES[groupVersionKey(group, version)];
  return priority ? apiService(group, version, priority, { [AUTOMANAGED_LABEL]: 'onstart' }) : undefined;
}

export function customResourceApiService(group: string, version: string): KubeObject {
  return apiService(group, version, CRD_PRIORITY, { [AUTOMANAGED_LABEL]: 'true' });
}

/** The condition the availability controller gives a Local APIService. */
export function localAvailableCondition(nowIso: string): Record<string, unknown> {
  return { type: 'Available', status: 'True', lastTransitionTime: nowIso, reason: 'Local', message: 'Local APIServices are always available' };
}

/** metrics-server's aggregated reader role: view, edit and admin may read metrics. */
export const AGGREGATED_METRICS_READER: KubeObject = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: {
    name: 'system:aggregated-metrics-reader',
    labels: {
      'k8s-app': 'metrics-server',
      'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
      'rbac.authorization.k8s.io/aggregate-to-edit': 'true',
      'rbac.authorization.k8s.io/aggregate-to-view': 'true',
    },
  },
  rules: [{ apiGroups: ['metrics.k8s.io'], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }],
};
