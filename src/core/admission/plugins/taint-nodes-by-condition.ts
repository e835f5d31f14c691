// TaintNodesByCondition: a Node is created with the
// node.kubernetes.io/not-ready:NoSchedule taint, which the node lifecycle
// controller removes once the node reports Ready, so nothing is scheduled
// onto a node before it is known to work.

import type { AdmissionAttributes, AdmissionPlugin } from '../types';
import { isObj, objs } from './pod-helpers';

const NOT_READY = 'node.kubernetes.io/not-ready';

function admit(attrs: AdmissionAttributes): void {
  if (attrs.resource.group !== '' || attrs.resource.resource !== 'nodes' || attrs.subresource || !attrs.object) return;
  const node = attrs.object;
  if (!isObj(node['spec'])) node['spec'] = {};
  const spec = node['spec'] as Record<string, unknown>;
  const taints = objs(spec['taints']);
  if (taints.some((t) => t['key'] === NOT_READY && t['effect'] === 'NoSchedule')) return;
  spec['taints'] = [...taints, { key: NOT_READY, effect: 'NoSchedule' }];
}

export function taintNodesByCondition(): AdmissionPlugin {
  return { name: 'TaintNodesByCondition', handles: (op) => op === 'CREATE', admit };
}
