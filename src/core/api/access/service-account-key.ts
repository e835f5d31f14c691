// The key that signs service-account tokens. kube-apiserver reads it from
// --service-account-signing-key-file; without one KubeTab generates an
// RSA-2048 key (RS256), as kubeadm does by default, once, and keeps it in the
// store under a key outside /registry (no API reaches it), so that tokens
// issued before a restart stay valid after it. A key stored by an earlier
// version (ES256) is kept.
// --service-account-key-file adds verification keys (public or private PEM).

import { exportJWK, exportPKCS8, exportSPKI, importJWK, importPKCS8, importSPKI, type CryptoKey, type JWK } from 'jose';
import { generateSigningKey, keyIdOf, keysFor, type ServiceAccountKeys } from '../../auth';
import type { ServiceAccountAlgorithm, SigningKey, VerificationKey } from '../../auth/authn/service-account-keys';
import { KeyExistsError, type MvccStore } from '../../storage/types';
import { StartupError } from './config';

/** Where the generated key is kept (outside /registry: never served, never listed). */
export const SIGNING_KEY_STORE_KEY = '/kubetab/service-account-signing-key';

interface StoredKey {
  alg: ServiceAccountAlgorithm;
  privateKey: string;
  publicKey: string;
}

const CANDIDATE_ALGS: readonly ServiceAccountAlgorithm[] = ['RS256', 'ES256', 'ES384', 'ES512'];

async function toStored(key: SigningKey): Promise<string> {
  const stored: StoredKey = { alg: key.alg, privateKey: await exportPKCS8(key.privateKey), publicKey: await exportSPKI(key.publicKey) };
  return JSON.stringify(stored);
}

async function fromStored(text: string): Promise<SigningKey> {
  const stored = JSON.parse(text) as StoredKey;
  const privateKey = await importPKCS8(stored.privateKey, stored.alg, { extractable: true });
  const publicKey = await importSPKI(stored.publicKey, stored.alg, { extractable: true });
  return { privateKey, publicKey, alg: stored.alg, kid: await keyIdOf(publicKey) };
}

/** The public half of a private key, through its JWK (WebCrypto cannot derive it directly). */
async function publicFromPrivate(privateKey: CryptoKey, alg: ServiceAccountAlgorithm): Promise<CryptoKey> {
  const jwk = (await exportJWK(privateKey)) as JWK;
  const pub: JWK = { ...jwk };
  for (const k of ['d', 'p', 'q', 'dp', 'dq', 'qi']) delete (pub as Record<string, unknown>)[k];
  return (await importJWK(pub, alg, { extractable: true })) as CryptoKey;
}

/** A PEM private key (PKCS#8) with the algorithm its type implies. */
async function importPrivatePem(pem: string): Promise<SigningKey | undefined> {
  if (!/-----BEGIN PRIVATE KEY-----/.test(pem)) return undefined;
  for (const alg of CANDIDATE_ALGS) {
    try {
      const privateKey = await importPKCS8(pem, alg, { extractable: true });
      const publicKey = await publicFromPrivate(privateKey, alg);
      return { privateKey, publicKey, alg, kid: await keyIdOf(publicKey) };
    } catch {
      // Not this algorithm's key type (or curve): try the next.
    }
  }
  return undefined;
}

async function importPublicPem(pem: string): Promise<VerificationKey | undefined> {
  if (!/-----BEGIN PUBLIC KEY-----/.test(pem)) return undefined;
  for (const alg of CANDIDATE_ALGS) {
    try {
      const key = await importSPKI(pem, alg, { extractable: true });
      return { key, alg, kid: await keyIdOf(key) };
    } catch {
      // Next algorithm.
    }
  }
  return undefined;
}

/** Every PEM block of a file, as kube's keyutil.ParsePublicKeysPEM reads several. */
function pemBlocks(text: string): string[] {
  return text.match(/-----BEGIN [A-Z ]+-----[\s\S]*?-----END [A-Z ]+-----/g) ?? [];
}

async function generateOrLoad(store: MvccStore): Promise<SigningKey> {
  const existing = await store.get(SIGNING_KEY_STORE_KEY);
  if (existing) return fromStored(existing.value);
  // kubeadm's default key (ClusterConfiguration encryptionAlgorithm RSA-2048): tokens are RS256, as on a kubeadm cluster.
  const key = await generateSigningKey('RS256');
  const text = await toStored(key);
  try {
    await store.create(SIGNING_KEY_STORE_KEY, () => text);
    return key;
  } catch (err) {
    // Another server on the same store made one first: use that one.
    if (err instanceof KeyExistsError) {
      const kv = await store.get(SIGNING_KEY_STORE_KEY);
      if (kv) return fromStored(kv.value);
    }
    throw err;
  }
}

export async function loadServiceAccountKeys(store: MvccStore, signingKeyPem: string | undefined, verificationPems: readonly string[]): Promise<ServiceAccountKeys> {
  let signing: SigningKey;
  if (signingKeyPem) {
    const imported = await importPrivatePem(signingKeyPem);
    if (!imported) throw new StartupError('failed to parse service-account-issuer-key-file: data does not contain any valid RSA or ECDSA private key in PKCS#8 form');
    signing = imported;
  } else {
    signing = await generateOrLoad(store);
  }
  const extra: VerificationKey[] = [];
  for (const file of verificationPems) {
    for (const block of pemBlocks(file)) {
      const pub = (await importPublicPem(block)) ?? (await importPrivatePem(block).then((k) => (k ? { key: k.publicKey, alg: k.alg, kid: k.kid } : undefined)));
      if (pub && pub.kid !== signing.kid) extra.push(pub);
    }
  }
  return keysFor(signing, extra);
}
