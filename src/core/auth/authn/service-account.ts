// Service-account tokens: issuing (TokenRequest and legacy Secret tokens) and
// authenticating them, as kube-apiserver does.
//
// Authentication (serviceaccount.JWTTokenAuthenticator + validators):
// - a token whose unverified `iss` is not one of ours is not this
//   authenticator's (the next one is tried);
// - the signature is checked with our keys only, each with its own algorithm;
// - exp, nbf and iat are checked with kube's 60 s leeway;
// - audiences: a bound token must share an audience with the ones the request
//   targets (the API server's audiences by default); legacy tokens (no aud)
//   count as the API server's;
// - with lookup (--service-account-lookup, default on) the service account
//   must exist with the token's UID and not be deleted, and the bound Secret,
//   Pod or Node must exist with the bound UID; a legacy token must still be the
//   one stored in its Secret.
// The user is system:serviceaccount:<ns>:<name> in system:serviceaccounts and
// system:serviceaccounts:<ns>; bound tokens add pod/node names and uids and the
// credential id (JTI) to extra. Error texts never contain the token.

import { SignJWT, decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { constantTimeEqual } from './constant-time';
import { secretBytes } from './secret-data';
import type { ServiceAccountKeys, VerificationKey } from './service-account-keys';
import type { Clock } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { GROUP, type AuthnResult, type TokenAuthenticator, type UserInfo } from '../types';

export const LEGACY_ISSUER = 'kubernetes/serviceaccount';
/** go-jose's DefaultLeeway, used by kube for exp, nbf, iat and deletion grace. */
export const LEEWAY_SECONDS = 60;

export const EXTRA = {
  podName: 'authentication.kubernetes.io/pod-name',
  podUid: 'authentication.kubernetes.io/pod-uid',
  nodeName: 'authentication.kubernetes.io/node-name',
  nodeUid: 'authentication.kubernetes.io/node-uid',
  credentialId: 'authentication.kubernetes.io/credential-id',
} as const;

export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** serviceaccount.SplitUsername. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  const prefix = 'system:serviceaccount:';
  if (!username.startsWith(prefix)) return undefined;
  const parts = username.slice(prefix.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

export function serviceAccountGroups(namespace: string): string[] {
  return [GROUP.serviceAccounts, `${GROUP.serviceAccounts}:${namespace}`];
}

interface ObjectRef {
  name: string;
  uid: string;
}

interface KubernetesClaims {
  namespace?: string;
  serviceaccount?: ObjectRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
  warnafter?: number;
}

// ---------------------------------------------------------------------------
// Issuing
// ---------------------------------------------------------------------------

export interface IssueOptions {
  readonly issuer: string;
  readonly keys: ServiceAccountKeys;
  readonly clock: Clock;
  readonly namespace: string;
  readonly serviceAccount: ObjectRef;
  readonly audiences: readonly string[];
  readonly expirationSeconds: number;
  readonly boundObject?: { kind: 'Pod' | 'Secret' | 'Node'; name: string; uid: string };
  /** The node of a pod-bound token (ServiceAccountTokenPodNodeInfo). */
  readonly node?: ObjectRef;
  /** For tests: a fixed JTI. */
  readonly jti?: string;
  /** Extended pod-bound tokens: the `warnafter` claim, seconds after issuing. */
  readonly warnAfterSeconds?: number;
}

export async function issueServiceAccountToken(o: IssueOptions): Promise<{ token: string; expirationTimestamp: number }> {
  const signing = o.keys.signing;
  if (!signing) throw new Error('no service account signing key configured');
  const iat = Math.floor(o.clock.now() / 1000);
  const exp = iat + o.expirationSeconds;
  const k8s: KubernetesClaims = { namespace: o.namespace };
  if (o.boundObject?.kind === 'Node') k8s.node = { name: o.boundObject.name, uid: o.boundObject.uid };
  if (o.boundObject?.kind === 'Pod') {
    k8s.pod = { name: o.boundObject.name, uid: o.boundObject.uid };
    if (o.node) k8s.node = { ...o.node };
  }
  if (o.boundObject?.kind === 'Secret') k8s.secret = { name: o.boundObject.name, uid: o.boundObject.uid };
  k8s.serviceaccount = { name: o.serviceAccount.name, uid: o.serviceAccount.uid };
  if (o.warnAfterSeconds) k8s.warnafter = iat + o.warnAfterSeconds;
  const jwt = new SignJWT({ 'kubernetes.io': k8s as Record<string, unknown> })
    .setProtectedHeader({ alg: signing.alg, kid: signing.kid })
    .setIssuer(o.issuer)
    .setSubject(serviceAccountUsername(o.namespace, o.serviceAccount.name))
    .setAudience([...o.audiences])
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(exp)
    .setJti(o.jti ?? crypto.randomUUID());
  return { token: await jwt.sign(signing.privateKey), expirationTimestamp: exp * 1000 };
}

/** The token a legacy `kubernetes.io/service-account-token` Secret holds (no expiry, no audience). */
export async function issueLegacyServiceAccountToken(o: {
  keys: ServiceAccountKeys;
  namespace: string;
  serviceAccount: ObjectRef;
  secretName: string;
}): Promise<string> {
  const signing = o.keys.signing;
  if (!signing) throw new Error('no service account signing key configured');
  return new SignJWT({
    'kubernetes.io/serviceaccount/namespace': o.namespace,
    'kubernetes.io/serviceaccount/secret.name': o.secretName,
    'kubernetes.io/serviceaccount/service-account.name': o.serviceAccount.name,
    'kubernetes.io/serviceaccount/service-account.uid': o.serviceAccount.uid,
  })
    .setProtectedHeader({ alg: signing.alg, kid: signing.kid })
    .setIssuer(LEGACY_ISSUER)
    .setSubject(serviceAccountUsername(o.namespace, o.serviceAccount.name))
    .sign(signing.privateKey);
}

// ---------------------------------------------------------------------------
// Authenticating
// ---------------------------------------------------------------------------

type Lookup<T> = T | undefined | Promise<T | undefined>;

export interface ServiceAccountAuthenticatorDeps {
  /** --service-account-issuer values; tokens are accepted from any of them. */
  readonly issuers: readonly string[];
  /** --api-audiences (default: the first issuer). */
  readonly apiAudiences: readonly string[];
  /** The keys, or how to get them: asked for only when a token from one of our issuers is to be verified. */
  readonly keys: ServiceAccountKeys | (() => Promise<ServiceAccountKeys>);
  readonly clock: Clock;
  /** --service-account-lookup (default true). */
  readonly lookup?: boolean;
  /** Accept legacy Secret-based tokens (issuer kubernetes/serviceaccount). */
  readonly legacy?: boolean;
  getServiceAccount(namespace: string, name: string): Lookup<KubeObject>;
  getSecret(namespace: string, name: string): Lookup<KubeObject>;
  getPod(namespace: string, name: string): Lookup<KubeObject>;
  getNode(name: string): Lookup<KubeObject>;
  /**
   * Legacy token tracking: labels the Secret of a legacy token that was just
   * used with kubernetes.io/legacy-token-last-used=<UTC date> (a merge patch
   * with the Secret's UID, by the server's loopback client). Failures are the
   * writer's to log; authentication never waits on them failing.
   */
  markLegacyTokenUsed?(secret: KubeObject, date: string): Promise<void>;
}

const meta = (o: KubeObject): { uid?: string; deletionTimestamp?: string; labels?: Record<string, string> } =>
  (o.metadata ?? {}) as { uid?: string; deletionTimestamp?: string; labels?: Record<string, string> };

function looksLikeJwt(token: string): boolean {
  return token.split('.').length === 3;
}

async function verifyWithKeys(token: string, keys: readonly VerificationKey[], nowMs: number): Promise<{ payload?: JWTPayload; error?: string }> {
  let kid: string | undefined;
  let alg: string | undefined;
  try {
    const header = decodeProtectedHeader(token);
    kid = header.kid;
    alg = header.alg;
  } catch {
    return { error: 'malformed token header' };
  }
  // A token never chooses the algorithm: only the ones our keys are for are tried.
  const candidates = keys.filter((k) => k.alg === alg);
  if (candidates.length === 0) return { error: `token algorithm ${JSON.stringify(alg ?? '')} is not allowed` };
  // Prefer the key the token names, then the others (kube tries them all).
  candidates.sort((a, b) => Number(b.kid === kid) - Number(a.kid === kid));
  const errors: string[] = [];
  for (const k of candidates) {
    try {
      const { payload } = await jwtVerify(token, k.key, { algorithms: [k.alg], currentDate: new Date(nowMs), clockTolerance: LEEWAY_SECONDS });
      return { payload };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) return { error: 'service account token has expired' };
      if (err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'nbf') return { error: 'service account token is not valid yet' };
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
}

function intersect(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => b.includes(x));
}

export function createServiceAccountAuthenticator(deps: ServiceAccountAuthenticatorDeps): TokenAuthenticator {
  const lookup = deps.lookup ?? true;
  const legacyEnabled = deps.legacy ?? true;
  const issuers = new Set(deps.issuers);
  const fail = (error: string): AuthnResult => ({ status: 'error', authenticator: 'service-account', error });

  async function validateBound(payload: JWTPayload, nowMs: number): Promise<{ user?: UserInfo; error?: string }> {
    const k8s = payload['kubernetes.io'] as KubernetesClaims | undefined;
    if (!k8s || !k8s.namespace || !k8s.serviceaccount?.name) return { error: 'service account token claims are missing' };
    const ns = k8s.namespace;
    const sa = k8s.serviceaccount;
    const invalidIfDeletedBefore = nowMs - LEEWAY_SECONDS * 1000;
    const deletedTooLongAgo = (o: KubeObject): boolean => {
      const ts = meta(o).deletionTimestamp;
      return !!ts && Date.parse(ts) < invalidIfDeletedBefore;
    };
    if (lookup) {
      const account = await deps.getServiceAccount(ns, sa.name);
      if (!account || deletedTooLongAgo(account)) return { error: 'service account token has been invalidated' };
      if (meta(account).uid !== sa.uid) return { error: `service account UID (${meta(account).uid ?? ''}) does not match claim (${sa.uid})` };
      if (k8s.secret) {
        const secret = await deps.getSecret(ns, k8s.secret.name);
        if (!secret || deletedTooLongAgo(secret)) return { error: 'service account token has been invalidated' };
        if (meta(secret).uid !== k8s.secret.uid) return { error: `secret UID (${meta(secret).uid ?? ''}) does not match service account secret ref claim (${k8s.secret.uid})` };
      }
      if (k8s.pod) {
        const pod = await deps.getPod(ns, k8s.pod.name);
        if (!pod || deletedTooLongAgo(pod)) return { error: 'service account token has been invalidated' };
        if (meta(pod).uid !== k8s.pod.uid) return { error: `pod UID (${meta(pod).uid ?? ''}) does not match service account pod ref claim (${k8s.pod.uid})` };
      } else if (k8s.node) {
        // Node-bound tokens (not pod-bound ones that merely name their node) check the Node.
        const node = await deps.getNode(k8s.node.name);
        if (!node || deletedTooLongAgo(node)) return { error: 'service account token has been invalidated' };
        if (meta(node).uid !== k8s.node.uid) return { error: `node UID (${meta(node).uid ?? ''}) does not match service account node ref claim (${k8s.node.uid})` };
      }
    }
    const extra: Record<string, string[]> = {};
    if (k8s.pod) {
      extra[EXTRA.podName] = [k8s.pod.name];
      extra[EXTRA.podUid] = [k8s.pod.uid];
    }
    if (k8s.node) {
      extra[EXTRA.nodeName] = [k8s.node.name];
      extra[EXTRA.nodeUid] = [k8s.node.uid];
    }
    if (typeof payload.jti === 'string' && payload.jti) extra[EXTRA.credentialId] = [`JTI=${payload.jti}`];
    const user: UserInfo = {
      username: serviceAccountUsername(ns, sa.name),
      uid: sa.uid,
      groups: serviceAccountGroups(ns),
      ...(Object.keys(extra).length ? { extra } : {}),
    };
    return { user };
  }

  async function validateLegacy(token: string, payload: JWTPayload): Promise<{ user?: UserInfo; error?: string }> {
    const claim = (k: string): string => (typeof payload[`kubernetes.io/serviceaccount/${k}`] === 'string' ? (payload[`kubernetes.io/serviceaccount/${k}`] as string) : '');
    if (!payload.sub) return { error: 'sub claim is missing' };
    const namespace = claim('namespace');
    if (!namespace) return { error: 'namespace claim is missing' };
    const secretName = claim('secret.name');
    if (!secretName) return { error: 'secretName claim is missing' };
    const saName = claim('service-account.name');
    if (!saName) return { error: 'serviceAccountName claim is missing' };
    const saUid = claim('service-account.uid');
    if (!saUid) return { error: 'serviceAccountUID claim is missing' };
    const split = splitServiceAccountUsername(payload.sub);
    if (!split || split.namespace !== namespace || split.name !== saName) return { error: 'sub claim is invalid' };
    if (lookup) {
      const secret = await deps.getSecret(namespace, secretName);
      if (!secret || meta(secret).deletionTimestamp) return { error: 'token has been invalidated' };
      if (!constantTimeEqual(secretBytes(secret, 'token') ?? new Uint8Array(), token)) return { error: "token does not match server's copy" };
      const account = await deps.getServiceAccount(namespace, saName);
      if (!account) return { error: `serviceaccounts ${JSON.stringify(saName)} not found` };
      if (meta(account).deletionTimestamp) return { error: `service account ${namespace}/${saName} has been deleted` };
      if (meta(account).uid !== saUid) return { error: `service account UID (${meta(account).uid ?? ''}) does not match claim (${saUid})` };
      if (meta(secret).labels?.['kubernetes.io/legacy-token-invalid-since']) {
        return {
          error: `the token in secret ${namespace}/${secretName} for service account ${namespace}/${saName} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the 'kubernetes.io/legacy-token-invalid-since' label from the secret to re-enable it`,
        };
      }
      // The date is written at most once a day (today's or, across midnight skew, tomorrow's stands).
      const nowMs = deps.clock.now();
      const today = new Date(nowMs).toISOString().slice(0, 10);
      const tomorrow = new Date(nowMs + 24 * 3600_000).toISOString().slice(0, 10);
      const lastUsed = meta(secret).labels?.['kubernetes.io/legacy-token-last-used'];
      if (lastUsed !== today && lastUsed !== tomorrow && deps.markLegacyTokenUsed) await deps.markLegacyTokenUsed(secret, today);
    }
    return { user: { username: serviceAccountUsername(namespace, saName), uid: saUid, groups: serviceAccountGroups(namespace) } };
  }

  return {
    name: 'service-account',
    async authenticateToken(token, requestedAudiences) {
      if (!looksLikeJwt(token)) return { status: 'none' };
      let unverified: JWTPayload;
      try {
        unverified = decodeJwt(token);
      } catch {
        return { status: 'none' };
      }
      const isLegacy = unverified.iss === LEGACY_ISSUER && legacyEnabled;
      if (!isLegacy && !(typeof unverified.iss === 'string' && issuers.has(unverified.iss))) return { status: 'none' };

      const keys = typeof deps.keys === 'function' ? await deps.keys() : deps.keys;
      const nowMs = deps.clock.now();
      const verified = await verifyWithKeys(token, keys.verification, nowMs);
      if (!verified.payload) return fail(verified.error ?? 'invalid signature');
      const payload = verified.payload;
      if (typeof payload.iat === 'number' && payload.iat * 1000 > nowMs + LEEWAY_SECONDS * 1000) return fail('service account token is issued in the future');
      if (!isLegacy && !issuers.has(payload.iss ?? '')) return fail(`token issuer ${JSON.stringify(payload.iss ?? '')} is invalid`);

      const tokenAudiences = payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      const effective = tokenAudiences.length ? tokenAudiences : [...deps.apiAudiences];
      const wanted = requestedAudiences?.length ? requestedAudiences : deps.apiAudiences;
      const audiences = intersect(effective, wanted);
      if (audiences.length === 0 && deps.apiAudiences.length !== 0) {
        return fail(`token audiences ${JSON.stringify(effective)} is invalid for the target audiences ${JSON.stringify(wanted)}`);
      }
      const result = isLegacy ? await validateLegacy(token, payload) : await validateBound(payload, nowMs);
      if (!result.user) return fail(result.error ?? 'invalid service account token');
      return { status: 'ok', authenticator: 'service-account', user: result.user, audiences };
    },
  };
}
