// KubeTab's built-in OpenID Connect issuer, for configuring and teaching OIDC
// with no network: its own RS256 key, a discovery document and JWKS the host
// serves under a path of its own, and a way to mint ID tokens for chosen claims.

import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair, type CryptoKey, type JWTVerifyGetKey } from 'jose';
import { keyIdOf } from './service-account-keys';
import type { Clock } from '../../clock';

export interface TestIssuer {
  readonly url: string;
  /** /.well-known/openid-configuration of the issuer. */
  discoveryDocument(): Record<string, unknown>;
  jwks(): { keys: Record<string, unknown>[] };
  /** The keys, for a JWT authenticator configured with this issuer. */
  readonly keySet: JWTVerifyGetKey;
  /** An ID token for these claims; iss, iat, exp (default 1 h) are filled in unless given. */
  mint(claims: Record<string, unknown>, options?: { expiresInSeconds?: number }): Promise<string>;
}

/**
 * `key`: an RS256 key pair kept by the host, so that tokens minted before a
 * restart stay valid after it (a new key is generated when absent).
 */
export async function createTestIssuer(url: string, clock: Clock, key?: { privateKey: CryptoKey; publicKey: CryptoKey }): Promise<TestIssuer> {
  const { privateKey, publicKey } = key ?? (await generateKeyPair('RS256', { extractable: true }));
  const kid = await keyIdOf(publicKey as CryptoKey);
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const jwks = { keys: [jwk] };
  const keySet = createLocalJWKSet(jwks);
  return {
    url,
    discoveryDocument: () => ({
      issuer: url,
      jwks_uri: `${url.replace(/\/$/, '')}/keys`,
      authorization_endpoint: `${url.replace(/\/$/, '')}/auth`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'email', 'email_verified', 'groups', 'name'],
    }),
    jwks: () => structuredClone(jwks),
    keySet,
    async mint(claims, options = {}) {
      const iat = Math.floor(clock.now() / 1000);
      const payload = { iss: url, iat, exp: iat + (options.expiresInSeconds ?? 3600), ...claims };
      return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(privateKey);
    },
  };
}
