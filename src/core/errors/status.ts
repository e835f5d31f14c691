// Every failure the API reports is a metav1.Status. Handlers throw a
// StatusError built by one of the constructors below (named after
// k8s.io/apimachinery's errors.NewXxx), and one place (api/respond.ts) turns
// any thrown value into the response. The messages are kube-apiserver's.

import { aggregateFieldErrors, fieldErrorBody, type FieldError } from './field-errors';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { resourceVersion?: string; continue?: string };
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

export class StatusError extends Error {
  readonly status: Status;
  /** Extra response headers (Retry-After, …). */
  readonly headers: Record<string, string>;
  constructor(code: number, reason: string, message: string, details?: StatusDetails, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'StatusError';
    this.status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, details, code };
    if (!reason) delete this.status.reason;
    if (details === undefined) delete this.status.details;
    this.headers = headers;
  }
  get code(): number {
    return this.status.code;
  }
  get reason(): string | undefined {
    return this.status.reason;
  }
}

export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError;
}

/** A group-qualified resource, e.g. {group: 'apps', resource: 'deployments'} → "deployments.apps". */
export interface GroupResource {
  group: string;
  resource: string;
}
/** A group-qualified kind, e.g. {group: 'apps', kind: 'Deployment'} → "Deployment.apps". */
export interface GroupKind {
  group: string;
  kind: string;
}

export function groupResourceString(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}
export function groupKindString(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

function resourceDetails(gr: GroupResource, name: string): StatusDetails {
  const details: StatusDetails = { name };
  if (gr.group) details.group = gr.group;
  details.kind = gr.resource;
  return details;
}

export const errors = {
  notFound(gr: GroupResource, name: string): StatusError {
    return new StatusError(404, 'NotFound', `${groupResourceString(gr)} ${JSON.stringify(name)} not found`, resourceDetails(gr, name));
  },
  alreadyExists(gr: GroupResource, name: string): StatusError {
    return new StatusError(409, 'AlreadyExists', `${groupResourceString(gr)} ${JSON.stringify(name)} already exists`, resourceDetails(gr, name));
  },
  conflict(gr: GroupResource, name: string, detail: string): StatusError {
    return new StatusError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${groupResourceString(gr)} ${JSON.stringify(name)}: ${detail}`,
      resourceDetails(gr, name),
    );
  },
  /** The optimistic-concurrency conflict of an update with a stale resourceVersion. */
  staleUpdate(gr: GroupResource, name: string): StatusError {
    return errors.conflict(gr, name, 'the object has been modified; please apply your changes to the latest version and try again');
  },
  invalid(gk: GroupKind, name: string, fieldErrs: readonly FieldError[]): StatusError {
    const causes = fieldErrs.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field }));
    const details: StatusDetails = { name };
    if (gk.group) details.group = gk.group;
    details.kind = gk.kind;
    details.causes = causes;
    const message = fieldErrs.length
      ? `${groupKindString(gk)} ${JSON.stringify(name)} is invalid: ${aggregateFieldErrors(fieldErrs)}`
      : `${groupKindString(gk)} ${JSON.stringify(name)} is invalid`;
    return new StatusError(422, 'Invalid', message, details);
  },
  badRequest(message: string): StatusError {
    return new StatusError(400, 'BadRequest', message);
  },
  /** kube-apiserver's 400 for a request the handler cannot interpret (no reason text beyond BadRequest). */
  forbidden(gr: GroupResource, name: string, message: string, causes?: StatusCause[]): StatusError {
    const details = resourceDetails(gr, name);
    if (causes) details.causes = causes;
    const subject = name ? `${groupResourceString(gr)} ${JSON.stringify(name)}` : groupResourceString(gr);
    return new StatusError(403, 'Forbidden', `${subject} is forbidden: ${message}`, details);
  },
  methodNotSupported(gr: GroupResource, action: string): StatusError {
    const details: StatusDetails = {};
    if (gr.group) details.group = gr.group;
    details.kind = gr.resource;
    return new StatusError(405, 'MethodNotAllowed', `${action} is not supported on resources of kind ${JSON.stringify(groupResourceString(gr))}`, details);
  },
  /** go-restful's 405 for a method the route does not take, as kube-apiserver passes it on. */
  methodNotAllowedOnPath(): StatusError {
    return new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
  },
  /** kube-apiserver's generic answer for a path or resource it does not serve. */
  pathNotFound(): StatusError {
    return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
  },
  gone(message: string): StatusError {
    return new StatusError(410, 'Gone', message);
  },
  /** 410 Expired: a resource version or continue token older than the retained history. */
  expired(message: string): StatusError {
    return new StatusError(410, 'Expired', message);
  },
  tooLargeResourceVersion(requested: number, current: number, retryAfterSeconds: number): StatusError {
    return new StatusError(
      504,
      'Timeout',
      `Timeout: Too large resource version: ${requested}, current: ${current}`,
      { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  },
  notAcceptable(accepted: readonly string[]): StatusError {
    return new StatusError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
  },
  unsupportedMediaType(contentType: string, accepted: readonly string[]): StatusError {
    void contentType;
    return new StatusError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    );
  },
  requestEntityTooLarge(limit: number): StatusError {
    return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
  },
  internal(err: unknown): StatusError {
    const text = err instanceof Error ? err.message : String(err);
    return new StatusError(500, 'InternalError', `Internal error occurred: ${text}`, { causes: [{ message: text }] });
  },
  /**
   * A stored object that cannot be decoded: storage's corrupt-object error
   * (StorageError code 7) surfaced with reason StorageReadError (the string
   * behind Go's StatusReasonStoreReadError), one cause per unreadable key.
   */
  storeReadError(gr: GroupResource, keys: readonly { key: string; cause: string }[]): StatusError {
    const first = keys[0]!;
    const storageError = (k: { key: string; cause: string }) =>
      `StorageError: corrupt object, Code: 7, Key: ${k.key}, ResourceVersion: 0, AdditionalErrorMsg: ${k.cause}`;
    const details: StatusDetails = { name: first.key, kind: gr.resource };
    if (gr.group) details.group = gr.group;
    details.causes = keys.slice(0, 100).map((k) => ({ reason: 'UnexpectedServerResponse', message: storageError(k), field: k.key }));
    if (keys.length > 100) details.causes.push({ reason: 'TooMany', message: 'too many errors, the list is truncated' });
    const message =
      keys.length === 1 ? storageError(first) : `failed to read one or more ${groupResourceString(gr)} from the storage: [${keys.map((k) => k.key).join(', ')}]`;
    return new StatusError(500, 'StorageReadError', message, details);
  },
  unauthorized(message = 'Unauthorized'): StatusError {
    return new StatusError(401, 'Unauthorized', message);
  },
  /** kube's NewTimeoutError with no retry hint: 504, reason Timeout, details {}. */
  timeout(message: string): StatusError {
    return new StatusError(504, 'Timeout', `Timeout: ${message}`, {});
  },
  serviceUnavailable(message: string): StatusError {
    return new StatusError(503, 'ServiceUnavailable', message);
  },
  tooManyRequests(message: string, retryAfterSeconds: number): StatusError {
    return new StatusError(429, 'TooManyRequests', message, { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });
  },
};
