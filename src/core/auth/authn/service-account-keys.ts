// The keys that sign and verify service-account tokens. Generated in the
// server (WebCrypto through jose) or imported from PEM (--service-account-key-file
// / --service-account-signing-key-file). Each key carries the one algorithm it
// is used with: verification names it explicitly, so a token can never pick
// its own algorithm (no "none", no HMAC keyed with a public key).

import { exportJWK, exportSPKI, generateKeyPair, importPKCS8, importSPKI, type CryptoKey } from 'jose';

export type ServiceAccountAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export interface SigningKey {
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  readonly alg: ServiceAccountAlgorithm;
  readonly kid: string;
}

export interface VerificationKey {
  readonly key: CryptoKey;
  readonly alg: ServiceAccountAlgorithm;
  readonly kid: string;
}

export interface ServiceAccountKeys {
  readonly signing?: SigningKey;
  readonly verification: readonly VerificationKey[];
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function pemToDer(pem: string): Uint8Array {
  const body = pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, '');
  const binary = atob(body);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** kube's key id: base64url(SHA-256(DER of the PKIX public key)), no padding. */
export async function keyIdOf(publicKey: CryptoKey): Promise<string> {
  const der = pemToDer(await exportSPKI(publicKey));
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', der.slice().buffer as ArrayBuffer)));
}

export async function generateSigningKey(alg: ServiceAccountAlgorithm = 'ES256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, publicKey, alg, kid: await keyIdOf(publicKey) };
}

export async function importSigningKey(pkcs8Pem: string, spkiPem: string, alg: ServiceAccountAlgorithm): Promise<SigningKey> {
  const privateKey = await importPKCS8(pkcs8Pem, alg);
  const publicKey = await importSPKI(spkiPem, alg, { extractable: true });
  return { privateKey, publicKey, alg, kid: await keyIdOf(publicKey) };
}

export async function importVerificationKey(spkiPem: string, alg: ServiceAccountAlgorithm): Promise<VerificationKey> {
  const key = await importSPKI(spkiPem, alg, { extractable: true });
  return { key, alg, kid: await keyIdOf(key) };
}

export function keysFor(signing: SigningKey, extra: readonly VerificationKey[] = []): ServiceAccountKeys {
  return { signing, verification: [{ key: signing.publicKey, alg: signing.alg, kid: signing.kid }, ...extra] };
}

/** The JWKS served at /openid/v1/jwks (ServiceAccountIssuerDiscovery). */
export async function publicJwks(keys: ServiceAccountKeys): Promise<{ keys: Record<string, unknown>[] }> {
  const out: Record<string, unknown>[] = [];
  for (const k of keys.verification) {
    const jwk = await exportJWK(k.key);
    out.push({ use: 'sig', kty: jwk.kty, kid: k.kid, alg: k.alg, ...jwk });
  }
  return { keys: out };
}
