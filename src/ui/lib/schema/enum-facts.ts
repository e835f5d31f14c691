// The values of Kubernetes 1.32's enumerated string fields (the API's `+enum`
// types), for the editor's completion and hover. KubeTab's OpenAPI documents
// carry no enum for built-in kinds, so the editor adds these facts where a
// document has none; a CRD's own enums come from its schema. Keyed by the
// OpenAPI definition name, then the property; values sorted as upstream's
// OpenAPI lists them. The server validates the same values.

const PROTOCOL = ['SCTP', 'TCP', 'UDP'];
const CONTAINER = { imagePullPolicy: ['Always', 'IfNotPresent', 'Never'], terminationMessagePolicy: ['FallbackToLogsOnError', 'File'] };

export const ENUM_FACTS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'io.k8s.api.core.v1.Container': CONTAINER,
  'io.k8s.api.core.v1.EphemeralContainer': CONTAINER,
  'io.k8s.api.core.v1.ContainerPort': { protocol: PROTOCOL },
  'io.k8s.api.core.v1.ServicePort': { protocol: PROTOCOL },
  'io.k8s.api.core.v1.EndpointPort': { protocol: PROTOCOL },
  'io.k8s.api.discovery.v1.EndpointPort': { protocol: PROTOCOL },
  'io.k8s.api.networking.v1.NetworkPolicyPort': { protocol: PROTOCOL },
  'io.k8s.api.core.v1.PodSpec': {
    restartPolicy: ['Always', 'Never', 'OnFailure'],
    dnsPolicy: ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'],
    preemptionPolicy: ['Never', 'PreemptLowerPriority'],
  },
  'io.k8s.api.core.v1.Toleration': { operator: ['Equal', 'Exists'], effect: ['NoExecute', 'NoSchedule', 'PreferNoSchedule'] },
  'io.k8s.api.core.v1.Taint': { effect: ['NoExecute', 'NoSchedule', 'PreferNoSchedule'] },
  'io.k8s.api.core.v1.NodeSelectorRequirement': { operator: ['DoesNotExist', 'Exists', 'Gt', 'In', 'Lt', 'NotIn'] },
  'io.k8s.api.core.v1.ServiceSpec': {
    type: ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'],
    sessionAffinity: ['ClientIP', 'None'],
    externalTrafficPolicy: ['Cluster', 'Local'],
    internalTrafficPolicy: ['Cluster', 'Local'],
    ipFamilyPolicy: ['PreferDualStack', 'RequireDualStack', 'SingleStack'],
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec': { volumeMode: ['Block', 'Filesystem'] },
  'io.k8s.api.core.v1.PersistentVolumeSpec': { persistentVolumeReclaimPolicy: ['Delete', 'Recycle', 'Retain'], volumeMode: ['Block', 'Filesystem'] },
  'io.k8s.api.core.v1.HostPathVolumeSource': { type: ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'] },
  'io.k8s.api.core.v1.SeccompProfile': { type: ['Localhost', 'RuntimeDefault', 'Unconfined'] },
  'io.k8s.api.core.v1.TopologySpreadConstraint': { whenUnsatisfiable: ['DoNotSchedule', 'ScheduleAnyway'], nodeAffinityPolicy: ['Honor', 'Ignore'], nodeTaintsPolicy: ['Honor', 'Ignore'] },
  'io.k8s.api.apps.v1.DeploymentStrategy': { type: ['Recreate', 'RollingUpdate'] },
  'io.k8s.api.apps.v1.StatefulSetUpdateStrategy': { type: ['OnDelete', 'RollingUpdate'] },
  'io.k8s.api.apps.v1.DaemonSetUpdateStrategy': { type: ['OnDelete', 'RollingUpdate'] },
  'io.k8s.api.apps.v1.StatefulSetSpec': { podManagementPolicy: ['OrderedReady', 'Parallel'] },
  'io.k8s.api.batch.v1.JobSpec': { completionMode: ['Indexed', 'NonIndexed'], podReplacementPolicy: ['Failed', 'TerminatingOrFailed'] },
  'io.k8s.api.batch.v1.CronJobSpec': { concurrencyPolicy: ['Allow', 'Forbid', 'Replace'] },
  'io.k8s.api.networking.v1.HTTPIngressPath': { pathType: ['Exact', 'ImplementationSpecific', 'Prefix'] },
};
