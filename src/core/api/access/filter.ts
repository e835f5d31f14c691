// The access filters of the request pipeline, in kube-apiserver's order:
// authentication (401 when credentials are refused, or absent while anonymous
// is off) → audit → impersonation (each Impersonate-* header checked with the
// `impersonate` verb) → authorization (403 with kube's message, or 500 when
// an authorizer failed and nobody allowed). The caller dispatches the request
// when admit() returns a user (or none, when authentication is not
// configured) and renders thrown StatusErrors as negotiated Status bodies.

import {
  attributesFor,
  authnRequestFromHeaders,
  forbiddenError,
  impersonate,
  impersonationRequests,
  requestInfoFor,
  unauthorizedError,
  isReadOnly,
  type Decision,
  type RequestInfo,
  type UserInfo,
} from '../../auth';
import type { AccessControl } from './access-control';
import type { AuditEntry } from './audit-log';
import { AUDIT_PATH } from './audit-endpoint';
import { CLIENT_CERTIFICATE_HEADER, peerCertificatesOf, sourceIPsOf } from './peer-certificates';
import { auditRequestReceived, auditUnauthenticated } from './audit-stages';

export interface Admission {
  /** The user the request is served as (after impersonation); absent when authentication is not configured. */
  readonly user?: UserInfo;
  readonly info: RequestInfo;
  /** A response the filters answered with themselves (500 texts); dispatch nothing. */
  readonly response?: Response;
}

/** responsewriters.InternalError: plain text, the request URI quoted as Go's %q. */
export function internalErrorResponse(requestURI: string, message: string): Response {
  const sanitized = requestURI.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return new Response(`Internal Server Error: ${JSON.stringify(sanitized)}: ${message}`, {
    status: 500,
    headers: { 'Content-Type': 'text/plain', 'X-Content-Type-Options': 'nosniff' },
  });
}

/** Whether any Impersonate-* header is present (one pass over the names: cheaper than lookups). */
function hasImpersonation(headers: Headers): boolean {
  for (const [name] of headers.entries()) if (name.startsWith('impersonate-')) return true;
  return false;
}

/** What AlwaysAllow answers for a request without a user (authentication not configured). */
const UNAUTHENTICATED_ALLOW: Decision = Object.freeze({
  decision: 'Allow',
  reason: '',
  trace: [{ authorizer: 'AlwaysAllow', name: 'alwaysallow', decision: 'Allow', reason: '', notes: ['no user: authentication is not configured'] }],
}) as Decision;

/**
 * The audit record of a request, kept in the log at once (and completed as
 * the request goes on). Reads of the audit log itself are not recorded, so
 * that a reader polling it does not fill it.
 */
/** Query parameters whose values are credentials: never written to an audit record or a log. */
const SECRET_QUERY_PARAMETERS = new Set(['access_token']);

/** The request's path and query as the audit log keeps it, with credential values replaced. */
export function redactedRequestURI(url: URL): string {
  if (![...SECRET_QUERY_PARAMETERS].some((name) => url.searchParams.has(name))) return url.pathname + url.search;
  const parts = url.search
    .slice(1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = decodeURIComponentSafe(eq < 0 ? part : part.slice(0, eq));
      return SECRET_QUERY_PARAMETERS.has(name) ? `${part.slice(0, eq < 0 ? part.length : eq)}=REDACTED` : part;
    });
  return `${url.pathname}?${parts.join('&')}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

export function beginAudit(access: AccessControl, request: Request, url: URL, auditID: string, userAgent: string | null): AuditEntry {
  const receivedAt = access.clock.now();
  const sourceIPs = sourceIPsOf(request);
  const entry: AuditEntry = {
    auditID,
    receivedAt,
    stageAt: receivedAt,
    requestURI: redactedRequestURI(url),
    info: requestInfoFor(request.method, url.pathname, url.searchParams),
    ...(userAgent ? { userAgent } : {}),
    ...(sourceIPs.length ? { sourceIPs } : {}),
    stage: 'ResponseComplete',
  };
  if (url.pathname !== AUDIT_PATH) access.audit.record(entry);
  return entry;
}

/**
 * Runs the access filters. `asUser` is the identity of the server's own
 * clients (handleAs): authentication is skipped for them.
 * Throws a StatusError (401/403) for the caller to render.
 */
/** Who the server's own client is; `readsAs` may read what `user` may not (a controller's reads go through kube-controller-manager's informers). */
export interface InternalClient {
  readonly user: UserInfo;
  /** The client's User-Agent, which its request may not carry (a browser drops it from a script-built Request). */
  readonly userAgent?: string;
  readonly readsAs?: UserInfo;
}

export async function admit(access: AccessControl, request: Request, url: URL, client: InternalClient | undefined, entry: AuditEntry): Promise<Admission> {
  const asUser = client?.user;
  const { info, requestURI } = entry;
  // Not `access.ready`: the authenticators exist from the start, and the authorizers wait for the
  // store's RBAC objects themselves, where a decision needs them (not for system:masters).

  // Authentication.
  let user: UserInfo | undefined = asUser;
  const headers = request.headers;
  // The host's verified TLS peer, else a chain the request presents in the reserved header (the browser).
  const presented = asUser ? null : headers.get(CLIENT_CERTIFICATE_HEADER);
  const peer = asUser ? undefined : (peerCertificatesOf(request) ?? (presented ? await access.verifyCertificateHeader(presented) : undefined));
  const authnRequest = peer ? { ...authnRequestFromHeaders(headers, url.pathname), ...peer } : authnRequestFromHeaders(headers, url.pathname);
  if (!asUser) {
    const passThrough = !access.config.configured && !headers.has('authorization') && !peer;
    if (!passThrough) {
      const outcome = await access.authenticator().authenticate(authnRequest);
      entry.authentication = {
        ...(outcome.authenticator ? { authenticator: outcome.authenticator } : {}),
        status: outcome.status,
        steps: outcome.steps,
      };
      if (outcome.status !== 'ok' || !outcome.user) {
        auditUnauthenticated(access, entry);
        throw unauthorizedError();
      }
      user = outcome.user;
    }
  }
  if (user) entry.user = user;
  // The audit policy sees the user as authenticated (before impersonation), as kube's audit filter does.
  auditRequestReceived(access, entry, request);

  // Impersonation.
  if (hasImpersonation(headers)) {
    const parsed = impersonationRequests(authnRequest);
    if (parsed.error) return { info, response: internalErrorResponse(requestURI, parsed.error) };
    if (parsed.requests.length > 0) {
      // No user only without any access control (decision 0150): AlwaysAllow answers the impersonate
      // checks as it answers every other one (decision 0302), where kube would say "no user found".
      const requester = user ?? { username: '', groups: [] };
      const authorize = user ? (a: Parameters<typeof access.authorizers.authorize>[0]) => access.authorizers.authorize(a) : async () => UNAUTHENTICATED_ALLOW;
      const result = await impersonate(authnRequest, requester, authorize);
      entry.impersonation = result.checks;
      if (result.error || !result.user) {
        const last = result.checks[result.checks.length - 1];
        if (last) entry.decision = last.decision;
        throw result.error ?? unauthorizedError();
      }
      user = result.user;
      entry.impersonatedUser = user;
    }
  }

  // Authorization.
  let decision: Decision;
  if (!user) decision = UNAUTHENTICATED_ALLOW;
  else if (access.fastAllow) {
    // Fast path: system:masters then AlwaysAllow can only allow; the answer is known without asking.
    decision = access.fastAllow(user);
  } else {
    let attrs = attributesFor(user, info);
    decision = await access.authorizers.authorize(attrs);
    if (decision.decision !== 'Allow' && client?.readsAs && user === client.user && isReadOnly(attrs)) {
      // kube-controller-manager's controllers read through informers running with its own identity.
      const readsAs = client.readsAs;
      const second = await access.authorizers.authorize(attributesFor(readsAs, info));
      if (second.decision === 'Allow') {
        user = readsAs;
        entry.user = readsAs;
        attrs = attributesFor(readsAs, info);
        decision = second;
      }
    }
    if (decision.decision !== 'Allow') {
      entry.decision = decision;
      if (decision.error) return { user, info, response: internalErrorResponse(requestURI, decision.error) };
      throw forbiddenError(attrs, decision.reason);
    }
  }
  entry.decision = decision;
  return user ? { user, info } : { info };
}
