// The static rules of the Node authorizer (bootstrappolicy.NodeRules) as a
// 1.32 server with default feature gates has them: DynamicResourceAllocation
// and ClusterTrustBundle are off by default in 1.32, so their rules are absent.

import type { PolicyRule } from '../types';

const r = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule =>
  resourceNames ? { apiGroups, resources, resourceNames, verbs } : { apiGroups, resources, verbs };

export function nodeRules(): PolicyRule[] {
  return [
    r(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    r(['create'], ['authorization.k8s.io'], ['subjectaccessreviews', 'localsubjectaccessreviews']),
    r(['get', 'list', 'watch'], [''], ['services']),
    r(['create', 'get', 'list', 'watch'], [''], ['nodes']),
    r(['update', 'patch'], [''], ['nodes/status']),
    r(['update', 'patch'], [''], ['nodes']),
    r(['create', 'update', 'patch'], [''], ['events']),
    r(['get', 'list', 'watch'], [''], ['pods']),
    r(['create', 'delete'], [''], ['pods']),
    r(['update', 'patch'], [''], ['pods/status']),
    r(['create'], [''], ['pods/eviction']),
    r(['get', 'list', 'watch'], [''], ['secrets', 'configmaps']),
    r(['get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
    r(['get'], [''], ['endpoints']),
    r(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
    r(['get', 'create', 'update', 'patch', 'delete'], ['coordination.k8s.io'], ['leases']),
    r(['get'], ['storage.k8s.io'], ['volumeattachments']),
    r(['create'], [''], ['serviceaccounts/token']),
    r(['get', 'update', 'patch'], [''], ['persistentvolumeclaims/status']),
    r(['get', 'watch', 'list'], ['storage.k8s.io'], ['csidrivers']),
    r(['get', 'create', 'update', 'patch', 'delete'], ['storage.k8s.io'], ['csinodes']),
    r(['get', 'list', 'watch'], ['node.k8s.io'], ['runtimeclasses']),
  ];
}
