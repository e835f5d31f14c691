// Admission of the CONNECT subresources (pods/exec, attach, portforward,
// proxy; nodes/proxy; services/proxy): kube's connect handler decodes the
// query (and, for proxies, the path after /proxy) into the subresource's
// options object — PodExecOptions, PodAttachOptions, PodPortForwardOptions,
// PodProxyOptions, NodeProxyOptions, ServiceProxyOptions — and runs both
// admission phases on it, with operation CONNECT, no operation options and
// dryRun false, before it looks at the pod, node or service at all.

import type { KubeObject, SubresourceDefinition } from '../../kinds/types';
import { AdmissionRun } from '../../admission/request';
import type { RequestScope, ServerContext } from '../context';
import { requestRecord } from '../handlers/request-record';

/** Go's query-parameter conversion to bool: absent is false, "0" and "false" (any case) are false, anything else true. */
function queryBool(query: URLSearchParams, key: string): boolean | undefined {
  const values = query.getAll(key);
  if (values.length === 0) return undefined;
  const v = values[0]!;
  return !(v === '0' || v.toLowerCase() === 'false');
}

/** The path after `<name>/<subresource>` with a leading slash, and a trailing one when the request had it (getRequestOptions). */
function subpath(scope: RequestScope): string {
  const parts = scope.url.pathname.split('/').filter((p) => p.length > 0);
  const plural = scope.served.definition.plural;
  let at = -1;
  for (let i = 0; i + 2 < parts.length; i++) {
    if (parts[i] === plural && parts[i + 2] === scope.route.subresource) {
      at = i + 3;
      break;
    }
  }
  let path = at < 0 ? '' : parts.slice(at).join('/');
  if (path && !path.startsWith('/')) path = `/${path}`;
  if (scope.url.pathname.endsWith('/') && !path.endsWith('/')) path += '/';
  return path;
}

/** The options object of a CONNECT request, with the fields Go's JSON encoder writes (omitempty ones left out when empty). */
export function connectOptions(scope: RequestScope, sub: SubresourceDefinition): KubeObject {
  const query = scope.query;
  const kind = sub.kind;
  const out: Record<string, unknown> = { kind, apiVersion: sub.group ? `${sub.group}/${sub.version ?? 'v1'}` : (sub.version ?? 'v1') };
  if (kind === 'PodExecOptions' || kind === 'PodAttachOptions') {
    for (const key of ['stdin', 'stdout', 'stderr', 'tty']) if (queryBool(query, key)) out[key] = true;
    const container = query.get('container');
    if (container) out['container'] = container;
    if (kind === 'PodExecOptions') {
      const command = query.getAll('command');
      // Command has no omitempty: an exec without one shows null.
      out['command'] = command.length ? command : null;
    }
  } else if (kind === 'PodPortForwardOptions') {
    const ports = query
      .getAll('ports')
      .flatMap((v) => v.split(','))
      .map((v) => Number(v.trim()))
      .filter((n) => Number.isInteger(n));
    if (ports.length) out['ports'] = ports;
  } else {
    // PodProxyOptions, NodeProxyOptions, ServiceProxyOptions: the path is the one after /proxy
    // (kube replaces any ?path= with it, an empty one included).
    const path = subpath(scope);
    if (path) out['path'] = path;
  }
  return out as KubeObject;
}

/** Both admission phases of a CONNECT request; throws the refusal a client sees. */
export async function admitConnect(ctx: ServerContext, scope: RequestScope, sub: SubresourceDefinition): Promise<void> {
  const run = new AdmissionRun(ctx, {
    served: scope.served,
    namespace: scope.route.namespace,
    name: scope.route.name,
    subresource: scope.route.subresource,
    dryRun: false,
    kind: { group: sub.group ?? '', version: sub.version ?? 'v1', kind: sub.kind },
    recorder: requestRecord(scope.request),
  });
  await run.connect(connectOptions(scope, sub));
}
