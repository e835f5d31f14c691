// The static pods kubeadm writes to /etc/kubernetes/manifests on a control-
// plane node (etcd, kube-apiserver, kube-controller-manager, kube-scheduler,
// as kubeadm 1.32 generates them for a kind node), and the mirror pods the
// kubelet creates for them in the API: named <component>-<node>, with the
// kubelet's config.hash / config.mirror / config.seen / config.source
// annotations and a controller owner reference to the Node. The pod manager
// then runs a mirror pod like any pod bound to the node.

import { stableHex } from './node-facts';
import type { KubeObject } from '../../kinds/types';

export const KUBERNETES_VERSION = 'v1.32.0';
export const ETCD_IMAGE = 'registry.k8s.io/etcd:3.5.16-0';
const SERVICE_CIDR = '10.96.0.0/16';
const POD_CIDR = '10.244.0.0/16';
const API_PORT = 6443;

export const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
export const HASH_ANNOTATION = 'kubernetes.io/config.hash';

type Obj = Record<string, unknown>;

function hostPath(name: string, path: string, type: string): Obj {
  return { name, hostPath: { path, type } };
}

function httpProbe(host: string, path: string, port: number, scheme: string, o: { initialDelaySeconds?: number; periodSeconds: number; failureThreshold: number }): Obj {
  return {
    failureThreshold: o.failureThreshold,
    httpGet: { host, path, port, scheme },
    ...(o.initialDelaySeconds !== undefined ? { initialDelaySeconds: o.initialDelaySeconds } : {}),
    periodSeconds: o.periodSeconds,
    timeoutSeconds: 15,
  };
}

const K8S_CERTS = [hostPath('ca-certs', '/etc/ssl/certs', 'DirectoryOrCreate'), hostPath('etc-ca-certificates', '/etc/ca-certificates', 'DirectoryOrCreate')];
const K8S_CERT_MOUNTS = [
  { mountPath: '/etc/ssl/certs', name: 'ca-certs', readOnly: true },
  { mountPath: '/etc/ca-certificates', name: 'etc-ca-certificates', readOnly: true },
];

interface Manifest {
  readonly component: string;
  readonly annotations: Record<string, string>;
  readonly container: Obj;
  readonly volumes: Obj[];
}

function manifests(nodeName: string, ip: string): Manifest[] {
  return [
    {
      component: 'etcd',
      annotations: { 'kubeadm.kubernetes.io/etcd.advertise-client-urls': `https://${ip}:2379` },
      container: {
        name: 'etcd',
        image: ETCD_IMAGE,
        imagePullPolicy: 'IfNotPresent',
        command: [
          'etcd',
          `--advertise-client-urls=https://${ip}:2379`,
          '--cert-file=/etc/kubernetes/pki/etcd/server.crt',
          '--client-cert-auth=true',
          '--data-dir=/var/lib/etcd',
          '--experimental-initial-corrupt-check=true',
          '--experimental-watch-progress-notify-interval=5s',
          `--initial-advertise-peer-urls=https://${ip}:2380`,
          `--initial-cluster=${nodeName}=https://${ip}:2380`,
          '--key-file=/etc/kubernetes/pki/etcd/server.key',
          `--listen-client-urls=https://127.0.0.1:2379,https://${ip}:2379`,
          '--listen-metrics-urls=http://127.0.0.1:2381',
          `--listen-peer-urls=https://${ip}:2380`,
          `--name=${nodeName}`,
          '--peer-cert-file=/etc/kubernetes/pki/etcd/peer.crt',
          '--peer-client-cert-auth=true',
          '--peer-key-file=/etc/kubernetes/pki/etcd/peer.key',
          '--peer-trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt',
          '--snapshot-count=10000',
          '--trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt',
        ],
        livenessProbe: httpProbe('127.0.0.1', '/livez', 2381, 'HTTP', { initialDelaySeconds: 10, periodSeconds: 10, failureThreshold: 8 }),
        readinessProbe: httpProbe('127.0.0.1', '/readyz', 2381, 'HTTP', { periodSeconds: 1, failureThreshold: 3 }),
        resources: { requests: { cpu: '100m', memory: '100Mi' } },
        startupProbe: httpProbe('127.0.0.1', '/readyz', 2381, 'HTTP', { initialDelaySeconds: 10, periodSeconds: 10, failureThreshold: 24 }),
        volumeMounts: [
          { mountPath: '/var/lib/etcd', name: 'etcd-data' },
          { mountPath: '/etc/kubernetes/pki/etcd', name: 'etcd-certs' },
        ],
      },
      volumes: [hostPath('etcd-certs', '/etc/kubernetes/pki/etcd', 'DirectoryOrCreate'), hostPath('etcd-data', '/var/lib/etcd', 'DirectoryOrCreate')],
    },
    {
      component: 'kube-apiserver',
      annotations: { 'kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint': `${ip}:${API_PORT}` },
      container: {
        name: 'kube-apiserver',
        image: `registry.k8s.io/kube-apiserver:${KUBERNETES_VERSION}`,
        imagePullPolicy: 'IfNotPresent',
        command: [
          'kube-apiserver',
          `--advertise-address=${ip}`,
          '--allow-privileged=true',
          '--authorization-mode=Node,RBAC',
          '--client-ca-file=/etc/kubernetes/pki/ca.crt',
          '--enable-admission-plugins=NodeRestriction',
          '--enable-bootstrap-token-auth=true',
          '--etcd-cafile=/etc/kubernetes/pki/etcd/ca.crt',
          '--etcd-certfile=/etc/kubernetes/pki/apiserver-etcd-client.crt',
          '--etcd-keyfile=/etc/kubernetes/pki/apiserver-etcd-client.key',
          '--etcd-servers=https://127.0.0.1:2379',
          '--kubelet-client-certificate=/etc/kubernetes/pki/apiserver-kubelet-client.crt',
          '--kubelet-client-key=/etc/kubernetes/pki/apiserver-kubelet-client.key',
          '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
          '--proxy-client-cert-file=/etc/kubernetes/pki/front-proxy-client.crt',
          '--proxy-client-key-file=/etc/kubernetes/pki/front-proxy-client.key',
          '--requestheader-allowed-names=front-proxy-client',
          '--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt',
          '--requestheader-extra-headers-prefix=X-Remote-Extra-',
          '--requestheader-group-headers=X-Remote-Group',
          '--requestheader-username-headers=X-Remote-User',
          '--runtime-config=',
          `--secure-port=${API_PORT}`,
          '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
          '--service-account-key-file=/etc/kubernetes/pki/sa.pub',
          '--service-account-signing-key-file=/etc/kubernetes/pki/sa.key',
          `--service-cluster-ip-range=${SERVICE_CIDR}`,
          '--tls-cert-file=/etc/kubernetes/pki/apiserver.crt',
          '--tls-private-key-file=/etc/kubernetes/pki/apiserver.key',
        ],
        livenessProbe: httpProbe(ip, '/livez', API_PORT, 'HTTPS', { initialDelaySeconds: 10, periodSeconds: 10, failureThreshold: 8 }),
        readinessProbe: httpProbe(ip, '/readyz', API_PORT, 'HTTPS', { periodSeconds: 1, failureThreshold: 3 }),
        resources: { requests: { cpu: '250m' } },
        startupProbe: httpProbe(ip, '/livez', API_PORT, 'HTTPS', { initialDelaySeconds: 10, periodSeconds: 10, failureThreshold: 24 }),
        volumeMounts: [...K8S_CERT_MOUNTS, { mountPath: '/etc/kubernetes/pki', name: 'k8s-certs', readOnly: true }],
      },
      volumes: [...K8S_CERTS, hostPath('k8s-certs', '/etc/kubernetes/pki', 'DirectoryOrCreate')],
    },
    {
      component: 'kube-controller-manager',
      annotations: {},
      container: {
        name: 'kube-controller-manager',
        image: `registry.k8s.io/kube-controller-manager:${KUBERNETES_VERSION}`,
        imagePullPolicy: 'IfNotPresent',
        command: [
          'kube-controller-manager',
          '--allocate-node-cidrs=true',
          '--authentication-kubeconfig=/etc/kubernetes/controller-manager.conf',
          '--authorization-kubeconfig=/etc/kubernetes/controller-manager.conf',
          '--bind-address=127.0.0.1',
          '--client-ca-file=/etc/kubernetes/pki/ca.crt',
          `--cluster-cidr=${POD_CIDR}`,
          '--cluster-name=kubetab',
          '--cluster-signing-cert-file=/etc/kubernetes/pki/ca.crt',
          '--cluster-signing-key-file=/etc/kubernetes/pki/ca.key',
          '--controllers=*,bootstrapsigner,tokencleaner',
          '--enable-hostpath-provisioner=true',
          '--kubeconfig=/etc/kubernetes/controller-manager.conf',
          '--leader-elect=true',
          '--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt',
          '--root-ca-file=/etc/kubernetes/pki/ca.crt',
          '--service-account-private-key-file=/etc/kubernetes/pki/sa.key',
          `--service-cluster-ip-range=${SERVICE_CIDR}`,
          '--use-service-account-credentials=true',
        ],
        livenessProbe: httpProbe('127.0.0.1', '/healthz', 10257, 'HTTPS', { initialDelaySeconds: 10, periodSeconds: 10, failureThreshold: 8 }),
        resources: { requests: { cpu: '200m' } },
        startupProbe: httpProbe('127.0.0.1', '/healthz', 10257, 'HTTPS', { initialDelaySeconds: 10, periodSeconds: 10, failureThreshold: 24 }),
        volumeMounts: [
          ...K8S_CERT_MOUNTS,
          { mountPath: '/usr/libexec/kubernetes/kubelet-plugins/volume/exec', name: 'flexvolume-dir' },
          { mountPath: '/etc/kubernetes/pki', name: 'k8s-certs', readOnly: true },
          { mountPath: '/etc/kubernetes/controller-manager.conf', name: 'kubeconfig', readOnly: true },
        ],
      },
      volumes: [
        ...K8S_CERTS,
        hostPath('flexvolume-dir', '/usr/libexec/kubernetes/kubelet-plugins/volume/exec', 'DirectoryOrCreate'),
        hostPath('k8s-certs', '/etc/kubernetes/pki', 'DirectoryOrCreate'),
        hostPath('kubeconfig', '/etc/kubernetes/controller-manager.conf', 'FileOrCreate'),
      ],
    },
    {
      component: 'kube-scheduler',
      annotations: {},
      container: {
        name: 'kube-scheduler',
        image: `registry.k8s.io/kube-scheduler:${KUBERNETES_VERSION}`,
        imagePullPolicy: 'IfNotPresent',
        command: [
          'kube-scheduler',
          '--authentication-kubeconfig=/etc/kubernetes/scheduler.conf',
          '--authorization-kubeconfig=/etc/kubernetes/scheduler.conf',
          '--bind-address=127.0.0.1',
          '--kubeconfig=/etc/kubernetes/scheduler.conf',
          '--leader-elect=true',
        ],
        livenessProbe: httpProbe('127.0.0.1', '/livez', 10259, 'HTTPS', { initialDelaySeconds: 10, periodSeconds: 10, failureThreshold: 8 }),
        readinessProbe: httpProbe('127.0.0.1', '/readyz', 10259, 'HTTPS', { periodSeconds: 1, failureThreshold: 3 }),
        resources: { requests: { cpu: '100m' } },
        startupProbe: httpProbe('127.0.0.1', '/livez', 10259, 'HTTPS', { initialDelaySeconds: 10, periodSeconds: 10, failureThreshold: 24 }),
        volumeMounts: [{ mountPath: '/etc/kubernetes/scheduler.conf', name: 'kubeconfig', readOnly: true }],
      },
      volumes: [hostPath('kubeconfig', '/etc/kubernetes/scheduler.conf', 'FileOrCreate')],
    },
  ];
}

/** The static pods of a control-plane node as the kubelet reads them from its manifest directory (before defaulting). */
export function staticPods(nodeName: string, ip: string): KubeObject[] {
  return manifests(nodeName, ip).map((m) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${m.component}-${nodeName}`,
      namespace: 'kube-system',
      labels: { component: m.component, tier: 'control-plane' },
      ...(Object.keys(m.annotations).length ? { annotations: { ...m.annotations } } : {}),
    },
    spec: {
      containers: [m.container],
      hostNetwork: true,
      priority: 2000001000,
      priorityClassName: 'system-node-critical',
      securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
      // The kubelet's defaults for a file source: a static pod tolerates every NoExecute taint.
      tolerations: [{ effect: 'NoExecute', operator: 'Exists' }],
      volumes: m.volumes,
    },
  }));
}

/** RFC 3339 with nanoseconds, as the kubelet stamps config.seen. */
function rfc3339Nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

/** The mirror pod the kubelet creates for a static pod: its hash, when it saw it, the Node as controller owner, bound to the node. */
export function mirrorPod(staticPod: KubeObject, node: { name: string; uid: string }, seenMs: number): KubeObject {
  // The kubelet hashes the manifest (with the node name it adds) and uses the hash as the static pod's UID.
  const hash = stableHex(JSON.stringify(staticPod), `static-pod/${node.name}`);
  const meta = staticPod.metadata ?? {};
  return {
    ...staticPod,
    metadata: {
      ...meta,
      annotations: {
        ...(meta.annotations ?? {}),
        [HASH_ANNOTATION]: hash,
        [MIRROR_ANNOTATION]: hash,
        'kubernetes.io/config.seen': rfc3339Nano(seenMs),
        'kubernetes.io/config.source': 'file',
      },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.name, uid: node.uid, controller: true }],
    },
    spec: { ...(staticPod['spec'] as Obj), nodeName: node.name },
  };
}
