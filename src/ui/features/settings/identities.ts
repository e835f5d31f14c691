// Where identities come from, each the way a real cluster hands them out:
// static token users of the configuration (--token-auth-file), service
// accounts with a token from the TokenRequest API (kubectl create token), an
// OIDC user with an ID token from the built-in test issuer, and anonymous
// (no credentials at all).

import type { ClusterConfiguration } from '../../../platform/browser/cluster-config';
import { TEST_ISSUER_AUDIENCE } from '../../../platform/browser/cluster-config';
import { administratorIdentity } from '../../lib/api/administrator';
import { ApiError, apiJson } from '../../lib/api/client';
import { ADMIN_IDENTITY, type Identity } from '../../lib/api/identity';
import { useAppStore } from '../../lib/store';

const JSON_BODY = { 'content-type': 'application/json' };

export const ANONYMOUS_IDENTITY: Identity = { id: 'anonymous', label: 'anonymous', kind: 'anonymous' };

export function staticTokenIdentity(user: string, token: string): Identity {
  return { id: `token:${user}`, label: user, kind: 'token', token };
}

/**
 * A token for a service account through TokenRequest, as the administrator
 * (POST …/serviceaccounts/<name>/token). Creates the account first when asked
 * and it does not exist.
 */
export async function serviceAccountIdentity(namespace: string, name: string, expirationSeconds: number, create: boolean): Promise<Identity> {
  const identity = administratorIdentity();
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/serviceaccounts`;
  if (create) {
    try {
      await apiJson(path, { method: 'POST', identity, headers: JSON_BODY, body: JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } }) });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
    }
  }
  const review = await apiJson<{ status: { token: string; expirationTimestamp: string } }>(`${path}/${encodeURIComponent(name)}/token`, {
    method: 'POST',
    identity,
    headers: JSON_BODY,
    body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds } }),
  });
  const username = `system:serviceaccount:${namespace}:${name}`;
  return { id: `sa:${namespace}:${name}`, label: username, kind: 'service-account', token: review.status.token, expiresAt: review.status.expirationTimestamp };
}

/** An ID token from the built-in test issuer (POST /kubetab/v1/oidc/token, as the administrator). */
export async function oidcIdentity(subject: string, groups: readonly string[], expiresInSeconds: number): Promise<Identity> {
  const answer = await apiJson<{ id_token: string; expires_in: number }>('/kubetab/v1/oidc/token', {
    method: 'POST',
    identity: administratorIdentity(),
    headers: JSON_BODY,
    body: JSON.stringify({ claims: { sub: subject, aud: TEST_ISSUER_AUDIENCE, ...(groups.length ? { groups } : {}) }, expiresInSeconds }),
  });
  const payload = JSON.parse(atob(answer.id_token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp: number };
  return { id: `oidc:${subject}`, label: `oidc:${subject}`, kind: 'oidc', token: answer.id_token, expiresAt: new Date(payload.exp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') };
}

/**
 * After the configuration changed: static token identities follow the
 * document (new tokens, users removed), the administrator is the document's.
 */
export function followConfiguration(document: ClusterConfiguration): void {
  const store = useAppStore.getState();
  const tokens = new Map((document.tokens ?? []).map((t) => [t.user, t.token]));
  for (const identity of store.identities) {
    if (identity.kind !== 'token') continue;
    const user = identity.id.slice('token:'.length);
    const token = tokens.get(user);
    if (token === undefined) store.removeIdentity(identity.id);
    else if (token !== identity.token) store.upsertIdentity({ ...identity, token });
  }
}

/** After a reset or import: keys changed, so issued tokens (service accounts, OIDC) are gone with them. */
export function forgetIssuedTokens(): void {
  const store = useAppStore.getState();
  for (const identity of store.identities) if (identity.kind === 'service-account' || identity.kind === 'oidc') store.removeIdentity(identity.id);
}

export { ADMIN_IDENTITY };
