// metrics.k8s.io/v1beta1 as metrics-server 0.7 serves it: `nodes`
// (NodeMetrics, cluster-scoped) and `pods` (PodMetrics, namespaced), get and
// list only, computed on each read from the kubelets' stats and never stored.
// KubeTab serves the group itself rather than through an aggregated server
// (docs/decisions/0353): the handlers are ./metrics-handlers.ts.
//
// The schemas are inline (metrics-server's types are not in kube-apiserver's
// tables), so /openapi/v3 publishes them under the names a custom resource
// of the group would get (io.k8s.metrics.v1beta1.NodeMetrics).

import type { ResourceDefinition, TableDefinition } from '../../kinds/types';
import { defineResource } from '../../kinds/builtin/common/define';
import type { SchemaNode } from '../../schema/types';
import { goDuration } from '../../kubelet/images/go-duration';
import { formatBytes, formatNanoCores } from './quantities';

export const METRICS_GROUP = 'metrics.k8s.io';
export const METRICS_VERSION = 'v1beta1';
export const NODE_METRICS_HANDLER = 'metrics-nodes';
export const POD_METRICS_HANDLER = 'metrics-pods';

const quantity: SchemaNode = { type: 'string', format: 'quantity' };
const resourceList: SchemaNode = { type: 'object', additionalProperties: quantity };
const time: SchemaNode = { type: 'string', format: 'date-time' };
const duration: SchemaNode = { type: 'string' };

const nodeMetricsSchema: SchemaNode = {
  type: 'object',
  required: ['timestamp', 'window', 'usage'],
  properties: { timestamp: time, window: duration, usage: resourceList },
};

const podMetricsSchema: SchemaNode = {
  type: 'object',
  required: ['timestamp', 'window', 'containers'],
  properties: {
    timestamp: time,
    window: duration,
    containers: {
      type: 'array',
      listType: 'atomic',
      items: { type: 'object', required: ['name', 'usage'], properties: { name: { type: 'string' }, usage: resourceList } },
    },
  },
};

type Usage = Record<string, string>;

/** Base units per suffix of the quantities ./quantities.ts writes (cores for cpu, bytes for memory). */
const SCALE: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };

function parseUsage(value: string): number {
  const m = /^(\d+)(n|u|m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(value);
  return m ? Number(m[1]) * SCALE[m[2] ?? '']! : 0;
}

/** A pod's usage: its containers' usage added up per resource, as metrics-server's pod table shows it. */
function podUsage(containers: unknown): Usage {
  const totals = new Map<string, number>();
  for (const c of Array.isArray(containers) ? (containers as { usage?: Usage }[]) : []) {
    for (const [name, value] of Object.entries(c.usage ?? {})) totals.set(name, (totals.get(name) ?? 0) + parseUsage(value));
  }
  const out: Usage = {};
  for (const [name, total] of totals) out[name] = name === 'cpu' ? formatNanoCores(Math.round(total * 1e9)) : formatBytes(Math.round(total));
  return out;
}

/** Name, one quantity column per resource (sorted: cpu, memory) and Window, as metrics-server's table has them. */
function metricsTable(usageOf: (obj: Record<string, unknown>) => Usage): TableDefinition {
  return {
    columns: [
      { name: 'Name', type: 'string', format: 'name', description: 'Name of the resource', priority: 0 },
      { name: 'cpu', type: 'string', format: 'quantity', priority: 0 },
      { name: 'memory', type: 'string', format: 'quantity', priority: 0 },
      { name: 'Window', type: 'string', format: 'duration', priority: 0 },
    ],
    cells: (obj) => {
      const usage = usageOf(obj);
      return [obj.metadata?.name ?? '', usage['cpu'] ?? '0', usage['memory'] ?? '0', String(obj['window'] ?? '')];
    },
  };
}

export const nodeMetricsResource: ResourceDefinition = defineResource({
  group: METRICS_GROUP,
  plural: 'nodes',
  kind: 'NodeMetrics',
  // metrics-server's storages name no singular (GetSingularName returns "").
  singular: '',
  namespaced: false,
  verbs: ['get', 'list'],
  versions: [
    {
      name: METRICS_VERSION,
      served: true,
      storage: true,
      schema: nodeMetricsSchema,
      table: metricsTable((o) => (o['usage'] ?? {}) as Usage),
    },
  ],
  virtual: true,
  handler: NODE_METRICS_HANDLER,
});

export const podMetricsResource: ResourceDefinition = defineResource({
  group: METRICS_GROUP,
  plural: 'pods',
  kind: 'PodMetrics',
  singular: '',
  namespaced: true,
  verbs: ['get', 'list'],
  versions: [
    {
      name: METRICS_VERSION,
      served: true,
      storage: true,
      schema: podMetricsSchema,
      table: metricsTable((o) => podUsage(o['containers'])),
    },
  ],
  virtual: true,
  handler: POD_METRICS_HANDLER,
});

/** The resources of metrics.k8s.io, added to a server whose nodes' kubelets it can read. */
export function metricsResources(): ResourceDefinition[] {
  return [nodeMetricsResource, podMetricsResource];
}

/** metav1.Duration's JSON text ("20.044s", "1m0s"). */
export function windowText(ms: number): string {
  return goDuration(ms);
}
