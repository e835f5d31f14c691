// The bootstrap-signer and token-cleaner controllers as pure reconcilers.
//
// Signer: the `cluster-info` ConfigMap in kube-public gets, for every valid,
// unexpired bootstrap token Secret marked usage-bootstrap-signing=true, a key
// `jws-kubeconfig-<token-id>` holding a detached JWS (header..signature) of
// its `kubeconfig` value, HS256 with the token id as `kid`. Signatures of
// tokens that no longer sign are removed.
//
// The HMAC key: the specification (and the bootstrap-token documentation a
// learner follows by hand) keys HS256 with the full token
// `<token-id>.<token-secret>`, which KubeTab does by default (decision 0301).
// kube's own signer and kubeadm key it with the token secret alone;
// `key: 'secret'` gives that form.
//
// Cleaner: expired bootstrap token Secrets are deleted (with their UID as a
// precondition); the next expiry tells when to look again.

import { CompactSign } from 'jose';
import { BOOTSTRAP_TOKEN_SECRET_TYPE } from '../authn/bootstrap-token';
import { tokenExpiration } from './expiration';
import { secretString } from '../authn/secret-data';
import type { KubeObject } from '../../kinds/types';

export const CLUSTER_INFO_NAMESPACE = 'kube-public';
export const CLUSTER_INFO_NAME = 'cluster-info';
export const JWS_PREFIX = 'jws-kubeconfig-';
const SECRET_NAME_PREFIX = 'bootstrap-token-';

export type SigningKeyForm = 'secret' | 'full-token';

const meta = (o: KubeObject): { name?: string; namespace?: string; uid?: string } => (o.metadata ?? {}) as { name?: string; namespace?: string; uid?: string };

/** validateSecretForSigning: the token id and secret of a Secret that may sign now. */
export function signingToken(secret: KubeObject, now: number): { tokenId: string; tokenSecret: string } | undefined {
  if (secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE) return undefined;
  const name = meta(secret).name ?? '';
  if (!name.startsWith(SECRET_NAME_PREFIX)) return undefined;
  const tokenId = secretString(secret, 'token-id');
  if (!tokenId || name.slice(SECRET_NAME_PREFIX.length) !== tokenId) return undefined;
  const tokenSecret = secretString(secret, 'token-secret');
  if (!tokenSecret) return undefined;
  if (tokenExpiration(secret, now).expired) return undefined;
  if (secretString(secret, 'usage-bootstrap-signing') !== 'true') return undefined;
  return { tokenId, tokenSecret };
}

/** jws.ComputeDetachedSignature: a compact HS256 JWS with the payload left out. */
export async function computeDetachedSignature(content: string, tokenId: string, tokenSecret: string, key: SigningKeyForm = 'full-token'): Promise<string> {
  const secret = new TextEncoder().encode(key === 'secret' ? tokenSecret : `${tokenId}.${tokenSecret}`);
  const jws = await new CompactSign(new TextEncoder().encode(content)).setProtectedHeader({ alg: 'HS256', kid: tokenId }).sign(secret);
  const [header, , signature] = jws.split('.');
  return `${header}..${signature}`;
}

/** The data cluster-info should have, or undefined when it needs no update. */
export async function signClusterInfo(
  configMap: KubeObject | undefined,
  secrets: readonly KubeObject[],
  now: number,
  key: SigningKeyForm = 'full-token',
): Promise<Record<string, string> | undefined> {
  if (!configMap) return undefined;
  const data = { ...((configMap.data ?? {}) as Record<string, string>) };
  const content = data.kubeconfig;
  if (content === undefined) return undefined;
  const old = new Map<string, string>();
  for (const k of Object.keys(data)) {
    if (k.startsWith(JWS_PREFIX)) {
      old.set(k.slice(JWS_PREFIX.length), data[k]!);
      delete data[k];
    }
  }
  let changed = false;
  const seen = new Set<string>();
  for (const s of secrets) {
    if (meta(s).namespace && meta(s).namespace !== 'kube-system') continue;
    const t = signingToken(s, now);
    if (!t || seen.has(t.tokenId)) continue;
    seen.add(t.tokenId);
    const sig = await computeDetachedSignature(content, t.tokenId, t.tokenSecret, key);
    if (old.get(t.tokenId) !== sig) changed = true;
    old.delete(t.tokenId);
    data[`${JWS_PREFIX}${t.tokenId}`] = sig;
  }
  if (old.size) changed = true;
  return changed ? data : undefined;
}

/** The token cleaner's pass: Secrets to delete now, and when the next one expires. */
export function tokenCleanerPlan(secrets: readonly KubeObject[], now: number): { delete: { name: string; uid: string }[]; nextCheckAt?: number } {
  const del: { name: string; uid: string }[] = [];
  let next: number | undefined;
  for (const s of secrets) {
    if (s.type !== BOOTSTRAP_TOKEN_SECRET_TYPE) continue;
    if (meta(s).namespace && meta(s).namespace !== 'kube-system') continue;
    const { expired, at } = tokenExpiration(s, now);
    if (expired) {
      del.push({ name: meta(s).name ?? '', uid: meta(s).uid ?? '' });
      continue;
    }
    if (at !== undefined && (next === undefined || at < next)) next = at;
  }
  return next === undefined ? { delete: del } : { delete: del, nextCheckAt: next };
}
