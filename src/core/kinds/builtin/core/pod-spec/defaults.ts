// Scheme defaulting of PodSpec and everything inside it (pkg/apis/core/v1
// defaults.go and the generated defaulters that walk nested structs), shared
// by Pods and every kind that embeds a pod template.

import { get, rec } from '../../common/table';
import { defaultPullPolicy } from './image-reference';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

function setIfUnset(obj: Obj, field: string, value: unknown): void {
  if (obj[field] === undefined || obj[field] === null || obj[field] === '') obj[field] = value;
}

/** SetDefaults_Probe and the handler inside it. */
function defaultProbe(probe: unknown): void {
  if (!isObj(probe)) return;
  if (!probe.timeoutSeconds) probe.timeoutSeconds = 1;
  if (!probe.periodSeconds) probe.periodSeconds = 10;
  if (!probe.successThreshold) probe.successThreshold = 1;
  if (!probe.failureThreshold) probe.failureThreshold = 3;
  defaultHandler(probe);
}

/** HTTPGetAction (path "/", scheme HTTP) and GRPCAction (service "") wherever a handler appears. */
function defaultHandler(handler: unknown): void {
  if (!isObj(handler)) return;
  if (isObj(handler.httpGet)) {
    setIfUnset(handler.httpGet, 'path', '/');
    setIfUnset(handler.httpGet, 'scheme', 'HTTP');
  }
  if (isObj(handler.grpc) && handler.grpc.service === undefined) handler.grpc.service = '';
}

function defaultEnv(env: unknown): void {
  for (const e of list(env)) {
    const fieldRef = get(e, 'valueFrom', 'fieldRef');
    if (isObj(fieldRef)) setIfUnset(fieldRef, 'apiVersion', 'v1');
  }
}

/** SetDefaults_Container (also used for init and ephemeral containers). */
export function defaultContainer(c: Obj): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = defaultPullPolicy(typeof c.image === 'string' ? c.image : '');
  setIfUnset(c, 'terminationMessagePath', '/dev/termination-log');
  setIfUnset(c, 'terminationMessagePolicy', 'File');
  for (const p of list(c.ports)) setIfUnset(p, 'protocol', 'TCP');
  defaultEnv(c.env);
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  if (isObj(c.lifecycle)) {
    defaultHandler(c.lifecycle.postStart);
    defaultHandler(c.lifecycle.preStop);
  }
}

const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos', 'csi',
  'ephemeral', 'image',
];
export const VOLUME_SOURCE_FIELDS: readonly string[] = VOLUME_SOURCES;

/** SetDefaults_Volume and the per-source defaults. */
export function defaultVolume(v: Obj): void {
  if (!VOLUME_SOURCES.some((s) => v[s] !== undefined && v[s] !== null)) v.emptyDir = {};
  const mode420 = (src: unknown) => {
    if (isObj(src) && (src.defaultMode === undefined || src.defaultMode === null)) src.defaultMode = 420;
  };
  mode420(v.secret);
  mode420(v.configMap);
  mode420(v.downwardAPI);
  mode420(v.projected);
  if (isObj(v.downwardAPI)) for (const item of list(v.downwardAPI.items)) if (isObj(item.fieldRef)) setIfUnset(item.fieldRef, 'apiVersion', 'v1');
  if (isObj(v.projected)) {
    for (const source of list(v.projected.sources)) {
      const token = source.serviceAccountToken;
      if (isObj(token) && !token.expirationSeconds) token.expirationSeconds = 3600;
      if (isObj(source.downwardAPI)) for (const item of list(source.downwardAPI.items)) if (isObj(item.fieldRef)) setIfUnset(item.fieldRef, 'apiVersion', 'v1');
    }
  }
  if (isObj(v.hostPath) && v.hostPath.type === undefined) v.hostPath.type = '';
  if (isObj(v.iscsi)) setIfUnset(v.iscsi, 'iscsiInterface', 'default');
  if (isObj(v.azureDisk)) {
    setIfUnset(v.azureDisk, 'cachingMode', 'ReadWrite');
    setIfUnset(v.azureDisk, 'kind', 'Shared');
    setIfUnset(v.azureDisk, 'fsType', 'ext4');
    if (v.azureDisk.readOnly === undefined) v.azureDisk.readOnly = false;
  }
  if (isObj(v.rbd)) {
    setIfUnset(v.rbd, 'pool', 'rbd');
    setIfUnset(v.rbd, 'user', 'admin');
    setIfUnset(v.rbd, 'keyring', '/etc/ceph/keyring');
  }
  if (isObj(v.scaleIO)) {
    setIfUnset(v.scaleIO, 'storageMode', 'ThinProvisioned');
    setIfUnset(v.scaleIO, 'fsType', 'xfs');
  }
  const claimSpec = get(v, 'ephemeral', 'volumeClaimTemplate', 'spec');
  if (isObj(claimSpec)) setIfUnset(claimSpec, 'volumeMode', 'Filesystem');
  if (isObj(v.image)) {
    // SetDefaults_ImageVolumeSource follows the container rule.
    if (!v.image.pullPolicy) v.image.pullPolicy = defaultPullPolicy(typeof v.image.reference === 'string' ? v.image.reference : '');
  }
}

/** SetDefaults_PodSpec plus everything nested in a PodSpec (pod templates get exactly this). */
export function defaultPodSpec(spec: Obj): void {
  setIfUnset(spec, 'dnsPolicy', 'ClusterFirst');
  setIfUnset(spec, 'restartPolicy', 'Always');
  if (!isObj(spec.securityContext)) spec.securityContext = {};
  if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null) spec.terminationGracePeriodSeconds = 30;
  setIfUnset(spec, 'schedulerName', 'default-scheduler');
  for (const c of list(spec.initContainers)) defaultContainer(c);
  for (const c of list(spec.containers)) defaultContainer(c);
  for (const c of list(spec.ephemeralContainers)) defaultContainer(c);
  for (const v of list(spec.volumes)) defaultVolume(v);
}

/** HostPort = ContainerPort for host-network pods. */
function defaultHostNetworkPorts(containers: unknown): void {
  for (const c of list(containers)) for (const p of list(c.ports)) if (!p.hostPort) p.hostPort = p.containerPort;
}

/** Requests default to limits for each resource with a limit but no request (Pods only, not templates). */
function defaultRequestsFromLimits(containers: unknown): void {
  for (const c of list(containers)) {
    const resources = rec(c.resources);
    const limits = rec(resources.limits);
    if (!isObj(resources.limits)) continue;
    const requests = isObj(resources.requests) ? resources.requests : {};
    for (const [k, v] of Object.entries(limits)) if (requests[k] === undefined) requests[k] = v;
    resources.requests = requests;
    c.resources = resources;
  }
}

/** SetDefaults_Pod: the PodSpec defaults plus what only a Pod gets. */
export function defaultPod(pod: Obj): void {
  if (!isObj(pod.spec)) pod.spec = {};
  const spec = pod.spec as Obj;
  defaultPodSpec(spec);
  defaultRequestsFromLimits(spec.containers);
  defaultRequestsFromLimits(spec.initContainers);
  if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null) spec.enableServiceLinks = true;
  if (spec.hostNetwork === true) {
    defaultHostNetworkPorts(spec.containers);
    defaultHostNetworkPorts(spec.initContainers);
  }
}

/** Pod templates embedded in workloads (PodTemplateSpec.spec). */
export function defaultPodTemplate(template: unknown): void {
  if (!isObj(template)) return;
  if (!isObj(template.spec)) template.spec = {};
  defaultPodSpec(template.spec as Obj);
}
