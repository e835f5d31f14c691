// services/<id>/proxy/<path>, pods/<id>/proxy/<path>, nodes/<id>/proxy/<path>:
// kube-apiserver's proxy subresources. Admission runs first (CONNECT with
// the ServiceProxyOptions, PodProxyOptions or NodeProxyOptions); then the
// backend is located (proxy-location.ts) and reached: a pod's port through
// its node's kubelet connection (a port-forward stream carrying HTTP/1.1,
// proxy-http.ts), a node's kubelet port by the kubelet's own endpoints
// (proxy-kubelet.ts). The exchange is rewritten as kube's proxy transport
// does (proxy-rewrite.ts). A proxy with no path after it is redirected to
// the same URL with a slash; a backend that cannot be reached is a 503
// "error trying to reach service: dial tcp <ip>:<port>: …".

import { errors } from '../../errors/status';
import type { SubresourceDefinition } from '../../kinds/types';
import { KubeletError, type PortStream } from '../../kubelet/connection';
import type { RequestScope, ServerContext } from '../context';
import { kubeletTarget, podRef } from '../streaming/kubelet-location';
import { admitConnect } from './connect-admission';
import { BackendProtocolError, HOP_BY_HOP, roundTrip, type BackendResponse } from './proxy-http';
import { kubeletServe } from './proxy-kubelet';
import { nodeLocation, podLocation, serviceLocation, type NodeLocation, type PodLocation } from './proxy-location';
import { forwardedHeaders, isHtml, responseHeaders, rewriteHtml, rewriteUrl, type ProxyPaths } from './proxy-rewrite';

/** Go's well-known service names a port may be given as. */
const NAMED_PORTS: Record<string, number> = { http: 80, https: 443, 'http-alt': 8080 };

function unreachable(detail: string): Error {
  return errors.serviceUnavailable(`error trying to reach service: ${detail}`);
}

function hostPort(host: string, port: number | string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The escaped path after `…/<name>/proxy` ('' when there is none), as the backend gets it. */
function backendPath(scope: RequestScope): string {
  const parts = scope.url.pathname.split('/');
  const plural = scope.served.definition.plural;
  for (let i = 0; i + 2 < parts.length; i++) {
    if (parts[i] === plural && parts[i + 2] === scope.route.subresource) {
      const rest = parts.slice(i + 3);
      return rest.length === 0 ? '' : `/${rest.join('/')}`;
    }
  }
  return '';
}

async function requestBody(request: Request): Promise<Uint8Array | undefined> {
  const method = request.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD' || !request.body) return undefined;
  return new Uint8Array(await request.arrayBuffer());
}

/** Opens the connection to a pod's port, through the kubelet of its node. */
async function dialPod(ctx: ServerContext, loc: PodLocation): Promise<{ stream: PortStream; hostPort: string }> {
  if (loc.scheme === 'https') throw unreachable('tls: first record does not look like a TLS handshake');
  let port: number;
  if (loc.port === '') port = 80;
  else if (/^\d+$/.test(loc.port)) port = Number(loc.port);
  else if (NAMED_PORTS[loc.port] !== undefined) port = NAMED_PORTS[loc.port]!;
  else throw unreachable(`dial tcp: lookup tcp/${loc.port}: unknown port`);
  const target = hostPort(loc.ip, port);
  const nodeName = (loc.pod['spec'] as { nodeName?: string } | undefined)?.nodeName;
  const kubelet = nodeName ? await kubeletTarget(ctx, nodeName).catch(() => undefined) : undefined;
  // No kubelet runs the pod (its node is down): nothing answers at the pod's address.
  if (!kubelet?.connection) throw unreachable(`dial tcp ${target}: connect: no route to host`);
  try {
    return { stream: await kubelet.connection.portForward(podRef(loc.pod), port), hostPort: target };
  } catch (err) {
    if (err instanceof KubeletError) throw unreachable(`dial tcp ${target}: connect: connection refused`);
    throw err;
  }
}

interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Headers;
  readonly body: Uint8Array | undefined;
}

async function toPod(ctx: ServerContext, loc: PodLocation, x: Exchange): Promise<{ response: BackendResponse; backendHost: string }> {
  const { stream, hostPort: target } = await dialPod(ctx, loc);
  try {
    const response = await roundTrip(stream, { method: x.method, target: `${x.path}${x.query}`, host: x.headers.get('host') ?? target, headers: x.headers, body: x.body });
    return { response, backendHost: target };
  } catch (err) {
    stream.end();
    if (err instanceof BackendProtocolError) throw unreachable(err.message);
    throw err;
  }
}

async function toNode(ctx: ServerContext, loc: NodeLocation, x: Exchange): Promise<{ response: BackendResponse; backendHost: string }> {
  const target = await kubeletTarget(ctx, loc.nodeName);
  const kubeletPort = String(target.address.port);
  if (loc.port !== '' && loc.port !== kubeletPort) {
    // Another port of the node: nothing of the simulation listens on the node's own address.
    throw unreachable(`dial tcp ${hostPort(target.address.host, loc.port)}: connect: connection refused`);
  }
  if (!target.connection) throw unreachable(`dial tcp ${target.address.hostPort}: connect: connection refused`);
  const res = await kubeletServe(ctx, target.connection, x.method, x.path || '/');
  return { response: { status: res.status, statusText: res.statusText, headers: res.headers, body: res.body }, backendHost: target.address.hostPort };
}

async function rewrittenBody(response: BackendResponse, paths: ProxyPaths, backendHost: string): Promise<BodyInit | null> {
  if (!response.body) return null;
  const encoding = (response.headers.get('content-encoding') ?? '').toLowerCase();
  if (response.headers.get('location') || !isHtml(response.headers) || (encoding !== '' && encoding !== 'identity')) return response.body;
  const html = await new Response(response.body).text();
  return rewriteHtml(html, (url) => rewriteUrl(url, paths, backendHost));
}

export async function handleProxy(ctx: ServerContext, scope: RequestScope, sub: SubresourceDefinition): Promise<Response> {
  const { route, served, request } = scope;
  await admitConnect(ctx, scope, sub);
  const plural = served.definition.plural;
  let loc: PodLocation | NodeLocation;
  if (plural === 'services') loc = await serviceLocation(ctx, route.namespace, route.name);
  else if (plural === 'pods') loc = await podLocation(ctx, route.namespace, route.name);
  else loc = nodeLocation(route.name);

  const method = request.method.toUpperCase();
  const path = backendPath(scope);
  const query = scope.url.search;
  // An empty path is redirected to the same URL with a trailing slash (kube's proxyRedirectsforRootPath).
  if (path === '' && (method === 'GET' || method === 'HEAD')) {
    return new Response(null, { status: 301, headers: { Location: `${scope.url.pathname}/${query}` } });
  }
  const requestPath = scope.url.pathname;
  const suffix = path.endsWith('/') || !requestPath.endsWith('/') ? path : `${path}/`;
  const paths: ProxyPaths = { pathPrepend: requestPath.endsWith(suffix) ? requestPath.slice(0, requestPath.length - suffix.length) : requestPath, requestHost: scope.url.host };
  const headers = forwardedHeaders(request.headers, requestPath, HOP_BY_HOP);
  if (!headers.has('host')) headers.set('Host', scope.url.host);
  const exchange: Exchange = { method, path, query, headers, body: await requestBody(request) };

  const { response, backendHost } = loc.kind === 'pod' ? await toPod(ctx, loc, exchange) : await toNode(ctx, loc, exchange);
  const out = responseHeaders(response.headers, paths, backendHost);
  const body = await rewrittenBody(response, paths, backendHost);
  if (body !== response.body) out.delete('content-length');
  return new Response(body, { status: response.status, statusText: response.statusText, headers: out });
}

