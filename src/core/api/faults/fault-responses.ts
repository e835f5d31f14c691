// The answers a status fault gives, each as kube-apiserver writes that code
// for the request at hand, so that a client's error path sees what it would
// see from a real cluster:
//   403  the authorizer's denial: pods "web" is forbidden: User "jane" cannot get resource "pods" …
//   404  pods "web" not found (a collection: the server could not find the requested resource)
//   409  a create: pods "web" already exists; anything else: the optimistic-concurrency
//        conflict, Operation cannot be fulfilled on pods "web": the object has been modified; …
//   410  a watch: 200 and one ERROR event, Expired "too old resource version: R (C)";
//        a list with a continue token: the expired-token text; otherwise Expired, too old resource version
//   429  priority and fairness' throttling: plain text "Too many requests, please try again later."
//        with Retry-After (not a Status: kube's filter writes it with http.Error)
//   500  InternalError "Internal error occurred: …"
//   503  ServiceUnavailable "the server is currently unable to handle the request"

import { errors, StatusError, type GroupResource } from '../../errors/status';
import { forbiddenStatus } from '../../auth';
import type { UserInfo } from '../../auth/types';
import type { OutputFormat } from '../media';
import { bytesResponse, textResponse } from '../respond';
import { encodeJson } from '../negotiation/json-encode';
import { encodeProtobufWatchEvent } from '../../protobuf';
import type { RouteVerb } from '../route';
import type { CheckedFault } from './fault-spec';
import { bodyEncodingFor, parseYaml, readBody } from '../body';

/** The request as faults see it: kube's request attributes after authentication. */
export interface FaultRequest {
  readonly verb: RouteVerb;
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly user: UserInfo | undefined;
  readonly query: URLSearchParams;
  /** Read only for a create's 409, whose Status names the object in the body. */
  readonly request: Request;
}

/** The text of kube's expired continue token (storage.NewInvalidError for an expired continue). */
const EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

const DEFAULT_INTERNAL_CAUSE = 'fault injected by KubeTab';

/** The name a create's body gives its object (JSON and YAML bodies; a protobuf one is left unnamed). */
async function createdName(request: Request): Promise<string> {
  try {
    const encoding = bodyEncodingFor(request.headers.get('content-type'));
    if (encoding === 'protobuf') return '';
    const text = await readBody(request);
    const body = (encoding === 'yaml' ? parseYaml(text) : JSON.parse(text)) as { metadata?: { name?: unknown } } | null;
    const name = body?.metadata?.name;
    return typeof name === 'string' ? name : '';
  } catch {
    return '';
  }
}

function forbiddenText(req: FaultRequest): string {
  const username = JSON.stringify(req.user?.username ?? 'system:anonymous');
  const resource = req.subresource ? `${req.resource}/${req.subresource}` : req.resource;
  const where = req.namespace ? `in the namespace ${JSON.stringify(req.namespace)}` : 'at the cluster scope';
  return `User ${username} cannot ${req.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(req.group)} ${where}`;
}

function expiredText(req: FaultRequest, currentRevision: number): string {
  const requested = req.query.get('resourceVersion') || '0';
  return `too old resource version: ${requested} (${currentRevision})`;
}

/**
 * The response of a status fault: a Response to send as it is (429, a
 * watch's 410), or a StatusError for the server's error path to encode in
 * the request's negotiated format.
 */
export async function faultAnswer(fault: CheckedFault, req: FaultRequest, output: OutputFormat, currentRevision: number): Promise<Response | StatusError> {
  const gr: GroupResource = { group: req.group, resource: req.resource };
  const message = fault.message;
  switch (fault.status) {
    case 403:
      return forbiddenStatus(gr, req.name, message ?? forbiddenText(req));
    case 404:
      if (message !== undefined) return new StatusError(404, 'NotFound', message, req.name ? { name: req.name, ...(req.group ? { group: req.group } : {}), kind: req.resource } : {});
      return req.name ? errors.notFound(gr, req.name) : errors.pathNotFound();
    case 409: {
      if (req.verb === 'create') {
        const name = req.name || (await createdName(req.request));
        return message !== undefined ? new StatusError(409, 'AlreadyExists', message, { name, ...(req.group ? { group: req.group } : {}), kind: req.resource }) : errors.alreadyExists(gr, name);
      }
      return message !== undefined ? errors.conflict(gr, req.name, message) : errors.staleUpdate(gr, req.name);
    }
    case 410: {
      if (req.verb === 'list' && req.query.get('continue')) return errors.expired(message ?? EXPIRED_CONTINUE);
      const expired = errors.expired(message ?? expiredText(req, currentRevision));
      if (req.verb !== 'watch') return expired;
      // A watch from a compacted revision: kube answers 200 and sends the 410 as the stream's only event.
      const protobuf = output.encoding === 'protobuf';
      const event = protobuf
        ? encodeProtobufWatchEvent('ERROR', expired.status as unknown as Record<string, unknown>)
        : new TextEncoder().encode(encodeJson({ type: 'ERROR', object: expired.status }, { pretty: false }));
      return bytesResponse(event, 200, protobuf ? output.contentType : 'application/json');
    }
    case 429: {
      const retryAfter = String(fault.retryAfterSeconds ?? 1);
      return textResponse('Too many requests, please try again later.\n', 429, 'text/plain; charset=utf-8', { 'X-Content-Type-Options': 'nosniff', 'Retry-After': retryAfter });
    }
    case 500:
      return message !== undefined ? new StatusError(500, 'InternalError', message) : errors.internal(new Error(DEFAULT_INTERNAL_CAUSE));
    case 503: {
      const error = errors.serviceUnavailable(message ?? 'the server is currently unable to handle the request');
      if (fault.retryAfterSeconds === undefined) return error;
      return new StatusError(503, 'ServiceUnavailable', error.status.message!, { retryAfterSeconds: fault.retryAfterSeconds }, { 'Retry-After': String(fault.retryAfterSeconds) });
    }
    default:
      throw new Error(`no answer for status ${String(fault.status)}`);
  }
}
