// TokenReview (authentication.k8s.io v1 and v1beta1), created by POST and
// never stored: the token is authenticated as a bearer token would be, for
// spec.audiences (or the API server's audiences), and status carries the
// answer. The token is never echoed into status or errors.

import { errors } from '../../errors/status';
import type { AuthenticationOutcome } from '../authn/request-authenticator';
import type { KubeObject } from '../../kinds/types';

export interface TokenReviewDeps {
  /** Authenticates a bare bearer token for the given audiences. */
  authenticateToken(token: string, audiences: readonly string[] | undefined): Promise<AuthenticationOutcome>;
  /** --api-audiences. */
  readonly apiAudiences: readonly string[];
}

export async function createTokenReview(body: KubeObject, requestNamespace: string, deps: TokenReviewDeps): Promise<KubeObject> {
  if (requestNamespace) throw errors.badRequest(`namespace is not allowed on this type: ${requestNamespace}`);
  const spec = (body.spec ?? {}) as { token?: string; audiences?: string[] };
  if (!spec.token) throw errors.badRequest('token is required for TokenReview in authentication');
  const audiences = spec.audiences?.length ? spec.audiences : deps.apiAudiences;
  const outcome = await deps.authenticateToken(spec.token, audiences.length ? audiences : undefined);
  const status: Record<string, unknown> = {};
  if (outcome.status === 'ok') status.authenticated = true;
  const user: Record<string, unknown> = {};
  if (outcome.status === 'ok' && outcome.user) {
    if (audiences.length && !(outcome.audiences ?? []).some((a) => audiences.includes(a))) {
      throw errors.internal(new Error('error validating audiences'));
    }
    const u = outcome.user;
    if (u.username) user.username = u.username;
    if (u.uid) user.uid = u.uid;
    if (u.groups.length) user.groups = [...u.groups];
    if (u.extra && Object.keys(u.extra).length) user.extra = Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, [...v]]));
  }
  status.user = user;
  if (outcome.status === 'ok' && outcome.audiences?.length) status.audiences = [...outcome.audiences];
  if (outcome.status === 'error') status.error = outcome.error ?? 'invalid bearer token';
  const metadata = { ...((body.metadata as Record<string, unknown>) ?? {}), creationTimestamp: null };
  return { ...body, metadata, spec: { ...spec }, status };
}
