// The kubelet's own HTTP server (port 10250) as nodes/<name>/proxy/<path>
// reaches it: /healthz (and its checks) answer "ok"; /pods lists the pods
// the kubelet runs (the pods bound to its node, as its pod manager holds
// them); /stats/summary is the Summary API metrics-server reads, from the
// kubelet's stats; /metrics/resource the same figures in Prometheus text.
// Anything else is Go's 404 page. The kubelet's answers go back through the
// proxy as a backend's would.

import { rfc3339 } from '../../clock';
import type { KubeletConnection } from '../../kubelet/connection';
import type { ServerContext } from '../context';
import { prefixFor, decode } from '../resource-store';

const TEXT = 'text/plain; charset=utf-8';

function text(status: number, body: string, contentType = TEXT): Response {
  return new Response(status === 204 ? null : body, { status, headers: { 'Content-Type': contentType, 'Content-Length': String(new TextEncoder().encode(body).length) } });
}

function json(value: unknown): Response {
  return text(200, JSON.stringify(value), 'application/json');
}

async function podsOnNode(ctx: ServerContext, nodeName: string): Promise<unknown[]> {
  const pods = ctx.registry.lookup('', 'v1', 'pods');
  if (!pods) return [];
  const range = await ctx.store.range({ prefix: prefixFor(pods, '') });
  return range.kvs
    .map((kv) => decode(ctx, pods, kv))
    .filter((p) => (p['spec'] as { nodeName?: string } | undefined)?.nodeName === nodeName)
    .map((p) => {
      const meta = { ...p.metadata };
      delete meta.managedFields;
      return { ...p, apiVersion: undefined, kind: undefined, metadata: meta };
    })
    .map((p) => JSON.parse(JSON.stringify(p)) as unknown);
}

async function summary(connection: KubeletConnection, nodeName: string): Promise<Record<string, unknown>> {
  const stats = await connection.stats();
  const time = rfc3339(stats.timestampMs);
  const cpu = (nano: number) => ({ time, usageNanoCores: nano });
  const memory = (bytes: number) => ({ time, usageBytes: bytes, workingSetBytes: bytes });
  return {
    node: { nodeName, cpu: cpu(stats.node.cpuNanoCores), memory: memory(stats.node.memoryBytes) },
    pods: stats.pods.map((p) => ({
      podRef: { name: p.name, namespace: p.namespace },
      containers: p.containers.map((c) => ({ name: c.name, cpu: cpu(c.cpuNanoCores), memory: memory(c.memoryBytes) })),
      cpu: cpu(p.containers.reduce((n, c) => n + c.cpuNanoCores, 0)),
      memory: memory(p.containers.reduce((n, c) => n + c.memoryBytes, 0)),
    })),
  };
}

async function resourceMetrics(connection: KubeletConnection): Promise<string> {
  const stats = await connection.stats();
  const ts = stats.timestampMs;
  const lines = [
    '# HELP container_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the container in core-seconds',
    '# TYPE container_cpu_usage_seconds_total counter',
  ];
  for (const p of stats.pods) for (const c of p.containers) lines.push(`container_cpu_usage_seconds_total{container="${c.name}",namespace="${p.namespace}",pod="${p.name}"} ${((c.cpuNanoCores / 1e9) * (stats.windowMs / 1000)).toFixed(6)} ${ts}`);
  lines.push('# HELP container_memory_working_set_bytes [STABLE] Current working set of the container in bytes', '# TYPE container_memory_working_set_bytes gauge');
  for (const p of stats.pods) for (const c of p.containers) lines.push(`container_memory_working_set_bytes{container="${c.name}",namespace="${p.namespace}",pod="${p.name}"} ${c.memoryBytes} ${ts}`);
  lines.push('# HELP node_memory_working_set_bytes [STABLE] Current working set of the node in bytes', '# TYPE node_memory_working_set_bytes gauge', `node_memory_working_set_bytes ${stats.node.memoryBytes} ${ts}`);
  return `${lines.join('\n')}\n`;
}

/** The kubelet's answer to a request on its port. */
export async function kubeletServe(ctx: ServerContext, connection: KubeletConnection, method: string, path: string): Promise<Response> {
  const p = path.split('?')[0] || '/';
  if (p === '/healthz' || p === '/healthz/ping' || p === '/healthz/log' || p === '/healthz/syncloop') return text(200, 'ok');
  if (method !== 'GET' && method !== 'HEAD') return text(405, 'Method Not Allowed\n');
  if (p === '/pods' || p === '/pods/') return json({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: await podsOnNode(ctx, connection.nodeName) });
  if (p === '/stats/summary' || p === '/stats/summary/') return json(await summary(connection, connection.nodeName));
  if (p === '/metrics/resource') return text(200, await resourceMetrics(connection), 'text/plain; version=0.0.4; charset=utf-8');
  return text(404, '404 page not found\n');
}
