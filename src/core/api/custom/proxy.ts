// services/<name>/proxy, pods/<name>/proxy, nodes/<name>/proxy. Nothing runs
// behind KubeTab's objects, so there is never a backend to proxy to; the
// answers are a real server's for that situation.

import { errors } from '../../errors/status';
import type { RequestScope, ServerContext } from '../context';
import { getObject } from '../resource-store';

export async function handleProxy(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { route, served } = scope;
  const { object } = await getObject(ctx, served, route.namespace, route.name.split(':')[0]!);
  if (served.definition.plural === 'services') {
    throw errors.serviceUnavailable(`no endpoints available for service ${JSON.stringify(object.metadata?.name ?? route.name)}`);
  }
  if (served.definition.plural === 'pods') {
    const ip = (object['status'] as { podIP?: string } | undefined)?.podIP;
    if (!ip) throw errors.badRequest(`address not allowed`);
  }
  throw errors.serviceUnavailable(`error trying to reach ${served.definition.singular}: no route to ${route.name}`);
}
