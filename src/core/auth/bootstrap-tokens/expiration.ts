// A bootstrap token Secret's `expiration`, read as kube's bootstrap secret
// utilities read it (GetExpiration): no value never expires; a value that is
// not RFC 3339 counts as already expired; otherwise the token is expired once
// the time left is zero or less.

import { secretString } from '../authn/secret-data';
import type { KubeObject } from '../../kinds/types';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export interface TokenExpiration {
  /** True when the token has expired (or its expiration cannot be read). */
  readonly expired: boolean;
  /** When it expires, for a token that has not yet (absent when it never does). */
  readonly at?: number;
}

export function tokenExpiration(secret: KubeObject, now: number): TokenExpiration {
  const text = secretString(secret, 'expiration');
  if (!text) return { expired: false };
  const at = RFC3339.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return { expired: true };
  return at - now <= 0 ? { expired: true } : { expired: false, at };
}
