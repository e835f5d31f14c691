// pods/<name>/log: kube-apiserver's LogREST. The options are decoded and
// validated, the pod and container chosen (LogLocation), and the container's
// log streamed from its node's kubelet as text/plain — kept open with
// `follow`, each chunk sent as the kubelet writes it. A pod not yet on a
// node has no log location: kube answers 204 with no body, which kubectl
// prints as an empty log.

import { StatusError } from '../../errors/status';
import type { LogOptions } from '../../kubelet/connection';
import type { RequestScope, ServerContext } from '../context';
import { errors } from '../../errors/status';
import { bytesResponse } from '../respond';
import { chooseContainer, dialRefused, kubeletTarget, podRef, podSpec, readPod } from '../streaming/kubelet-location';
import { logErrorToStatus } from '../streaming/kubelet-errors';
import { parsePodLogQuery, validatePodLogQuery, type PodLogQuery } from '../streaming/log-options';

/** The kubelet URL's query as kube-apiserver builds it (url.Values.Encode: sorted by key). */
function kubeletQuery(options: PodLogQuery): string {
  const params = new URLSearchParams();
  if (options.follow) params.set('follow', 'true');
  if (options.limitBytes !== undefined) params.set('limitBytes', String(options.limitBytes));
  if (options.previous) params.set('previous', 'true');
  if (options.sinceSeconds !== undefined) params.set('sinceSeconds', String(options.sinceSeconds));
  if (options.sinceTimeMs !== undefined) params.set('sinceTime', new Date(options.sinceTimeMs).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  if (options.tailLines !== undefined) params.set('tailLines', String(options.tailLines));
  if (options.timestamps) params.set('timestamps', 'true');
  const text = params.toString();
  return text ? `?${text}` : '';
}

export async function handlePodLog(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { route } = scope;
  if (scope.request.method.toUpperCase() !== 'GET') throw errors.methodNotAllowedOnPath();
  const options = parsePodLogQuery(scope.query);
  validatePodLogQuery(options, route.name, ctx.featureGates.enabled('PodLogsQuerySplitStreams'));
  const pod = await readPod(ctx, scope);
  const container = chooseContainer(pod, options.container);
  const nodeName = podSpec(pod).nodeName;
  if (!nodeName) return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-cache, private' } });
  const target = await kubeletTarget(ctx, nodeName);
  if (!target.connection) {
    // What Go's HTTP client says of a GET to a kubelet that does not answer (a plain error: 500, no reason).
    const url = `https://${target.address.hostPort}/containerLogs/${route.namespace}/${route.name}/${container}${kubeletQuery(options)}`;
    throw new StatusError(500, '', `Get ${JSON.stringify(url)}: ${dialRefused(target.address)}`);
  }
  // kube-apiserver passes sinceTime to the kubelet in RFC 3339, whole seconds; sinceSeconds counts back from the kubelet's now.
  const sinceTimeMs =
    options.sinceTimeMs !== undefined
      ? Math.floor(options.sinceTimeMs / 1000) * 1000
      : options.sinceSeconds !== undefined
        ? ctx.clock.now() - options.sinceSeconds * 1000
        : undefined;
  const logOptions: LogOptions = {
    container,
    follow: options.follow,
    previous: options.previous,
    timestamps: options.timestamps,
    ...(options.tailLines !== undefined ? { tailLines: options.tailLines } : {}),
    ...(options.limitBytes !== undefined ? { limitBytes: options.limitBytes } : {}),
    ...(sinceTimeMs !== undefined ? { sinceTimeMs } : {}),
    // The client going away ends a followed log.
    signal: scope.request.signal,
  };
  let body: ReadableStream<Uint8Array>;
  try {
    body = await target.connection.containerLog(podRef(pod), logOptions);
  } catch (error) {
    throw logErrorToStatus(error, route.name) ?? error;
  }
  return bytesResponse(body, 200, 'text/plain');
}
