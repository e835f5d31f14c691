// The built-in OpenID Connect test issuer (src/core/auth/authn/test-issuer),
// served by the API server under a path of its own, /kubetab/v1/oidc — not a
// Kubernetes API, KubeTab's teaching aid for OIDC with no network:
//
//   GET  /kubetab/v1/oidc/.well-known/openid-configuration   discovery document
//   GET  /kubetab/v1/oidc/keys                               JWKS
//   POST /kubetab/v1/oidc/token  {"claims": {…}, "expiresInSeconds": 3600}
//        → {"id_token": "…", "token_type": "Bearer", "expires_in": 3600}
//
// Its issuer URL is the API server's in-cluster address plus that path, as
// the service-account issuer is the in-cluster address itself. A JWT
// authenticator configured with this URL (and no discoveryURL) verifies with
// the issuer's keys directly, since the server cannot fetch from itself.
// The paths are non-resource URLs: RBAC decides who may read them and who may
// mint (`post` on /kubetab/v1/oidc/token; system:masters can).
//
// The key is generated once and kept in the store outside /registry, so that
// tokens minted before a restart stay valid after it.

import { exportPKCS8, exportSPKI, generateKeyPair, importPKCS8, importSPKI, type JWTVerifyGetKey } from 'jose';
import { createTestIssuer, type TestIssuer } from '../../auth';
import type { Clock } from '../../clock';
import { errors } from '../../errors/status';
import { KeyExistsError, type MvccStore } from '../../storage/types';
import { readBody } from '../body';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from './config';

export const TEST_ISSUER_PATH = '/kubetab/v1/oidc';
/** The `iss` of the tokens the test issuer mints (https, as kube requires of issuer URLs). */
export const TEST_ISSUER_URL = `${DEFAULT_SERVICE_ACCOUNT_ISSUER}${TEST_ISSUER_PATH}`;
/** Where the issuer's key is kept (outside /registry: never served, never listed). */
export const TEST_ISSUER_KEY_STORE_KEY = '/kubetab/test-issuer-key';

const DEFAULT_EXPIRY_SECONDS = 3600;
/** One day at most: a test token should not outlive the lesson by much. */
const MAX_EXPIRY_SECONDS = 86_400;

interface StoredKey {
  privateKey: string;
  publicKey: string;
}

async function readStoredKey(store: MvccStore): Promise<StoredKey | undefined> {
  const existing = await store.get(TEST_ISSUER_KEY_STORE_KEY);
  return existing ? (JSON.parse(existing.value) as StoredKey) : undefined;
}

/** The test issuer of this store: its key is read from the store, or generated and kept there. */
export async function loadTestIssuer(store: MvccStore, clock: Clock): Promise<TestIssuer> {
  const stored = await readStoredKey(store);
  if (stored) {
    const key = { privateKey: await importPKCS8(stored.privateKey, 'RS256', { extractable: true }), publicKey: await importSPKI(stored.publicKey, 'RS256', { extractable: true }) };
    return createTestIssuer(TEST_ISSUER_URL, clock, key);
  }
  const pair = await generateKeyPair('RS256', { extractable: true });
  const text = JSON.stringify({ privateKey: await exportPKCS8(pair.privateKey), publicKey: await exportSPKI(pair.publicKey) } satisfies StoredKey);
  try {
    await store.create(TEST_ISSUER_KEY_STORE_KEY, () => text);
  } catch (err) {
    // Another server on the same store made one first: use that one.
    if (err instanceof KeyExistsError) return loadTestIssuer(store, clock);
    throw err;
  }
  return createTestIssuer(TEST_ISSUER_URL, clock, pair);
}

/** Key lookup for a JWT authenticator of the test issuer, once the issuer is loaded. */
export function testIssuerKeys(issuer: () => Promise<TestIssuer>): JWTVerifyGetKey {
  return async (header, token) => (await issuer()).keySet(header, token);
}

function json(body: unknown, method: string): Response {
  return new Response(method === 'HEAD' ? null : JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

/** True for the paths this endpoint answers. */
export function isTestIssuerPath(path: string): boolean {
  return path === TEST_ISSUER_PATH || path.startsWith(`${TEST_ISSUER_PATH}/`);
}

export async function handleTestIssuer(issuer: TestIssuer, method: string, path: string, request: Request): Promise<Response> {
  const rest = path.slice(TEST_ISSUER_PATH.length);
  if (rest === '/.well-known/openid-configuration' || rest === '/keys') {
    if (method !== 'GET' && method !== 'HEAD') throw errors.methodNotAllowedOnPath();
    return json(rest === '/keys' ? issuer.jwks() : issuer.discoveryDocument(), method);
  }
  if (rest !== '/token') throw errors.pathNotFound();
  if (method !== 'POST') throw errors.methodNotAllowedOnPath();
  let body: unknown;
  try {
    body = JSON.parse(await readBody(request));
  } catch {
    throw errors.badRequest('the body must be a JSON object: {"claims": {...}, "expiresInSeconds": 3600}');
  }
  const { claims, expiresInSeconds } = (body ?? {}) as { claims?: unknown; expiresInSeconds?: unknown };
  if (!claims || typeof claims !== 'object' || Array.isArray(claims)) throw errors.badRequest('claims must be a JSON object');
  const expiry = expiresInSeconds === undefined ? DEFAULT_EXPIRY_SECONDS : expiresInSeconds;
  if (typeof expiry !== 'number' || !Number.isInteger(expiry) || expiry < 1 || expiry > MAX_EXPIRY_SECONDS) {
    throw errors.badRequest(`expiresInSeconds must be an integer from 1 to ${MAX_EXPIRY_SECONDS}`);
  }
  const token = await issuer.mint(claims as Record<string, unknown>, { expiresInSeconds: expiry });
  return json({ id_token: token, token_type: 'Bearer', expires_in: expiry }, method);
}
