// Who the page speaks as. Every request the app sends carries the headers of
// the current identity (see client.ts); the identities themselves live in the
// store's identity slice so that the settings view can add service accounts,
// static-token users, OIDC users and anonymous later.

export type IdentityKind = 'admin' | 'token' | 'service-account' | 'oidc' | 'anonymous';

export interface Identity {
  /** Stable key (also what the header's picker selects). */
  readonly id: string;
  /** Shown in the header, e.g. "admin" or "system:serviceaccount:default:bot". */
  readonly label: string;
  readonly kind: IdentityKind;
  /** Sent as `Authorization: Bearer <token>` when present. */
  readonly token?: string;
  /** Any further headers this identity needs on each request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** When the token stops being valid (RFC 3339), for tokens that expire (TokenRequest, OIDC). */
  readonly expiresAt?: string;
}

/**
 * The built-in administrator. Its token comes from the cluster's configuration
 * (the worker's, see lib/api/administrator.ts); in the open set-up it has none.
 */
export const ADMIN_IDENTITY: Identity = { id: 'admin', label: 'admin', kind: 'admin' };

/** The headers a request sent as `identity` carries. Anonymous sends nothing. */
export function identityHeaders(identity: Identity | null | undefined): Record<string, string> {
  if (!identity || identity.kind === 'anonymous') return {};
  const headers: Record<string, string> = { ...(identity.headers ?? {}) };
  if (identity.token) headers.authorization = `Bearer ${identity.token}`;
  return headers;
}
