// core/v1 nodes: status settable on create (nodes register themselves),
// allocatable defaulted from capacity, taints validated, the printer's
// STATUS/ROLES/VERSION columns and the spec.unschedulable field selector.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { isQualifiedName } from '../../validation/names';
import { validateLabels } from '../../validation/object-meta';
import { customSubresource, defineResource, statusSubresource, version } from '../common/define';
import { clone, standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, get, rec, str, table, wide } from '../common/table';
import { validateEnum } from './pod-spec/validation';

function defaultNode(node: KubeObject): void {
  const status = rec(node.status);
  if (node.status !== undefined && status.allocatable === undefined && status.capacity !== undefined) {
    status.allocatable = clone(status.capacity);
  }
}

function validateNode(node: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = rec(node.spec);
  arr(spec.taints).forEach((t, i) => {
    const taint = rec(t);
    const p = `spec.taints[${i}]`;
    const key = str(taint.key);
    errs.push(...isQualifiedName(key).map((msg) => fieldErrors.invalid(`${p}.key`, key, msg)));
    if (taint.value) errs.push(...validateLabels({ k: str(taint.value) }, `${p}.value`).filter((e) => e.value === taint.value));
    errs.push(...validateEnum(taint.effect, `${p}.effect`, ['NoSchedule', 'PreferNoSchedule', 'NoExecute']));
  });
  const seen = new Set<string>();
  arr(spec.taints).forEach((t, i) => {
    const key = `${str(rec(t).key)}:${str(rec(t).effect)}`;
    if (seen.has(key)) errs.push(fieldErrors.duplicate(`spec.taints[${i}]`, t));
    seen.add(key);
  });
  return errs;
}

function nodeStatus(node: KubeObject): string {
  const conditions = arr(rec(node.status).conditions).map(rec);
  const parts: string[] = [];
  // printNode keys the conditions by type in a map: the last Ready condition decides.
  const ready = conditions.filter((c) => c.type === 'Ready').pop();
  if (ready) parts.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (parts.length === 0) parts.push('Unknown');
  if (rec(node.spec).unschedulable === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

/** findNodeRoles: node-role.kubernetes.io/<role> keys and the kubernetes.io/role value. */
function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return roles.size ? [...roles].sort().join(',') : '<none>';
}

function address(node: KubeObject, type: string): string {
  const a = arr(rec(node.status).addresses).map(rec).find((x) => x.type === type);
  return a ? str(a.address) : '<none>';
}

const orUnknown = (s: string) => s || '<unknown>';

export const NODE_TABLE = table(
  [
    col('Status', 'string', 'Readiness and scheduling state'),
    col('Roles', 'string', 'Roles from node-role labels'),
    AGE_COLUMN,
    col('Version', 'string', 'Kubelet version'),
    wide('Internal-IP', 'string', 'First internal address'),
    wide('External-IP', 'string', 'First external address'),
    wide('OS-Image', 'string', 'Operating system image'),
    wide('Kernel-Version', 'string', 'Kernel release'),
    wide('Container-Runtime', 'string', 'Container runtime and version'),
  ],
  (n, now) => {
    const info = rec(rec(n.status).nodeInfo);
    return [
      nodeStatus(n),
      nodeRoles(n),
      age(n, now),
      str(info.kubeletVersion),
      address(n, 'InternalIP'),
      address(n, 'ExternalIP'),
      orUnknown(str(info.osImage)),
      orUnknown(str(info.kernelVersion)),
      orUnknown(str(info.containerRuntimeVersion)),
    ];
  },
);

export const nodesResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'nodes',
  kind: 'Node',
  namespaced: false,
  shortNames: ['no'],
  versions: [version('v1', 'io.k8s.api.core.v1.Node', { table: NODE_TABLE })],
  subresources: [customSubresource('proxy', 'NodeProxyOptions', ['create', 'delete', 'get', 'patch', 'update'], 'node-proxy'), statusSubresource('Node')],
  strategy: standardStrategy({
    namespaced: false,
    // Nodes may set their status when they register, so create keeps it; updates of the main resource keep the old one.
    statusFields: ['status'],
    statusSettableOnCreate: true,
    default: (obj) => defaultNode(obj),
    validate: (obj) => validateNode(obj),
    validateStatusUpdate: () => [],
  }),
  fieldSelectors: { 'spec.unschedulable': (o) => String(get(o, 'spec', 'unschedulable') === true) },
});
