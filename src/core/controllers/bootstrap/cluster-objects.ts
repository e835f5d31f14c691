// The other objects a fresh 1.32 kube-apiserver creates: the `kubernetes`
// Service in `default` with its Endpoints and EndpointSlice (the apiserver's
// endpoint reconciler), and the two system PriorityClasses.

import type { KubeObject } from '../../kinds/types';

export interface ApiServerEndpoint {
  /** First address of the service cluster IP range (10.96.0.0/12 → 10.96.0.1). */
  readonly serviceClusterIP: string;
  /** The address the apiserver advertises to the cluster. */
  readonly advertiseAddress: string;
  /** The apiserver's secure port. */
  readonly securePort: number;
}

export function kubernetesService(e: ApiServerEndpoint): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      type: 'ClusterIP',
      clusterIP: e.serviceClusterIP,
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: e.securePort }],
      sessionAffinity: 'None',
    },
  };
}

/** `addresses`: every live API server's advertise address (kube's lease reconciler), sorted; default this server's. */
export function kubernetesEndpoints(e: ApiServerEndpoint, addresses: readonly string[] = [e.advertiseAddress]): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: addresses.map((ip) => ({ ip })), ports: [{ name: 'https', port: e.securePort, protocol: 'TCP' }] }],
  };
}

export function kubernetesEndpointSlice(e: ApiServerEndpoint, addresses: readonly string[] = [e.advertiseAddress]): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
    addressType: 'IPv4',
    endpoints: addresses.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
    ports: [{ name: 'https', port: e.securePort, protocol: 'TCP' }],
  };
}

export const SYSTEM_PRIORITY_CLASSES: readonly KubeObject[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: 2000001000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: 2000000000,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];
