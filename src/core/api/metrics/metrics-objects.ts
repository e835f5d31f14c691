// NodeMetrics and PodMetrics objects as metrics-server 0.7 builds them: the
// node's or pod's name, namespace and labels, a creationTimestamp of the
// moment of the request, the sample's timestamp (RFC 3339, seconds) and
// window (a Go duration, "15s", "20.044s"), and usage as cpu nanocores and
// memory bytes in their canonical quantity text.

import type { KubeObject } from '../../kinds/types';
import { formatBytes, formatNanoCores } from './quantities';
import { METRICS_GROUP, METRICS_VERSION, windowText } from './metrics-resources';
import type { NodeUsage, PodUsageSample } from './usage-snapshot';

const API_VERSION = `${METRICS_GROUP}/${METRICS_VERSION}`;

/** metav1.Time's JSON: RFC 3339 in UTC, whole seconds. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function metadataOf(source: KubeObject, nowMs: number, namespaced: boolean): Record<string, unknown> {
  const meta: Record<string, unknown> = { name: source.metadata?.name ?? '' };
  if (namespaced) meta['namespace'] = source.metadata?.namespace ?? '';
  meta['creationTimestamp'] = rfc3339(nowMs);
  const labels = source.metadata?.labels;
  if (labels && Object.keys(labels).length) meta['labels'] = { ...labels };
  return meta;
}

function usage(cpuNanoCores: number, memoryBytes: number): Record<string, string> {
  return { cpu: formatNanoCores(cpuNanoCores), memory: formatBytes(memoryBytes) };
}

export function nodeMetrics(node: KubeObject, sample: NodeUsage, nowMs: number): KubeObject {
  return {
    kind: 'NodeMetrics',
    apiVersion: API_VERSION,
    metadata: metadataOf(node, nowMs, false),
    timestamp: rfc3339(sample.timestampMs),
    window: windowText(sample.windowMs),
    usage: usage(sample.cpuNanoCores, sample.memoryBytes),
  };
}

export function podMetrics(pod: KubeObject, sample: PodUsageSample, nowMs: number): KubeObject {
  return {
    kind: 'PodMetrics',
    apiVersion: API_VERSION,
    metadata: metadataOf(pod, nowMs, true),
    timestamp: rfc3339(sample.timestampMs),
    window: windowText(sample.windowMs),
    containers: sample.containers.map((c) => ({ name: c.name, usage: usage(c.cpuNanoCores, c.memoryBytes) })),
  };
}
