// Bootstrap tokens (--enable-bootstrap-token-auth): a bearer token
// `<token-id>.<token-secret>` ([a-z0-9]{6}\.[a-z0-9]{16}) is checked against the
// Secret `bootstrap-token-<token-id>` of type bootstrap.kubernetes.io/token in
// kube-system: the secret compared in constant time, the token-id equal, not
// expired (an unparsable expiration counts as expired), usage-bootstrap-
// authentication "true", every auth-extra-groups entry matching
// ^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$. The user is
// system:bootstrap:<token-id> in system:bootstrappers plus the extra groups,
// sorted and de-duplicated. A token of another shape is not this
// authenticator's; a failing one of this shape is refused.

import { constantTimeEqual } from './constant-time';
import { secretBytes, secretString } from './secret-data';
import type { Clock } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { GROUP, type AuthnResult, type TokenAuthenticator } from '../types';

export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
export const BOOTSTRAP_TOKEN_PATTERN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
export const BOOTSTRAP_GROUP_PATTERN = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export interface BootstrapTokenDeps {
  /** Reads a Secret from kube-system (undefined when absent). */
  getSecret(namespace: string, name: string): KubeObject | undefined | Promise<KubeObject | undefined>;
  readonly clock: Clock;
}

/** Unparsable expirations are treated as expired, as kube does. */
export function isBootstrapSecretExpired(secret: KubeObject, now: number): boolean {
  const expiration = secretString(secret, 'expiration');
  if (!expiration) return false;
  if (!RFC3339.test(expiration)) return true;
  const at = Date.parse(expiration);
  return Number.isNaN(at) || now > at;
}

export function bootstrapGroups(secret: KubeObject): { groups?: string[]; error?: string } {
  const groups = new Set<string>([GROUP.bootstrappers]);
  const extra = secretString(secret, 'auth-extra-groups');
  if (extra) {
    for (const group of extra.split(',')) {
      if (!BOOTSTRAP_GROUP_PATTERN.test(group)) {
        return { error: `bootstrap group ${JSON.stringify(group)} is invalid (must match ${BOOTSTRAP_GROUP_PATTERN.source})` };
      }
      groups.add(group);
    }
  }
  return { groups: [...groups].sort() };
}

export function createBootstrapTokenAuthenticator(deps: BootstrapTokenDeps): TokenAuthenticator {
  const refuse = (error: string): AuthnResult => ({ status: 'error', authenticator: 'bootstrap-token', error });
  return {
    name: 'bootstrap-token',
    async authenticateToken(token) {
      const m = BOOTSTRAP_TOKEN_PATTERN.exec(token);
      if (!m) return { status: 'none' };
      const [, tokenId, tokenSecret] = m as unknown as [string, string, string];
      const secretName = `bootstrap-token-${tokenId}`;
      const secret = await deps.getSecret('kube-system', secretName);
      if (!secret) return refuse(`no secret ${secretName} in kube-system`);
      if ((secret.metadata as { deletionTimestamp?: string } | undefined)?.deletionTimestamp) return refuse(`secret ${secretName} is being deleted`);
      if (secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || !secret.data) return refuse(`secret ${secretName} is not a bootstrap token`);
      const stored = secretBytes(secret, 'token-secret') ?? new Uint8Array();
      if (!constantTimeEqual(stored, tokenSecret)) return refuse(`the token secret does not match secret ${secretName}`);
      if (secretString(secret, 'token-id') !== tokenId) return refuse(`token-id of secret ${secretName} does not match`);
      if (isBootstrapSecretExpired(secret, deps.clock.now())) return refuse(`bootstrap token ${tokenId} has expired`);
      if (secretString(secret, 'usage-bootstrap-authentication') !== 'true') return refuse(`bootstrap token ${tokenId} is not marked for authentication`);
      const { groups, error } = bootstrapGroups(secret);
      if (!groups) return refuse(error!);
      return { status: 'ok', authenticator: 'bootstrap-token', user: { username: `system:bootstrap:${tokenId}`, groups } };
    },
  };
}
