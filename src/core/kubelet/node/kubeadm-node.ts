// What kubeadm does to a node once its kubelet has registered it, as
// kubernetes-admin: `kubeadm init`'s mark-control-plane phase labels the
// control-plane node (node-role.kubernetes.io/control-plane,
// node.kubernetes.io/exclude-from-external-load-balancers) and makes sure it
// carries the control-plane NoSchedule taint; init and join both record the
// node's CRI socket in the kubeadm.alpha.kubernetes.io/cri-socket
// annotation. Done once per node (a control-plane node that has its role
// label is done): a user who later removes the taint, to schedule pods on
// the control plane, keeps it removed, as kubeadm never runs again.

import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../../controllers/client/api-client';
import type { GroupVersionResource } from '../../controllers/client/resource-path';
import { CRI_SOCKET } from './node-facts';
import { CONTROL_PLANE_TAINT } from './node-object';

export const NODES: GroupVersionResource = { group: '', version: 'v1', resource: 'nodes' };
export const CONTROL_PLANE_LABEL = 'node-role.kubernetes.io/control-plane';
const EXCLUDE_LB_LABEL = 'node.kubernetes.io/exclude-from-external-load-balancers';
const CRI_SOCKET_ANNOTATION = 'kubeadm.alpha.kubernetes.io/cri-socket';

/** The merge patch kubeadm applies to a freshly registered node, or undefined when it has been applied. */
export function kubeadmNodePatch(node: KubeObject, controlPlane: boolean): Record<string, unknown> | undefined {
  const labels = node.metadata?.labels ?? {};
  const annotations = node.metadata?.annotations ?? {};
  const metadata: Record<string, unknown> = {};
  if (!(CRI_SOCKET_ANNOTATION in annotations)) metadata['annotations'] = { [CRI_SOCKET_ANNOTATION]: CRI_SOCKET };
  if (!controlPlane) return Object.keys(metadata).length ? { metadata } : undefined;
  if (CONTROL_PLANE_LABEL in labels) return Object.keys(metadata).length ? { metadata } : undefined;
  metadata['labels'] = { [CONTROL_PLANE_LABEL]: '', [EXCLUDE_LB_LABEL]: '' };
  const taints = Array.isArray((node['spec'] as { taints?: unknown } | undefined)?.taints) ? ((node['spec'] as { taints: { key?: string; effect?: string }[] }).taints) : [];
  const hasTaint = taints.some((t) => t.key === CONTROL_PLANE_TAINT.key && t.effect === CONTROL_PLANE_TAINT.effect);
  return { metadata, ...(hasTaint ? {} : { spec: { taints: [...taints, { ...CONTROL_PLANE_TAINT }] } }) };
}

/** Applies kubeadm's labels, taint and annotation to a registered node (a merge patch guarded by its resourceVersion). */
export async function markNode(admin: ApiClient, node: KubeObject, controlPlane: boolean): Promise<void> {
  const patch = kubeadmNodePatch(node, controlPlane);
  if (!patch) return;
  const metadata = { ...(patch['metadata'] as object), resourceVersion: node.metadata?.resourceVersion };
  await admin.patch(NODES, '', node.metadata?.name ?? '', { ...patch, metadata }, 'application/merge-patch+json');
}
