// The pod's QoS class (pkg/apis/core/helper/qos GetPodQOS), computed when the
// pod is created: BestEffort without any request or limit, Guaranteed when
// every container limits cpu and memory with requests equal to limits,
// Burstable otherwise.

import { parseQuantity } from '../../common/quantity';
import { arr, rec } from '../../common/table';

const SUPPORTED = ['cpu', 'memory'];

export function podQOSClass(spec: unknown): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const s = rec(spec);
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let isGuaranteed = true;
  const containers = [...arr(s.containers), ...arr(s.initContainers)].map(rec);
  for (const c of containers) {
    const res = rec(c.resources);
    for (const [name, q] of Object.entries(rec(res.requests))) {
      if (!SUPPORTED.includes(name)) continue;
      const v = parseQuantity(q) ?? 0;
      if (v !== 0) requests.set(name, (requests.get(name) ?? 0) + v);
    }
    const qosLimits = new Set<string>();
    for (const [name, q] of Object.entries(rec(res.limits))) {
      if (!SUPPORTED.includes(name)) continue;
      const v = parseQuantity(q) ?? 0;
      if (v !== 0) {
        qosLimits.add(name);
        limits.set(name, (limits.get(name) ?? 0) + v);
      }
    }
    if (!SUPPORTED.every((n) => qosLimits.has(n))) isGuaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (isGuaranteed) {
    for (const [name, v] of requests) {
      if (limits.get(name) !== v) {
        isGuaranteed = false;
        break;
      }
    }
  }
  if (isGuaranteed && requests.size === limits.size) return 'Guaranteed';
  return 'Burstable';
}
