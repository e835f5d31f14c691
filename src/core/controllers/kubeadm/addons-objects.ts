// The objects `kubeadm init` leaves in kube-system for a kind cluster, as
// kubeadm 1.32 writes them: its configuration (the kubeadm-config
// ConfigMap of the upload-config phase) and the two add-ons of the addon
// phase — CoreDNS (ConfigMap `coredns` with kubeadm's Corefile, ServiceAccount
// and ClusterRole/Binding system:coredns, Deployment `coredns` with two
// replicas, Service `kube-dns` on 10.96.0.10) and kube-proxy (ServiceAccount,
// the kubeadm:node-proxier binding, the Role/RoleBinding that let joining
// nodes read its ConfigMap, ConfigMap `kube-proxy`, DaemonSet `kube-proxy`).
// The Deployment and DaemonSet controllers make their pods.

import type { KubeObject } from '../../kinds/types';
import type { GroupVersionResource } from '../client/resource-path';
import { DEFAULT_NODE_TOKEN_GROUP } from './default-token';

export const KUBERNETES_VERSION = 'v1.32.0';
export const COREDNS_IMAGE = 'registry.k8s.io/coredns/coredns:v1.11.3';
export const KUBE_PROXY_IMAGE = `registry.k8s.io/kube-proxy:${KUBERNETES_VERSION}`;
export const DNS_SERVICE_IP = '10.96.0.10';
export const CLUSTER_CIDR = '10.244.0.0/16';
export const SERVICE_CIDR = '10.96.0.0/16';
/** kind's control-plane endpoint (the control-plane node's name). */
export const CONTROL_PLANE_ENDPOINT = 'kubetab-control-plane:6443';

const G = {
  configmaps: { group: '', version: 'v1', resource: 'configmaps' },
  serviceaccounts: { group: '', version: 'v1', resource: 'serviceaccounts' },
  services: { group: '', version: 'v1', resource: 'services' },
  deployments: { group: 'apps', version: 'v1', resource: 'deployments' },
  daemonsets: { group: 'apps', version: 'v1', resource: 'daemonsets' },
  clusterroles: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' },
  clusterrolebindings: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings' },
  roles: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles' },
  rolebindings: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings' },
} satisfies Record<string, GroupVersionResource>;

export interface AddonObject {
  readonly gvr: GroupVersionResource;
  readonly object: KubeObject;
}

const SYSTEM = 'kube-system';
export const KUBEADM_CONFIG = 'kubeadm-config';

export const COREFILE = `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30 {
       disable success cluster.local
       disable denial cluster.local
    }
    loop
    reload
    loadbalance
}
`;

const CLUSTER_CONFIGURATION = `apiServer:
  certSANs:
  - localhost
  - 127.0.0.1
  extraArgs:
  - name: runtime-config
    value: ""
apiVersion: kubeadm.k8s.io/v1beta4
caCertificateValidityPeriod: 87600h0m0s
certificateValidityPeriod: 8760h0m0s
certificatesDir: /etc/kubernetes/pki
clusterName: kubetab
controlPlaneEndpoint: ${CONTROL_PLANE_ENDPOINT}
controllerManager:
  extraArgs:
  - name: enable-hostpath-provisioner
    value: "true"
dns: {}
encryptionAlgorithm: RSA-2048
etcd:
  local:
    dataDir: /var/lib/etcd
imageRepository: registry.k8s.io
kind: ClusterConfiguration
kubernetesVersion: ${KUBERNETES_VERSION}
networking:
  dnsDomain: cluster.local
  podSubnet: ${CLUSTER_CIDR}
  serviceSubnet: ${SERVICE_CIDR}
proxy: {}
scheduler: {}
`;

const KUBE_PROXY_CONFIG = `apiVersion: kubeproxy.config.k8s.io/v1alpha1
bindAddress: 0.0.0.0
bindAddressHardFail: false
clientConnection:
  acceptContentTypes: ""
  burst: 0
  contentType: ""
  kubeconfig: /var/lib/kube-proxy/kubeconfig.conf
  qps: 0
clusterCIDR: ${CLUSTER_CIDR}
configSyncPeriod: 0s
conntrack:
  maxPerCore: 0
  min: null
  tcpBeLiberal: false
  tcpCloseWaitTimeout: null
  tcpEstablishedTimeout: null
  udpStreamTimeout: 0s
  udpTimeout: 0s
detectLocal:
  bridgeInterface: ""
  interfaceNamePrefix: ""
detectLocalMode: ""
enableProfiling: false
healthzBindAddress: ""
hostnameOverride: ""
iptables:
  localhostNodePorts: null
  masqueradeAll: false
  masqueradeBit: null
  minSyncPeriod: 1s
  syncPeriod: 0s
ipvs:
  excludeCIDRs: null
  minSyncPeriod: 0s
  scheduler: ""
  strictARP: false
  syncPeriod: 0s
  tcpFinTimeout: 0s
  tcpTimeout: 0s
  udpTimeout: 0s
kind: KubeProxyConfiguration
logging:
  flushFrequency: 0
  options:
    json:
      infoBufferSize: "0"
    text:
      infoBufferSize: "0"
  verbosity: 0
metricsBindAddress: ""
mode: iptables
nftables:
  masqueradeAll: false
  masqueradeBit: null
  minSyncPeriod: 0s
  syncPeriod: 0s
nodePortAddresses: null
oomScoreAdj: null
portRange: ""
showHiddenMetricsForVersion: ""
winkernel:
  enableDSR: false
  forwardHealthCheckVip: false
  networkName: ""
  rootHnsEndpointName: ""
  sourceVip: ""
`;

const KUBE_PROXY_KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt
    server: https://${CONTROL_PLANE_ENDPOINT}
  name: default
contexts:
- context:
    cluster: default
    namespace: default
    user: default
  name: default
current-context: default
users:
- name: default
  user:
    tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token
`;

/** kubeadm's upload-config ConfigMap; its presence says kubeadm init has run (the add-ons then exist or were removed on purpose). */
export function kubeadmConfig(): AddonObject {
  return { gvr: G.configmaps, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: KUBEADM_CONFIG, namespace: SYSTEM }, data: { ClusterConfiguration: CLUSTER_CONFIGURATION } } };
}

function coreDNS(): AddonObject[] {
  const labels = { 'k8s-app': 'kube-dns' };
  return [
    {
      gvr: G.configmaps,
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: SYSTEM }, data: { Corefile: COREFILE } },
    },
    {
      gvr: G.clusterroles,
      object: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'system:coredns' },
        rules: [
          { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
          { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
        ],
      },
    },
    {
      gvr: G.clusterrolebindings,
      object: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'system:coredns' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:coredns' },
        subjects: [{ kind: 'ServiceAccount', name: 'coredns', namespace: SYSTEM }],
      },
    },
    { gvr: G.serviceaccounts, object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'coredns', namespace: SYSTEM } } },
    {
      gvr: G.deployments,
      object: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'coredns', namespace: SYSTEM, labels },
        spec: {
          replicas: 2,
          selector: { matchLabels: labels },
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
          template: {
            metadata: { labels },
            spec: {
              priorityClassName: 'system-cluster-critical',
              serviceAccountName: 'coredns',
              affinity: {
                podAntiAffinity: {
                  preferredDuringSchedulingIgnoredDuringExecution: [
                    {
                      weight: 100,
                      podAffinityTerm: { labelSelector: { matchExpressions: [{ key: 'k8s-app', operator: 'In', values: ['kube-dns'] }] }, topologyKey: 'kubernetes.io/hostname' },
                    },
                  ],
                },
              },
              tolerations: [
                { key: 'CriticalAddonsOnly', operator: 'Exists' },
                { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
              ],
              nodeSelector: { 'kubernetes.io/os': 'linux' },
              containers: [
                {
                  name: 'coredns',
                  image: COREDNS_IMAGE,
                  imagePullPolicy: 'IfNotPresent',
                  resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
                  args: ['-conf', '/etc/coredns/Corefile'],
                  volumeMounts: [{ name: 'config-volume', mountPath: '/etc/coredns', readOnly: true }],
                  ports: [
                    { containerPort: 53, name: 'dns', protocol: 'UDP' },
                    { containerPort: 53, name: 'dns-tcp', protocol: 'TCP' },
                    { containerPort: 9153, name: 'metrics', protocol: 'TCP' },
                  ],
                  securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] }, readOnlyRootFilesystem: true },
                  livenessProbe: { httpGet: { path: '/health', port: 8080, scheme: 'HTTP' }, initialDelaySeconds: 60, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 5 },
                  readinessProbe: { httpGet: { path: '/ready', port: 8181, scheme: 'HTTP' } },
                },
              ],
              dnsPolicy: 'Default',
              volumes: [{ name: 'config-volume', configMap: { name: 'coredns', items: [{ key: 'Corefile', path: 'Corefile' }] } }],
            },
          },
        },
      },
    },
    {
      gvr: G.services,
      object: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: {
          name: 'kube-dns',
          namespace: SYSTEM,
          labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
          annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
        },
        spec: {
          clusterIP: DNS_SERVICE_IP,
          selector: labels,
          ports: [
            { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
            { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
            { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
          ],
        },
      },
    },
  ];
}

function kubeProxy(): AddonObject[] {
  const labels = { 'k8s-app': 'kube-proxy' };
  return [
    { gvr: G.serviceaccounts, object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'kube-proxy', namespace: SYSTEM } } },
    {
      gvr: G.clusterrolebindings,
      object: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'kubeadm:node-proxier' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node-proxier' },
        subjects: [{ kind: 'ServiceAccount', name: 'kube-proxy', namespace: SYSTEM }],
      },
    },
    {
      gvr: G.roles,
      object: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'kube-proxy', namespace: SYSTEM },
        rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-proxy'], verbs: ['get'] }],
      },
    },
    {
      gvr: G.rolebindings,
      object: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'kube-proxy', namespace: SYSTEM },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'kube-proxy' },
        subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: DEFAULT_NODE_TOKEN_GROUP }],
      },
    },
    {
      gvr: G.configmaps,
      object: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'kube-proxy', namespace: SYSTEM, labels: { app: 'kube-proxy' } },
        data: { 'config.conf': KUBE_PROXY_CONFIG, 'kubeconfig.conf': KUBE_PROXY_KUBECONFIG },
      },
    },
    {
      gvr: G.daemonsets,
      object: {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'kube-proxy', namespace: SYSTEM, labels },
        spec: {
          selector: { matchLabels: labels },
          updateStrategy: { type: 'RollingUpdate' },
          template: {
            metadata: { labels },
            spec: {
              priorityClassName: 'system-node-critical',
              containers: [
                {
                  name: 'kube-proxy',
                  image: KUBE_PROXY_IMAGE,
                  imagePullPolicy: 'IfNotPresent',
                  command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf', '--hostname-override=$(NODE_NAME)'],
                  securityContext: { privileged: true },
                  volumeMounts: [
                    { mountPath: '/var/lib/kube-proxy', name: 'kube-proxy' },
                    { mountPath: '/run/xtables.lock', name: 'xtables-lock', readOnly: false },
                    { mountPath: '/lib/modules', name: 'lib-modules', readOnly: true },
                  ],
                  env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
                },
              ],
              hostNetwork: true,
              serviceAccountName: 'kube-proxy',
              volumes: [
                { name: 'kube-proxy', configMap: { name: 'kube-proxy' } },
                { name: 'xtables-lock', hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' } },
                { name: 'lib-modules', hostPath: { path: '/lib/modules' } },
              ],
              tolerations: [{ operator: 'Exists' }],
              nodeSelector: { 'kubernetes.io/os': 'linux' },
            },
          },
        },
      },
    },
  ];
}

/** The add-on objects in the order kubeadm's addon phase creates them (CoreDNS, then kube-proxy). */
export function addonObjects(): AddonObject[] {
  return [...coreDNS(), ...kubeProxy()];
}
