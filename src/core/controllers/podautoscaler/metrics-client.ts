// The HPA controller's resource metrics client: PodMetrics of the target's
// pods from metrics.k8s.io (a list with the scale's selector), summed per
// pod for a resource (every container must report it) or taken from one
// container, in milli-units, with kube's error texts.

import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import { ApiError, errorMessage } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import type { PodMetricsInfo } from './replica-calculator';
import { milliValue } from './quantities';

export const POD_METRICS: GroupVersionResource = { group: 'metrics.k8s.io', version: 'v1beta1', resource: 'pods' };

export class MetricsError extends Error {}

function rec(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
}

/** client-go's text for an error answer, which names the request when the server gave no details. */
function clientErrorText(err: unknown): string {
  if (err instanceof ApiError && err.code === 404 && !err.status?.details) return `${err.message} (get ${POD_METRICS.resource}.${POD_METRICS.group})`;
  return errorMessage(err);
}

function goDurationMs(text: unknown): number {
  const m = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:([\d.]+)s)?(?:([\d.]+)ms)?$/.exec(String(text ?? ''));
  if (!m) return 0;
  return Number(m[1] ?? 0) * 3_600_000 + Number(m[2] ?? 0) * 60_000 + Number(m[3] ?? 0) * 1000 + Number(m[4] ?? 0);
}

/** GetResourceMetric: by pod name; `container` '' sums the pod's containers. */
export async function resourceMetric(client: ApiClient, resource: string, namespace: string, selector: string, container: string): Promise<{ metrics: PodMetricsInfo; timestampMs: number }> {
  let items: KubeObject[];
  try {
    items = (await client.list(POD_METRICS, namespace, { labelSelector: selector })).items;
  } catch (err) {
    throw new MetricsError(`unable to fetch metrics from resource metrics API: ${clientErrorText(err)}`);
  }
  if (items.length === 0) throw new MetricsError('no metrics returned from resource metrics API');
  const metrics: PodMetricsInfo = new Map();
  for (const m of items) {
    const name = m.metadata?.name ?? '';
    const timestampMs = Date.parse(String(m['timestamp'] ?? '')) || 0;
    const windowMs = goDurationMs(m['window']);
    const containers = Array.isArray(m['containers']) ? (m['containers'] as Record<string, unknown>[]) : [];
    if (container) {
      const c = containers.find((x) => x['name'] === container);
      if (!c) throw new MetricsError(`failed to get container metrics: container ${container} not present in metrics for pod ${m.metadata?.namespace ?? ''}/${name}`);
      const value = milliValue(rec(c['usage'])[resource]);
      if (value !== undefined) metrics.set(name, { timestampMs, windowMs, value });
      continue;
    }
    let sum = 0;
    let missing = containers.length === 0;
    for (const c of containers) {
      const value = milliValue(rec(c['usage'])[resource]);
      if (value === undefined) {
        missing = true;
        break;
      }
      sum += value;
    }
    if (!missing) metrics.set(name, { timestampMs, windowMs, value: sum });
  }
  return { metrics, timestampMs: Date.parse(String(items[0]!['timestamp'] ?? '')) || 0 };
}
