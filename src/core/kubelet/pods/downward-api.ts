// The downward API as the kubelet resolves it, for env vars (fieldRef,
// resourceFieldRef) and downwardAPI volume files: the pod's own fields, and
// a container's requests and limits (a limit not set is the node's
// allocatable), divided by the divisor and rounded up.

import type { KubeObject } from '../../kinds/types';
import { arr, rec, str } from '../../kinds/builtin/common/table';
import { parseQuantity } from '../../kinds/builtin/common/quantity';

export interface PodFacts {
  readonly podIP: string;
  readonly podIPs: readonly string[];
  readonly hostIP: string;
  readonly nodeAllocatable: { readonly cpu: string; readonly memory: string; readonly ephemeralStorage: string };
}

export class DownwardError extends Error {}

/** `key="value"` lines, sorted, as a downwardAPI volume writes labels and annotations. */
function formatMap(map: Record<string, unknown>): string {
  return Object.keys(map)
    .sort()
    .map((k) => `${k}=${JSON.stringify(String(map[k]))}`)
    .join('\n');
}

const SUBSCRIPT = /^metadata\.(labels|annotations)\['(.*)'\]$/;

/** A fieldRef's value; `volume` allows the whole label/annotation maps. */
export function fieldRefValue(pod: KubeObject, fieldPath: string, facts: PodFacts, volume = false): string {
  const meta = pod.metadata ?? {};
  const spec = rec(pod.spec);
  const sub = SUBSCRIPT.exec(fieldPath);
  if (sub) return String(rec(meta[sub[1]!])[sub[2]!] ?? '');
  switch (fieldPath) {
    case 'metadata.name':
      return meta.name ?? '';
    case 'metadata.namespace':
      return meta.namespace ?? '';
    case 'metadata.uid':
      return meta.uid ?? '';
    case 'spec.nodeName':
      return str(spec.nodeName);
    case 'spec.serviceAccountName':
      return str(spec.serviceAccountName);
    case 'status.hostIP':
      return facts.hostIP;
    case 'status.hostIPs':
      return facts.hostIP;
    case 'status.podIP':
      return facts.podIP;
    case 'status.podIPs':
      return facts.podIPs.join(',');
    case 'metadata.labels':
      if (volume) return formatMap(rec(meta.labels));
      break;
    case 'metadata.annotations':
      if (volume) return formatMap(rec(meta.annotations));
      break;
    default:
      break;
  }
  throw new DownwardError(`unsupported fieldPath: ${fieldPath}`);
}

/** A resourceFieldRef's value for a container of the pod. */
export function resourceFieldRefValue(pod: KubeObject, containerName: string, ref: Record<string, unknown>, facts: PodFacts): string {
  const spec = rec(pod.spec);
  const container = [...arr(spec.containers), ...arr(spec.initContainers)].map(rec).find((c) => c.name === (str(ref.containerName) || containerName));
  if (!container) throw new DownwardError(`cannot find container named ${str(ref.containerName) || containerName}`);
  const resource = str(ref.resource);
  const [kind, name] = resource.split('.', 2) as [string, string];
  const resources = rec(container.resources);
  const fromSpec = rec(kind === 'limits' ? resources.limits : resources.requests)[name];
  const allocatable = name === 'cpu' ? facts.nodeAllocatable.cpu : name === 'memory' ? facts.nodeAllocatable.memory : facts.nodeAllocatable.ephemeralStorage;
  // An unset limit is the node's allocatable; an unset request is 0 (the limit when only a limit is set is defaulted by the API).
  const raw = fromSpec ?? (kind === 'limits' ? allocatable : '0');
  const value = parseQuantity(raw) ?? 0;
  const divisor = parseQuantity(ref.divisor ?? '1') || 1;
  if (name === 'cpu') return String(Math.ceil(value / divisor - 1e-9));
  return String(Math.ceil(value / divisor - 1e-9));
}
