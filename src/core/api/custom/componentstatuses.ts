// componentstatuses (deprecated in v1.19+): computed on each read, never
// stored. KubeTab's own parts stand in for the components a real server
// probes: the scheduler and controller manager, and the store as etcd-0.

import { errors } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import type { RequestScope, ServerContext } from '../context';
import { objectResponse, warningHeaders } from '../respond';
import { listToTable, objectToTable } from '../table';

const COMPONENTS = ['controller-manager', 'etcd-0', 'scheduler'];
const DEPRECATION = 'v1 ComponentStatus is deprecated in v1.19+';

function status(name: string): KubeObject {
  const message = name === 'etcd-0' ? 'ok' : 'ok';
  return {
    kind: 'ComponentStatus',
    apiVersion: 'v1',
    metadata: { name, creationTimestamp: null },
    conditions: [{ type: 'Healthy', status: 'True', message }],
  };
}

export async function handleComponentStatuses(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { route, output, served, query } = scope;
  const warn = warningHeaders([DEPRECATION]);
  if (route.verb === 'get') {
    if (!COMPONENTS.includes(route.name)) throw errors.notFound(served.groupResource, route.name);
    const obj = status(route.name);
    if (output.as === 'Table') return objectResponse(objectToTable(served, obj, query, ctx.clock.now()), 200, output, warn);
    return objectResponse(obj, 200, output, warn);
  }
  if (route.verb === 'list') {
    const items = COMPONENTS.map(status);
    if (output.as === 'Table') return objectResponse(listToTable(served, items, {}, query, ctx.clock.now()), 200, output, warn);
    return objectResponse({ kind: 'ComponentStatusList', apiVersion: 'v1', metadata: {}, items }, 200, output, warn);
  }
  throw errors.methodNotSupported(served.groupResource, route.verb);
}
