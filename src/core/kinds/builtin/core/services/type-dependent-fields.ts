// dropTypeDependentFields (the service strategy's PrepareForUpdate): when an
// update changes a Service's type so that allocated values no longer apply,
// and the client did not change those values itself (a `kubectl patch` of
// spec.type keeps them), they are cleared, and the allocator frees them once
// the update is stored.

import type { KubeObject } from '../../../types';
import { deepEqual } from '../../../validation/deep-equal';
import { arr, rec } from '../../common/table';
import { needsHealthCheck } from './service-allocation';

type Obj = Record<string, unknown>;

const needsClusterIP = (spec: Obj) => spec.type !== 'ExternalName';
const needsNodePorts = (spec: Obj) => spec.type === 'NodePort' || spec.type === 'LoadBalancer';

function nodePorts(spec: Obj): Set<number> {
  const out = new Set<number>();
  for (const p of arr(spec.ports).map(rec)) if (typeof p.nodePort === 'number' && p.nodePort !== 0) out.add(p.nodePort);
  return out;
}

export function dropTypeDependentFields(svc: KubeObject, old: KubeObject): void {
  const spec = rec(svc.spec);
  const oldSpec = rec(old.spec);
  if (needsClusterIP(oldSpec) && !needsClusterIP(spec)) {
    if ((spec.clusterIP ?? '') === (oldSpec.clusterIP ?? '') && deepEqual(arr(spec.clusterIPs), arr(oldSpec.clusterIPs))) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (deepEqual(spec.ipFamilies ?? null, oldSpec.ipFamilies ?? null)) delete spec.ipFamilies;
    if ((spec.ipFamilyPolicy ?? '') === (oldSpec.ipFamilyPolicy ?? '')) delete spec.ipFamilyPolicy;
  }
  // Users may add, remove or change ports as long as they add no node port of their own.
  if (needsNodePorts(oldSpec) && !needsNodePorts(spec)) {
    const before = nodePorts(oldSpec);
    if ([...nodePorts(spec)].every((n) => before.has(n))) for (const p of arr(spec.ports).map(rec)) delete p.nodePort;
  }
  if (needsHealthCheck(oldSpec) && !needsHealthCheck(spec) && (spec.healthCheckNodePort ?? 0) === (oldSpec.healthCheckNodePort ?? 0)) {
    delete spec.healthCheckNodePort;
  }
  svc.spec = spec;
}
