// The token webhook authenticator (--authentication-token-webhook-*): the
// bearer token is sent in a TokenReview (v1beta1 by default, or v1); the
// answer's status decides: authenticated → the user in status.user;
// not authenticated → refused with status.error, or not recognised when there
// is none. With requested audiences, the answer's audiences (or the API
// server's when it gives none) must intersect them. Answers are cached for
// --authentication-token-webhook-cache-ttl (2m) under a SHA-256 of the token,
// never the token itself.

import type { Clock } from '../../clock';
import type { AuthnResult, TokenAuthenticator } from '../types';

export interface TokenWebhookDeps {
  send(review: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
  readonly clock: Clock;
  readonly version?: 'v1' | 'v1beta1';
  readonly cacheTtlMs?: number;
  readonly timeoutMs?: number;
  /** The API server's audiences. */
  readonly implicitAudiences?: readonly string[];
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text).slice().buffer as ArrayBuffer));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export function createTokenWebhookAuthenticator(deps: TokenWebhookDeps): TokenAuthenticator {
  const ttl = deps.cacheTtlMs ?? 120_000;
  const cache = new Map<string, { result: AuthnResult; expires: number }>();
  const version = deps.version ?? 'v1beta1';
  return {
    name: 'webhook',
    async authenticateToken(token, audiences) {
      const key = await sha256Hex(`${token}\u0000${(audiences ?? []).join('\u0000')}`);
      const now = deps.clock.now();
      const hit = cache.get(key);
      if (hit && hit.expires > now) return hit.result;
      const review = {
        apiVersion: `authentication.k8s.io/${version}`,
        kind: 'TokenReview',
        spec: { token, ...(audiences?.length ? { audiences: [...audiences] } : {}) },
      };
      const controller = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      let body: unknown;
      try {
        body = await Promise.race([
          deps.send(review, controller.signal),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              controller.abort(new Error('timeout'));
              reject(new Error('token webhook did not answer in time'));
            }, deps.timeoutMs ?? 30_000);
          }),
        ]);
      } catch (err) {
        // Not cached: the next request asks again.
        return { status: 'error', authenticator: 'webhook', error: `Failed to make webhook authenticator request: ${err instanceof Error ? err.message : String(err)}` };
      } finally {
        clearTimeout(timer);
      }
      const status = ((body ?? {}) as { status?: { authenticated?: boolean; error?: string; audiences?: string[]; user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> } } }).status ?? {};
      let result: AuthnResult;
      let auds: string[] | undefined;
      if (audiences?.length) {
        const got = status.audiences?.length ? status.audiences : (deps.implicitAudiences ?? []);
        auds = audiences.filter((a) => got.includes(a));
      }
      if (auds && auds.length === 0) result = { status: 'none' };
      else if (!status.authenticated) result = status.error ? { status: 'error', authenticator: 'webhook', error: status.error } : { status: 'none' };
      else {
        const u = status.user ?? {};
        result = {
          status: 'ok',
          authenticator: 'webhook',
          user: { username: u.username ?? '', groups: [...(u.groups ?? [])], ...(u.uid ? { uid: u.uid } : {}), ...(u.extra ? { extra: u.extra } : {}) },
          ...(auds ? { audiences: auds } : {}),
        };
      }
      cache.set(key, { result, expires: now + ttl });
      return result;
    },
  };
}
