// Access control assembled for one server: the authenticator chain, the
// authorizer chain, the RBAC objects kept from the store, the service-account
// keys, and the audit log. Built from the configuration of ./config; the
// parts that need the store (keys, RBAC objects) are ready once `ready`
// resolves, which every request awaits.

import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import {
  buildAuthenticator,
  buildAuthorizers,
  createBootstrapTokenAuthenticator,
  createRequestHeaderAuthenticator,
  createX509Authenticator,
  type RequestAuthenticator,
  createJwtAuthenticator,
  createServiceAccountAuthenticator,
  createStaticTokenAuthenticator,
  createTokenWebhookAuthenticator,
  type AuthorizerChain,
  type Decision,
  type NodeGraphVertex,
  type TraceStep,
  type UserInfo,
  GROUP,
  nonResourceAttributes,
  type RbacAuthorizer,
  type RequestAuthenticatorChain,
  type ServiceAccountKeys,
  type TestIssuer,
  type TokenAuthenticator,
  type WebhookTransport,
} from '../../auth';
import type { Clock } from '../../clock';
import type { MvccStore } from '../../storage/types';
import type { DecodeCache } from '../object-codec';
import { AuditLog } from './audit-log';
import type { AccessConfig, OidcSettings, WebhookEndpoint } from './config';
import { createObjectReader, type ObjectReader } from './object-reader';
import { createStoreRbacSource, type StoreRbacSource } from './rbac-store-source';
import { loadServiceAccountKeys } from './service-account-key';
import { createNodeGraph } from './node-graph';
import { loadTestIssuer, testIssuerKeys, TEST_ISSUER_URL } from './test-issuer-endpoint';

export interface AccessControl {
  readonly config: AccessConfig;
  /** Resolves when the keys and the stored RBAC objects are loaded (rejects on a bad key file). */
  readonly ready: Promise<void>;
  readonly rbacSource: StoreRbacSource;
  /** The configured chain (system:masters first). */
  readonly authorizers: AuthorizerChain;
  /** RBAC's rule resolution, used for escalation checks whatever the chain. */
  readonly rbac: RbacAuthorizer;
  /**
   * When the chain can only allow (system:masters, then AlwaysAllow): its
   * answer for a user, known without asking (the fast path).
   */
  readonly fastAllow?: (user: UserInfo) => Decision;
  readonly audit: AuditLog;
  readonly objects: ObjectReader;
  readonly clock: Clock;
  /** Available once `ready` resolved. */
  authenticator(): RequestAuthenticatorChain;
  serviceAccountKeys(): ServiceAccountKeys;
  /** The built-in OIDC test issuer (served under /kubetab/v1/oidc), loaded on first use. */
  testIssuer(): Promise<TestIssuer>;
  stop(): void;
}

export interface AccessControlDeps {
  readonly store: MvccStore;
  readonly decodeCache: DecodeCache;
  readonly clock: Clock;
  /** Audit log capacity (entries). */
  readonly auditCapacity?: number;
}

/**
 * authenticator.WrapAudienceAgnosticToken: a token that knows no audience
 * (static, bootstrap) is valid for the API server's audiences only; the
 * answer names the audiences it was accepted for.
 */
function audienceAgnostic(inner: TokenAuthenticator, implicit: readonly string[]): TokenAuthenticator {
  return {
    name: inner.name,
    async authenticateToken(token, audiences) {
      if (!audiences?.length) return inner.authenticateToken(token);
      const auds = implicit.filter((a) => audiences.includes(a));
      if (auds.length === 0) return { status: 'none' };
      const result = await inner.authenticateToken(token);
      return result.status === 'ok' ? { ...result, audiences: auds } : result;
    },
  };
}

/** POSTs a JSON review to a webhook and returns the decoded answer. */
function jsonTransport(endpoint: WebhookEndpoint): (body: unknown, signal: AbortSignal) => Promise<unknown> {
  return async (body, signal) => {
    const res = await fetch(endpoint.server, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...(endpoint.token ? { Authorization: `Bearer ${endpoint.token}` } : {}) },
      body: JSON.stringify(body),
      signal,
    });
    const text = await res.text();
    if (res.status < 200 || res.status > 299) throw new Error(`the server responded with the status code ${res.status} but did not return more information`);
    return JSON.parse(text) as unknown;
  };
}

/**
 * The issuer's keys through OIDC discovery, fetched on first use (and again
 * after a failure): the discovery document's `issuer` must be the configured
 * URL, as kube-apiserver checks.
 */
function discoveredKeys(settings: OidcSettings): JWTVerifyGetKey {
  const issuer = settings.config.issuer;
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const discover = async (): Promise<JWTVerifyGetKey> => {
    const url = issuer.discoveryURL ?? `${issuer.url.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const res = await fetch(url, { headers: { Accept: 'application/json' } });
    if (res.status !== 200) throw new Error(`oidc: get ${url}: ${res.status}`);
    const doc = (await res.json()) as { issuer?: string; jwks_uri?: string };
    if (doc.issuer !== issuer.url) throw new Error(`oidc: issuer did not match the issuer returned by provider, expected "${issuer.url}" got "${doc.issuer ?? ''}"`);
    if (!doc.jwks_uri) throw new Error('oidc: discovery document has no jwks_uri');
    return createRemoteJWKSet(new URL(doc.jwks_uri));
  };
  return async (header, token) => {
    keys ??= discover().catch((err: unknown) => {
      keys = undefined;
      throw err;
    });
    return (await keys)(header, token);
  };
}

/** The answers of a chain that is system:masters then AlwaysAllow, traced as the chain traces them. */
function fastAllowOf(chain: AuthorizerChain): ((user: UserInfo) => Decision) | undefined {
  const [privileged, allow, ...rest] = chain.authorizers;
  if (rest.length || privileged?.type !== 'Privileged' || allow?.type !== 'AlwaysAllow') return undefined;
  const probe = (groups: string[]): TraceStep[] => {
    const attrs = nonResourceAttributes({ username: 'probe', groups }, 'get', '/');
    const first = privileged.authorize(attrs) as TraceStep;
    return first.decision === 'Allow' ? [first] : [first, allow.authorize(attrs) as TraceStep];
  };
  const masters: Decision = { decision: 'Allow', reason: '', trace: probe([GROUP.masters]) };
  const others: Decision = { decision: 'Allow', reason: '', trace: probe([]) };
  return (user) => (user.groups.includes(GROUP.masters) ? masters : others);
}

export function createAccessControl(config: AccessConfig, deps: AccessControlDeps): AccessControl {
  const { clock } = deps;
  const rbacSource = createStoreRbacSource(deps.store, (kv) => deps.decodeCache.decode(kv));
  const objects = createObjectReader(deps);
  const webhookTransport = (name: string): WebhookTransport => {
    const endpoint = config.authorizationWebhooks.get(name);
    if (!endpoint) throw new Error(`authorizer ${name}: no webhook endpoint configured`);
    const send = jsonTransport(endpoint);
    return { send: (review, signal) => send(review, signal) };
  };
  // The pod graph only when a Node authorizer asks it.
  const nodeGraph = config.authorization.authorizers.some((a) => a.type === 'Node') ? createNodeGraph(deps.store, (kv) => deps.decodeCache.decode(kv)) : undefined;
  const { chain, rbac } = buildAuthorizers(config.authorization, {
    clock,
    rbacSource,
    abacPolicies: config.abacPolicies,
    webhookTransport,
    ...(nodeGraph ? { isRelatedToNode: (node: string, vertex: NodeGraphVertex, ns: string, name: string) => nodeGraph.isRelatedToNode(node, vertex, ns, name) } : {}),
  });
  const fastAllow = fastAllowOf(chain);
  const audit = new AuditLog(deps.auditCapacity ?? 2000);

  let keys: ServiceAccountKeys | undefined;
  let authn: RequestAuthenticatorChain | undefined;
  let issuer: Promise<TestIssuer> | undefined;
  const testIssuer = (): Promise<TestIssuer> => {
    issuer ??= loadTestIssuer(deps.store, clock).catch((err: unknown) => {
      issuer = undefined;
      throw err;
    });
    return issuer;
  };
  // The test issuer's authenticator verifies with its keys: the server cannot fetch its own discovery document.
  const keysOf = (j: OidcSettings): JWTVerifyGetKey =>
    j.config.issuer.url === TEST_ISSUER_URL && !j.config.issuer.discoveryURL ? testIssuerKeys(testIssuer) : discoveredKeys(j);

  const ready = (async () => {
    const sa = config.serviceAccounts;
    keys = await loadServiceAccountKeys(deps.store, sa.signingKeyPem, sa.verificationKeyPems);
    const serviceAccounts = createServiceAccountAuthenticator({
      issuers: sa.issuers,
      apiAudiences: sa.apiAudiences,
      keys,
      clock,
      lookup: sa.lookup,
      getServiceAccount: (ns, name) => objects.get('', 'serviceaccounts', ns, name),
      getSecret: (ns, name) => objects.get('', 'secrets', ns, name),
      getPod: (ns, name) => objects.get('', 'pods', ns, name),
      getNode: (name) => objects.get('', 'nodes', '', name),
    });
    const jwt: TokenAuthenticator[] = config.jwt.map((j) =>
      createJwtAuthenticator({ config: j.config, keys: keysOf(j), clock, ...(j.algorithms ? { algorithms: j.algorithms } : {}) }),
    );
    const webhook = config.tokenWebhook;
    const implicit = sa.apiAudiences;
    // kube-apiserver's order: the authenticating proxy, then client certificates, then bearer tokens.
    const requestAuthenticators: RequestAuthenticator[] = [];
    if (config.requestHeader) requestAuthenticators.push(createRequestHeaderAuthenticator(config.requestHeader));
    if (config.clientCertificates) requestAuthenticators.push(createX509Authenticator());
    authn = buildAuthenticator({
      requestAuthenticators,
      ...(config.tokenFile ? { tokenFile: audienceAgnostic(createStaticTokenAuthenticator(config.tokenFile), implicit) } : {}),
      serviceAccounts,
      ...(config.bootstrapTokens
        ? { bootstrapTokens: audienceAgnostic(createBootstrapTokenAuthenticator({ clock, getSecret: (ns, name) => objects.get('', 'secrets', ns, name) }), implicit) }
        : {}),
      jwt,
      ...(webhook
        ? {
            tokenWebhook: createTokenWebhookAuthenticator({
              send: jsonTransport(webhook),
              clock,
              version: webhook.version,
              cacheTtlMs: webhook.cacheTtlMs,
              implicitAudiences: sa.apiAudiences,
            }),
          }
        : {}),
      anonymous: config.anonymous,
    });
    await rbacSource.ready;
    await nodeGraph?.ready;
  })();
  // Callers await `ready`; an unhandled rejection here would be reported twice.
  ready.catch(() => undefined);

  return {
    config,
    ready,
    rbacSource,
    authorizers: chain,
    rbac,
    ...(fastAllow ? { fastAllow } : {}),
    audit,
    objects,
    clock,
    authenticator() {
      if (!authn) throw new Error('access control is not ready');
      return authn;
    },
    serviceAccountKeys() {
      if (!keys) throw new Error('access control is not ready');
      return keys;
    },
    testIssuer,
    stop() {
      rbacSource.stop();
      nodeGraph?.stop();
    },
  };
}
