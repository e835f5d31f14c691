// NodeRestriction (kube-apiserver --enable-admission-plugins=NodeRestriction,
// set by kubeadm): a kubelet, identified as system:node:<name> in
// system:nodes, may write only what belongs to its node — its own Node
// (no taints, no configSource, only the kubelet's own label keys), mirror
// pods bound to it that reference no other object, the status of pods bound
// to it (labels and resource claim statuses unchanged), evictions and
// deletions of pods bound to it, the status of PVCs (status.capacity and
// conditions only), tokens for service accounts of pods bound to it, its own
// Lease in kube-node-lease, its own CSINode and ResourceSlices of its own.
// Other users pass untouched. Refusals are 403 with kube's texts; a pod that
// does not exist is kube's 404. A mutating plugin, so it runs before the
// kind's own validation, as in kube.

import { errors, type StatusError } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import type { UserInfo } from '../../auth/types';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { onlyWhen } from './only-when';
import { podReferencesClusterTrustBundles, podReferencesConfigMaps, podReferencesPersistentVolumeClaims, podReferencesSecrets } from './node-restriction-pods';

export const NODE_RESTRICTION = 'NodeRestriction';
const NODE_USER_PREFIX = 'system:node:';
const NODES_GROUP = 'system:nodes';
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';
const NODE_RESTRICTION_LABEL_NAMESPACE = 'node-restriction.kubernetes.io';

/** The label keys a kubelet may set on its own Node (k8s.io/kubelet IsKubeletLabel). */
const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

/** nodeidentifier.NodeIdentity: the node name, or undefined for a user that is not a node. */
export function nodeIdentity(user: UserInfo | undefined): string | undefined {
  if (!user || !user.username.startsWith(NODE_USER_PREFIX)) return undefined;
  if (!user.groups.includes(NODES_GROUP)) return undefined;
  return user.username.slice(NODE_USER_PREFIX.length);
}

/** admission.NewForbidden: named by the attributes' name, else the object's name or generateName, else "Unknown". */
function forbidden(attrs: AdmissionAttributes, message: string): StatusError {
  const meta = attrs.object?.metadata;
  const name = attrs.name || meta?.name || meta?.generateName || 'Unknown';
  return errors.forbidden({ group: attrs.resource.group, resource: attrs.resource.resource }, name, message);
}

const q = (s: string) => JSON.stringify(s);
type Obj = Record<string, unknown>;
const specOf = (o: KubeObject | undefined): Obj => ((o?.['spec'] ?? {}) as Obj);
const statusOf = (o: KubeObject | undefined): Obj => ((o?.['status'] ?? {}) as Obj);
const nodeNameOf = (pod: KubeObject | undefined): string => (specOf(pod)['nodeName'] as string | undefined) ?? '';

/** apiequality.Semantic.DeepEqual for JSON values, with absent and empty lists/maps the same (as Go nil vs empty after decoding). */
function semanticEqual(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
  if (empty(a) && empty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => semanticEqual((a as Obj)[k], (b as Obj)[k]));
  }
  return a === b;
}

async function existingPod(attrs: AdmissionAttributes, ctx: AdmissionContext, name: string): Promise<KubeObject> {
  const pod = attrs.operation === 'DELETE' && attrs.oldObject ? attrs.oldObject : await ctx.reader.get({ group: '', resource: 'pods' }, attrs.namespace, name);
  // kube returns the lister's NotFound as it is.
  if (!pod) throw errors.notFound({ group: '', resource: 'pods' }, name);
  return pod;
}

async function admitPod(node: string, attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  switch (attrs.operation) {
    case 'CREATE':
      return admitPodCreate(node, attrs, ctx);
    case 'DELETE': {
      const pod = await existingPod(attrs, ctx, attrs.name);
      if (nodeNameOf(pod) !== node) throw forbidden(attrs, `node ${q(node)} can only delete pods with spec.nodeName set to itself`);
      return;
    }
    default:
      throw forbidden(attrs, `unexpected operation ${q(attrs.operation)}, node ${q(node)} can only create and delete mirror pods`);
  }
}

async function admitPodCreate(node: string, attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  const pod = attrs.object;
  if (!pod) throw forbidden(attrs, 'unexpected type <nil>');
  if (!Object.prototype.hasOwnProperty.call(pod.metadata?.annotations ?? {}, MIRROR_POD_ANNOTATION)) {
    throw forbidden(attrs, `pod does not have ${q(MIRROR_POD_ANNOTATION)} annotation, node ${q(node)} can only create mirror pods`);
  }
  if (nodeNameOf(pod) !== node) throw forbidden(attrs, `node ${q(node)} can only create pods with spec.nodeName set to itself`);
  const owners = pod.metadata?.ownerReferences ?? [];
  if (owners.length > 1) throw forbidden(attrs, `node ${q(node)} can only create pods with a single owner reference set to itself`);
  if (owners.length === 0) throw forbidden(attrs, `node ${q(node)} can only create pods with an owner reference set to itself`);
  const owner = owners[0]!;
  if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node) {
    throw forbidden(attrs, `node ${q(node)} can only create pods with an owner reference set to itself`);
  }
  if (owner.controller !== true) throw forbidden(attrs, `node ${q(node)} can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion === true) throw forbidden(attrs, `node ${q(node)} must not set blockOwnerDeletion on an owner reference`);
  const nodeObject = await ctx.reader.get({ group: '', resource: 'nodes' }, '', node);
  if (!nodeObject) throw errors.notFound({ group: '', resource: 'nodes' }, node);
  const uid = nodeObject.metadata?.uid ?? '';
  if (owner.uid !== uid) throw forbidden(attrs, `node ${node} UID mismatch: expected ${owner.uid ?? ''} got ${uid}`);
  if (specOf(pod)['serviceAccountName']) throw forbidden(attrs, `node ${q(node)} can not create pods that reference a service account`);
  if (podReferencesSecrets(pod)) throw forbidden(attrs, `node ${q(node)} can not create pods that reference secrets`);
  if (podReferencesConfigMaps(pod)) throw forbidden(attrs, `node ${q(node)} can not create pods that reference configmaps`);
  if (podReferencesClusterTrustBundles(pod)) throw forbidden(attrs, `node ${q(node)} can not create pods that reference clustertrustbundles`);
  if (podReferencesPersistentVolumeClaims(pod)) throw forbidden(attrs, `node ${q(node)} can not create pods that reference persistentvolumeclaims`);
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const x = a ?? {};
  const y = b ?? {};
  return Object.keys(x).length === Object.keys(y).length && Object.keys(x).every((k) => Object.prototype.hasOwnProperty.call(y, k) && x[k] === y[k]);
}

function sameResourceClaimStatuses(a: unknown, b: unknown): boolean {
  const x = (Array.isArray(a) ? a : []) as { name?: string; resourceClaimName?: string }[];
  const y = (Array.isArray(b) ? b : []) as { name?: string; resourceClaimName?: string }[];
  return x.length === y.length && x.every((s, i) => s.name === y[i]!.name && s.resourceClaimName === y[i]!.resourceClaimName);
}

function admitPodStatus(node: string, attrs: AdmissionAttributes): void {
  if (attrs.operation !== 'UPDATE') throw forbidden(attrs, `unexpected operation ${q(attrs.operation)}`);
  const old = attrs.oldObject;
  if (!old) throw forbidden(attrs, 'unexpected type <nil>');
  if (nodeNameOf(old) !== node) throw forbidden(attrs, `node ${q(node)} can only update pod status for pods with spec.nodeName set to itself`);
  const pod = attrs.object;
  if (!pod) throw forbidden(attrs, 'unexpected type <nil>');
  if (!sameLabels(old.metadata?.labels, pod.metadata?.labels)) throw forbidden(attrs, `node ${q(node)} cannot update labels through pod status`);
  if (!sameResourceClaimStatuses(statusOf(old)['resourceClaimStatuses'], statusOf(pod)['resourceClaimStatuses'])) {
    throw forbidden(attrs, `node ${q(node)} cannot update resource claim statues`);
  }
}

async function admitPodEviction(node: string, attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  if (attrs.operation !== 'CREATE') throw forbidden(attrs, `unexpected operation ${attrs.operation}`);
  // The pod named by the URL, else by the Eviction.
  const podName = attrs.name || attrs.object?.metadata?.name || '';
  if (!podName) throw forbidden(attrs, 'could not determine pod from request data');
  const pod = await existingPod(attrs, ctx, podName);
  if (nodeNameOf(pod) !== node) throw forbidden(attrs, `node ${node} can only evict pods with spec.nodeName set to itself`);
}

/** The PVC without what a kubelet may change (resize: capacity, conditions, and with RecoverVolumeExpansionFailure the allocated resources). */
function pvcWithoutKubeletFields(pvc: KubeObject): KubeObject {
  const copy = JSON.parse(JSON.stringify(pvc)) as KubeObject;
  if (copy.metadata) {
    delete copy.metadata.resourceVersion;
    delete copy.metadata.managedFields;
  }
  const status = copy['status'] as Obj | undefined;
  if (status) for (const f of ['capacity', 'conditions', 'allocatedResourceStatuses', 'allocatedResources']) delete status[f];
  return copy;
}

function admitPVCStatus(node: string, attrs: AdmissionAttributes): void {
  if (attrs.operation !== 'UPDATE') throw forbidden(attrs, `unexpected operation ${q(attrs.operation)}`);
  if (!attrs.oldObject || !attrs.object) throw forbidden(attrs, 'unexpected type <nil>');
  if (!semanticEqual(pvcWithoutKubeletFields(attrs.oldObject), pvcWithoutKubeletFields(attrs.object))) {
    // kube appends a go-cmp diff of the two claims here, which KubeTab does not reproduce.
    throw forbidden(attrs, `node ${q(node)} is not allowed to update fields other than status.quantity and status.conditions`);
  }
}

function labelNamespace(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

const inNamespace = (ns: string, domain: string) => ns === domain || ns.endsWith(`.${domain}`);

export function isKubeletLabel(key: string): boolean {
  return KUBELET_LABELS.has(key) || KUBELET_LABEL_NAMESPACES.some((d) => inNamespace(labelNamespace(key), d));
}

/** The label keys added, removed or changed between two label maps. */
function modifiedLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): Set<string> {
  const x = a ?? {};
  const y = b ?? {};
  const out = new Set<string>();
  for (const k of Object.keys(x)) if (!Object.hasOwn(y, k) || x[k] !== y[k]) out.add(k);
  for (const k of Object.keys(y)) if (!Object.hasOwn(x, k) || x[k] !== y[k]) out.add(k);
  return out;
}

/** Keys a kubelet may not set: node-restriction.kubernetes.io, and kubernetes.io / k8s.io keys outside the kubelet's set. Sorted, as Go's sets.List. */
export function forbiddenLabels(modified: Iterable<string>): string[] {
  const out: string[] = [];
  for (const key of modified) {
    const ns = labelNamespace(key);
    const restricted = inNamespace(ns, NODE_RESTRICTION_LABEL_NAMESPACE);
    const kubernetes = inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io');
    if (restricted || (kubernetes && !isKubeletLabel(key))) out.push(key);
  }
  return out.sort();
}

function admitNode(node: string, attrs: AdmissionAttributes): void {
  if (attrs.name !== node) throw forbidden(attrs, `node ${q(node)} is not allowed to modify node ${q(attrs.name)}`);
  const obj = attrs.object;
  if (attrs.operation === 'CREATE') {
    if (!obj) throw forbidden(attrs, 'unexpected type <nil>');
    if (specOf(obj)['configSource'] != null) throw forbidden(attrs, `node ${q(node)} is not allowed to create pods with a non-nil configSource`);
    const bad = forbiddenLabels(modifiedLabels(obj.metadata?.labels, undefined));
    if (bad.length) throw forbidden(attrs, `node ${q(node)} is not allowed to set the following labels: ${bad.join(', ')}`);
  }
  if (attrs.operation === 'UPDATE') {
    const old = attrs.oldObject;
    if (!obj || !old) throw forbidden(attrs, 'unexpected type <nil>');
    const source = specOf(obj)['configSource'];
    if (source != null && !semanticEqual(source, specOf(old)['configSource'])) {
      throw forbidden(attrs, `node ${q(node)} is not allowed to update configSource to a new non-nil configSource`);
    }
    if (!semanticEqual(specOf(obj)['taints'], specOf(old)['taints'])) throw forbidden(attrs, `node ${q(node)} is not allowed to modify taints`);
    const bad = forbiddenLabels(modifiedLabels(obj.metadata?.labels, old.metadata?.labels));
    // kube's text here has no node name.
    if (bad.length) throw forbidden(attrs, `is not allowed to modify labels: ${bad.join(', ')}`);
  }
}

async function admitServiceAccountToken(node: string, attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  if (attrs.operation !== 'CREATE' || attrs.subresource !== 'token') return;
  const ref = (specOf(attrs.object)['boundObjectRef'] ?? undefined) as { apiVersion?: string; kind?: string; name?: string; uid?: string } | undefined;
  if (!ref || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name) throw forbidden(attrs, 'node requested token not bound to a pod');
  if (!ref.uid) throw forbidden(attrs, 'node requested token with a pod binding without a uid');
  const pod = await ctx.reader.get({ group: '', resource: 'pods' }, attrs.namespace, ref.name);
  if (!pod) throw errors.notFound({ group: '', resource: 'pods' }, ref.name);
  if (ref.uid !== pod.metadata?.uid) {
    throw forbidden(attrs, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  if (nodeNameOf(pod) !== node) throw forbidden(attrs, 'node requested token bound to a pod scheduled on a different node');
}

function admitLease(node: string, attrs: AdmissionAttributes): void {
  if (attrs.namespace !== NODE_LEASE_NAMESPACE) throw forbidden(attrs, `can only access leases in the ${q(NODE_LEASE_NAMESPACE)} system namespace`);
  const name = attrs.operation === 'CREATE' ? (attrs.object?.metadata?.name ?? '') : attrs.name;
  if (name !== node) throw forbidden(attrs, 'can only access node lease with the same name as the requesting node');
}

function admitCSINode(node: string, attrs: AdmissionAttributes): void {
  const name = attrs.operation === 'CREATE' ? (attrs.object?.metadata?.name ?? '') : attrs.name;
  if (name !== node) throw forbidden(attrs, 'can only access CSINode with the same name as the requesting node');
}

function admitResourceSlice(node: string, attrs: AdmissionAttributes): void {
  if (attrs.operation === 'CREATE' && specOf(attrs.object)['nodeName'] !== node) {
    throw forbidden(attrs, 'can only create ResourceSlice with the same NodeName as the requesting node');
  }
  if (attrs.operation === 'DELETE' && specOf(attrs.oldObject)['nodeName'] !== node) {
    throw forbidden(attrs, 'can only delete ResourceSlice with the same NodeName as the requesting node');
  }
}

async function admit(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  const node = nodeIdentity(attrs.user);
  if (node === undefined) return;
  if (node === '') throw forbidden(attrs, `could not determine node from user ${q(attrs.user!.username)}`);
  const { group, resource } = attrs.resource;
  const gr = `${resource}.${group}`;
  switch (gr) {
    case 'pods.':
      if (attrs.subresource === '') return admitPod(node, attrs, ctx);
      if (attrs.subresource === 'status') return admitPodStatus(node, attrs);
      if (attrs.subresource === 'eviction') return admitPodEviction(node, attrs, ctx);
      throw forbidden(attrs, `unexpected pod subresource ${q(attrs.subresource)}, only 'status' and 'eviction' are allowed`);
    case 'nodes.':
      return admitNode(node, attrs);
    case 'persistentvolumeclaims.':
      if (attrs.subresource === 'status') return admitPVCStatus(node, attrs);
      throw forbidden(attrs, 'may only update PVC status');
    case 'serviceaccounts.':
      return admitServiceAccountToken(node, attrs, ctx);
    case 'leases.coordination.k8s.io':
      return admitLease(node, attrs);
    case 'csinodes.storage.k8s.io':
      return admitCSINode(node, attrs);
    case 'resourceslices.resource.k8s.io':
      return admitResourceSlice(node, attrs);
    default:
      return;
  }
}

export function nodeRestriction(): AdmissionPlugin {
  return { name: NODE_RESTRICTION, handles: (op) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE', admit: onlyWhen((attrs) => nodeIdentity(attrs.user) !== undefined, admit) };
}
