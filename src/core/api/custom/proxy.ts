// services/<name>/proxy, pods/<name>/proxy, nodes/<name>/proxy. Nothing runs
// behind KubeTab's objects, so there is never a backend to proxy to; the
// answers are a real server's for that situation. Admission runs first
// (CONNECT with the PodProxyOptions, NodeProxyOptions or ServiceProxyOptions),
// as in kube's connect handler.

import { errors } from '../../errors/status';
import type { SubresourceDefinition } from '../../kinds/types';
import type { RequestScope, ServerContext } from '../context';
import { getObject } from '../resource-store';
import { admitConnect } from './connect-admission';

export async function handleProxy(ctx: ServerContext, scope: RequestScope, sub: SubresourceDefinition): Promise<Response> {
  const { route, served } = scope;
  await admitConnect(ctx, scope, sub);
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
