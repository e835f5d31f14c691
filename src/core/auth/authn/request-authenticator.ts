// The authentication chain of a request (kube-apiserver's authenticator
// config): request authenticators (client certificate, request header) and
// the bearer token — tried in order, the first that accepts deciding —
// then system:authenticated added to the user, then anonymous when nothing
// recognised the request and nothing failed. A presented bearer token nobody
// accepts is an error ("invalid bearer token"), never anonymous. Every failure
// becomes kube's 401 Status "Unauthorized"; the token itself is never kept.

import { errors, type StatusError } from '../../errors/status';
import { GROUP, USER, type AuthnRequest, type AuthnResult, type RequestAuthenticator, type TokenAuthenticator, type UserInfo } from '../types';

export interface AnonymousConfig {
  readonly enabled: boolean;
  /** AuthenticationConfiguration anonymous.conditions[].path: anonymous only for these paths. */
  readonly paths?: readonly string[];
}

export interface RequestAuthenticatorConfig {
  /** Client certificate, request-header proxy, … (tried first, as kube-apiserver orders them). */
  readonly requestAuthenticators?: readonly RequestAuthenticator[];
  /** Token file, service accounts, bootstrap tokens, OIDC/JWT, webhook — in this order. */
  readonly tokenAuthenticators?: readonly TokenAuthenticator[];
  readonly anonymous?: AnonymousConfig;
}

/** authentication.Authenticate's answer, with the steps taken (for traces and audit). */
export interface AuthenticationOutcome extends AuthnResult {
  readonly steps: { authenticator: string; status: AuthnResult['status']; error?: string }[];
}

/** The bearer token of an Authorization header, or undefined (bearertoken.Authenticator rules). */
export function bearerToken(authorization: string | null): string | undefined {
  const auth = (authorization ?? '').trim();
  if (!auth) return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  const token = parts[1]!;
  return token ? token : undefined;
}

/** group.AuthenticatedGroupAdder: every authenticated user is in system:authenticated. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === USER.anonymous) return user;
  if (user.groups.includes(GROUP.authenticated) || user.groups.includes(GROUP.unauthenticated)) return user;
  return { ...user, groups: [...user.groups, GROUP.authenticated] };
}

export function anonymousUser(): UserInfo {
  return { username: USER.anonymous, groups: [GROUP.unauthenticated] };
}

export interface RequestAuthenticatorChain {
  authenticate(req: AuthnRequest, audiences?: readonly string[]): Promise<AuthenticationOutcome>;
  /** Authenticates a bare token (TokenReview): no anonymous, no request authenticators. */
  authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthenticationOutcome>;
}

export function createRequestAuthenticatorChain(config: RequestAuthenticatorConfig): RequestAuthenticatorChain {
  const requestAuthenticators = config.requestAuthenticators ?? [];
  const tokenAuthenticators = config.tokenAuthenticators ?? [];

  async function tokenChain(token: string, audiences: readonly string[] | undefined, steps: AuthenticationOutcome['steps']): Promise<AuthnResult> {
    const errs: string[] = [];
    for (const a of tokenAuthenticators) {
      let r: AuthnResult;
      try {
        r = await a.authenticateToken(token, audiences);
      } catch (err) {
        r = { status: 'error', error: err instanceof Error ? err.message : String(err) };
      }
      steps.push({ authenticator: a.name, status: r.status, ...(r.error ? { error: r.error } : {}) });
      if (r.status === 'ok') return { ...r, authenticator: r.authenticator ?? a.name };
      if (r.status === 'error' && r.error) errs.push(r.error);
    }
    if (errs.length) return { status: 'error', error: errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]` };
    return { status: 'none' };
  }

  return {
    async authenticate(req, audiences) {
      const steps: AuthenticationOutcome['steps'] = [];
      const errs: string[] = [];
      for (const a of requestAuthenticators) {
        const r = await a.authenticateRequest(req);
        steps.push({ authenticator: a.name, status: r.status, ...(r.error ? { error: r.error } : {}) });
        if (r.status === 'ok' && r.user) return { ...r, user: withAuthenticatedGroup(r.user), authenticator: r.authenticator ?? a.name, steps };
        if (r.status === 'error' && r.error) errs.push(r.error);
      }
      const token = bearerToken(req.header('authorization'));
      if (token !== undefined) {
        const r = await tokenChain(token, audiences, steps);
        if (r.status === 'ok' && r.user) return { ...r, user: withAuthenticatedGroup(r.user), steps };
        errs.push(r.status === 'error' && r.error ? r.error : 'invalid bearer token');
      }
      if (errs.length) return { status: 'error', error: errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`, steps };
      const anon = config.anonymous;
      if (anon?.enabled) {
        if (!anon.paths || anon.paths.includes(req.path)) {
          steps.push({ authenticator: 'anonymous', status: 'ok' });
          return { status: 'ok', user: anonymousUser(), authenticator: 'anonymous', steps };
        }
        steps.push({ authenticator: 'anonymous', status: 'none', error: `anonymous is not allowed for path ${JSON.stringify(req.path)}` });
      }
      return { status: 'none', steps };
    },
    async authenticateToken(token, audiences) {
      const steps: AuthenticationOutcome['steps'] = [];
      const r = await tokenChain(token, audiences, steps);
      if (r.status === 'ok' && r.user) return { ...r, user: withAuthenticatedGroup(r.user), steps };
      // As for a request: a token nobody recognises is an invalid bearer token.
      return { status: 'error', error: r.status === 'error' && r.error ? r.error : 'invalid bearer token', steps };
    },
  };
}

/** The 401 for any request that is not authenticated. */
export function unauthorizedError(): StatusError {
  return errors.unauthorized('Unauthorized');
}

/** An AuthnRequest over Fetch Headers. */
export function authnRequestFromHeaders(headers: Headers, path: string): AuthnRequest {
  return {
    path,
    header: (name) => headers.get(name),
    headerNames: () => {
      const names: string[] = [];
      headers.forEach((_v, k) => names.push(k.toLowerCase()));
      return names;
    },
    headerValues: (name) => {
      const v = headers.get(name);
      // Fetch joins repeated headers with ", "; Impersonate-Group values never contain ", " in practice.
      return v === null ? [] : v.split(/,\s*/);
    },
  };
}
