// pods/<name>/log. KubeTab runs no kubelet, so no container ever writes a
// log; the answers are the ones a real server gives for a pod in that state.

import { errors } from '../../errors/status';
import type { RequestScope, ServerContext } from '../context';
import { getObject } from '../resource-store';
import { textResponse } from '../respond';

interface Container {
  name?: string;
}

export async function handlePodLog(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { route, served, query } = scope;
  if (scope.request.method.toUpperCase() !== 'GET') throw errors.methodNotAllowedOnPath();
  const { object: pod } = await getObject(ctx, served, route.namespace, route.name);
  const spec = (pod['spec'] ?? {}) as { containers?: Container[]; initContainers?: Container[]; ephemeralContainers?: Container[]; nodeName?: string };
  const all = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])].map((c) => c.name ?? '');
  let container = query.get('container') ?? '';
  if (!container) {
    const regular = (spec.containers ?? []).map((c) => c.name ?? '');
    const defaultName = pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'];
    if (regular.length === 1) container = regular[0]!;
    else if (defaultName) container = defaultName;
    else throw errors.badRequest(`a container name must be specified for pod ${route.name}, choose one of: [${regular.join(' ')}]`);
  }
  if (!all.includes(container)) {
    throw errors.badRequest(`container ${container} is not valid for pod ${route.name}`);
  }
  if (!spec.nodeName) throw errors.badRequest(`pod ${route.name} does not have a host assigned`);
  // Scheduled, but no kubelet runs here: the container never starts.
  const status = (pod['status'] ?? {}) as { containerStatuses?: { name: string; state?: { waiting?: { reason?: string } } }[] };
  const reason = status.containerStatuses?.find((s) => s.name === container)?.state?.waiting?.reason ?? 'ContainerCreating';
  if (query.get('follow') === 'true' || query.get('follow') === '1') {
    throw errors.badRequest(`container ${JSON.stringify(container)} in pod ${JSON.stringify(route.name)} is waiting to start: ${reason}`);
  }
  void textResponse;
  throw errors.badRequest(`container ${JSON.stringify(container)} in pod ${JSON.stringify(route.name)} is waiting to start: ${reason}`);
}
