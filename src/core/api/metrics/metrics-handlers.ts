// The read handlers of metrics.k8s.io/v1beta1 nodes and pods, as
// metrics-server 0.7's REST storage answers: a get reads the Node or Pod
// first (its NotFound as the lister words it: `node "x" not found`,
// `pods "x" not found`), then the kubelet's usage (NotFound
// `nodemetrics.metrics.k8s.io "x" not found` /
// `podmetrics.metrics.k8s.io "ns/x" not found` when there is none yet); a
// list selects Nodes or Pods by labelSelector and fieldSelector
// (metadata.name, metadata.namespace) and returns those with usage, sorted
// by namespace and name. Nothing is stored; lists carry no resourceVersion.

import { errors, isStatusError } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import type { RequestScope, ServerContext } from '../context';
import { buildPredicate } from '../predicate';
import type { ServedResource } from '../registry';
import { decode, getObject, prefixFor } from '../resource-store';
import { objectResponse } from '../respond';
import { listToTable } from '../table';
import { nodeMetrics, podMetrics } from './metrics-objects';
import { takeSnapshot } from './usage-snapshot';

function coreResource(ctx: ServerContext, resource: 'nodes' | 'pods'): ServedResource {
  const served = ctx.registry.lookup('', 'v1', resource);
  if (!served) throw errors.serviceUnavailable(`the server could not find the requested resource (${resource})`);
  return served;
}

/** The stored objects of a core resource in a namespace ('' for all), in key order. */
async function listCore(ctx: ServerContext, served: ServedResource, namespace: string): Promise<KubeObject[]> {
  const result = await ctx.store.range({ prefix: prefixFor(served, namespace) });
  return result.kvs.map((kv) => decode(ctx, served, kv));
}

async function readCore(ctx: ServerContext, served: ServedResource, namespace: string, name: string, notFoundResource: string): Promise<KubeObject> {
  try {
    return (await getObject(ctx, served, namespace, name)).object;
  } catch (err) {
    if (isStatusError(err) && err.code === 404) throw errors.notFound({ group: '', resource: notFoundResource }, name);
    throw err;
  }
}

function respond(ctx: ServerContext, scope: RequestScope, body: KubeObject, items: KubeObject[]): Response {
  if (scope.output.as === 'Table') return objectResponse(listToTable(scope.served, items, {}, scope.query, ctx.clock.now()), 200, scope.output);
  return objectResponse(body, 200, scope.output);
}

function byNamespaceAndName(a: KubeObject, b: KubeObject): number {
  const ka = `${a.metadata?.namespace ?? ''}\u0000${a.metadata?.name ?? ''}`;
  const kb = `${b.metadata?.namespace ?? ''}\u0000${b.metadata?.name ?? ''}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

export async function handleNodeMetrics(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { route } = scope;
  const nodes = coreResource(ctx, 'nodes');
  const now = ctx.clock.now();
  if (route.verb === 'get') {
    const node = await readCore(ctx, nodes, '', route.name, 'node');
    const sample = (await takeSnapshot(ctx, [route.name])).node(route.name);
    if (!sample) throw errors.notFound({ group: 'metrics.k8s.io', resource: 'nodemetrics' }, route.name);
    const obj = nodeMetrics(node, sample, now);
    return respond(ctx, scope, obj, [obj]);
  }
  if (route.verb === 'list') {
    const predicate = buildPredicate(scope);
    const selected = (await listCore(ctx, nodes, '')).filter((n) => predicate.matches(n));
    const snapshot = await takeSnapshot(ctx, selected.map((n) => n.metadata?.name ?? ''));
    const items: KubeObject[] = [];
    for (const node of selected) {
      const sample = snapshot.node(node.metadata?.name ?? '');
      if (sample) items.push(nodeMetrics(node, sample, now));
    }
    items.sort(byNamespaceAndName);
    return respond(ctx, scope, { kind: 'NodeMetricsList', apiVersion: scope.served.apiVersion, metadata: {}, items }, items);
  }
  throw errors.methodNotSupported(scope.served.groupResource, route.verb);
}

export async function handlePodMetrics(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { route } = scope;
  const pods = coreResource(ctx, 'pods');
  const now = ctx.clock.now();
  if (route.verb === 'get') {
    const pod = await readCore(ctx, pods, route.namespace, route.name, 'pods');
    const nodeName = String((pod['spec'] as { nodeName?: string } | undefined)?.nodeName ?? '');
    const sample = nodeName ? (await takeSnapshot(ctx, [nodeName])).pod(route.namespace, route.name) : undefined;
    if (!sample) throw errors.notFound({ group: 'metrics.k8s.io', resource: 'podmetrics' }, `${route.namespace}/${route.name}`);
    const obj = podMetrics(pod, sample, now);
    return respond(ctx, scope, obj, [obj]);
  }
  if (route.verb === 'list') {
    const predicate = buildPredicate(scope);
    const selected = (await listCore(ctx, pods, route.namespace)).filter((p) => predicate.matches(p));
    const snapshot = await takeSnapshot(ctx);
    const items: KubeObject[] = [];
    for (const pod of selected) {
      const sample = snapshot.pod(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '');
      if (sample) items.push(podMetrics(pod, sample, now));
    }
    items.sort(byNamespaceAndName);
    return respond(ctx, scope, { kind: 'PodMetricsList', apiVersion: scope.served.apiVersion, metadata: {}, items }, items);
  }
  throw errors.methodNotSupported(scope.served.groupResource, route.verb);
}
