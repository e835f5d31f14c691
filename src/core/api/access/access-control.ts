// Access control assembled for one server: the authenticator chain, the
// authorizer chain, the RBAC objects kept from the store, the service-account
// keys, and the audit log. Built from the configuration of ./config. The
// parts that need the store are loaded when first needed: the RBAC objects
// and the pod graph by the authorizers (`ready`; never for system:masters),
// the service-account keys by the first service-account token or token
// request.

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
import type { KubeObject } from '../../kinds/types';
import type { DecodeCache } from '../object-codec';
import { AuditLog } from './audit-log';
import {
  authorizationConfigurationFromFile,
  authorizationWebhookEndpoints,
  decodeAuthenticationConfiguration,
  type AccessConfig,
  type OidcSettings,
  type WebhookEndpoint,
} from './config';
import type { AuditEvent, AuthorizationConfiguration } from '../../auth';
import { createObjectReader, type ObjectReader } from './object-reader';
import { createCertificateHeaderVerifier, type PeerCertificates } from './peer-certificates';
import { createStoreRbacSource, type StoreRbacSource } from './rbac-store-source';
import { loadServiceAccountKeys } from './service-account-key';
import { createNodeGraph } from './node-graph';
import { loadTestIssuer, testIssuerKeys, TEST_ISSUER_URL } from './test-issuer-endpoint';

/** What a reload of a configuration file did (kube's automatic_reloads_total status, and its log line). */
export interface ConfigReload {
  /** The flag naming the file: authorization-config or authentication-config. */
  readonly file: 'authorization-config' | 'authentication-config';
  /** unchanged: same bytes as the last read; success: in use now; failure: the last good configuration stays. */
  readonly status: 'unchanged' | 'success' | 'failure';
  /** kube-apiserver's log text for a failure (never a credential). */
  readonly error?: string;
}

export interface AccessControl {
  /** The configuration in use (the files' parts change on reload). */
  readonly config: AccessConfig;
  /** Resolves when the stored RBAC objects (and the pod graph, with a Node authorizer) are loaded; asking starts the loads. */
  readonly ready: Promise<void>;
  readonly rbacSource: StoreRbacSource;
  /** The configured chain (system:masters first), asked once `ready` has resolved unless the user is in system:masters. */
  readonly authorizers: AuthorizerChain;
  /** RBAC's rule resolution, used for escalation checks whatever the chain. */
  readonly rbac: RbacAuthorizer;
  /**
   * When the chain can only allow (system:masters, then AlwaysAllow): its
   * answer for a user, known without asking (the fast path).
   */
  readonly fastAllow?: (user: UserInfo) => Decision;
  /**
   * Reads --authorization-config and --authentication-config again and puts
   * changed, valid versions in use, as kube-apiserver's file watchers do; an
   * invalid version is refused and the last good one kept. Hosts call it when
   * a file changes (and every minute, as kube polls).
   */
  reloadConfigFiles(): Promise<readonly ConfigReload[]>;
  readonly audit: AuditLog;
  /** Verifies a chain presented in the reserved client-certificate header (hosts without TLS). */
  readonly verifyCertificateHeader: (headerValue: string) => Promise<PeerCertificates | undefined>;
  /** The audit backend, if any (events per stage, already filtered by the policy's level). */
  readonly auditSink?: (event: AuditEvent) => void;
  readonly objects: ObjectReader;
  readonly clock: Clock;
  /** The authentication chain in use (rebuilt when --authentication-config changes). */
  authenticator(): RequestAuthenticatorChain;
  /**
   * The service-account signing and verification keys, loaded (or generated
   * and stored, on a new cluster) on first use: most requests carry no
   * service-account token, and a cold start should not wait for a store read
   * and WebCrypto imports it does not need. Rejects on a bad key file.
   */
  serviceAccountKeys(): Promise<ServiceAccountKeys>;
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
  /** Where audit events go, stage by stage, as the policy decides (the Node host's --audit-log-path). */
  readonly auditSink?: (event: AuditEvent) => void;
  /** Labels a used legacy token's Secret with the date (kube-apiserver's secretsWriter, its loopback client). */
  readonly markLegacyTokenUsed?: (secret: KubeObject, date: string) => Promise<void>;
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

/**
 * The chain, asked only once the store's RBAC objects and pod graph are loaded
 * (`loaded`) — except for system:masters, whom the chain's first authorizer
 * allows before any of them is consulted: a cold start of the worker answers
 * the administrator's first request without waiting for those loads.
 */
function askedWhenLoaded(chain: () => AuthorizerChain, load: () => Promise<void>): AuthorizerChain {
  let isLoaded = false;
  const loaded = async () => {
    await load();
    isLoaded = true;
  };
  const privilegedFirst = (user: UserInfo) => chain().authorizers[0]?.type === 'Privileged' && user.groups.includes(GROUP.masters);
  return {
    get authorizers() {
      return chain().authorizers;
    },
    async authorize(attrs, options) {
      if (!isLoaded && !privilegedFirst(attrs.user)) await loaded();
      return chain().authorize(attrs, options);
    },
    async rulesFor(user, namespace) {
      if (!isLoaded) await loaded();
      return chain().rulesFor(user, namespace);
    },
  };
}

export function createAccessControl(initial: AccessConfig, deps: AccessControlDeps): AccessControl {
  const { clock } = deps;
  let config = initial;
  const rbacSource = createStoreRbacSource(deps.store, (kv) => deps.decodeCache.decode(kv));
  const objects = createObjectReader(deps);
  const webhookTransport = (name: string): WebhookTransport => {
    const endpoint = config.authorizationWebhooks.get(name);
    if (!endpoint) throw new Error(`authorizer ${name}: no webhook endpoint configured`);
    const send = jsonTransport(endpoint);
    return { send: (review, signal) => send(review, signal) };
  };
  // The pod graph only when a Node authorizer asks it (at start: a reload cannot add one, as in kube).
  const initialTypes = new Set(initial.authorization.authorizers.map((a) => a.type));
  const nodeGraph = initialTypes.has('Node') ? createNodeGraph(deps.store, (kv) => deps.decodeCache.decode(kv)) : undefined;
  const authorizersFor = (authorization: AuthorizationConfiguration) =>
    buildAuthorizers(authorization, {
      clock,
      rbacSource,
      abacPolicies: config.abacPolicies,
      webhookTransport,
      ...(nodeGraph ? { isRelatedToNode: (node: string, vertex: NodeGraphVertex, ns: string, name: string) => nodeGraph.isRelatedToNode(node, vertex, ns, name) } : {}),
    });
  const built = authorizersFor(initial.authorization);
  let chain = built.chain;
  const rbac = built.rbac;
  let fastAllow = fastAllowOf(chain);
  const audit = new AuditLog(deps.auditCapacity ?? 2000);

  let keys: Promise<ServiceAccountKeys> | undefined;
  const serviceAccountKeys = (): Promise<ServiceAccountKeys> => {
    const sa = config.serviceAccounts;
    keys ??= loadServiceAccountKeys(deps.store, sa.signingKeyPem, sa.verificationKeyPems).catch((err: unknown) => {
      // A store that failed to answer may answer next time.
      keys = undefined;
      throw err;
    });
    return keys;
  };
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

  // Its keys are loaded when a token of ours first needs verifying.
  const serviceAccounts = createServiceAccountAuthenticator({
    issuers: config.serviceAccounts.issuers,
    apiAudiences: config.serviceAccounts.apiAudiences,
    keys: serviceAccountKeys,
    clock,
    lookup: config.serviceAccounts.lookup,
    getServiceAccount: (ns, name) => objects.get('', 'serviceaccounts', ns, name),
    getSecret: (ns, name) => objects.get('', 'secrets', ns, name),
    getPod: (ns, name) => objects.get('', 'pods', ns, name),
    getNode: (name) => objects.get('', 'nodes', '', name),
    ...(deps.markLegacyTokenUsed ? { markLegacyTokenUsed: deps.markLegacyTokenUsed } : {}),
  });
  /** The authentication chain for the configuration in use (rebuilt when --authentication-config changes). */
  const buildAuthn = (): RequestAuthenticatorChain => {
    const sa = config.serviceAccounts;
    const jwt: TokenAuthenticator[] = config.jwt.map((j) =>
      createJwtAuthenticator({ config: j.config, keys: keysOf(j), clock, ...(j.algorithms ? { algorithms: j.algorithms } : {}) }),
    );
    const webhook = config.tokenWebhook;
    const implicit = sa.apiAudiences;
    // kube-apiserver's order: the authenticating proxy, then client certificates, then bearer tokens.
    const requestAuthenticators: RequestAuthenticator[] = [];
    if (config.requestHeader) requestAuthenticators.push(createRequestHeaderAuthenticator(config.requestHeader));
    if (config.clientCertificates) requestAuthenticators.push(createX509Authenticator());
    return buildAuthenticator({
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
  };

  let authn = buildAuthn();
  // The stored RBAC objects and the pod graph, loaded when first needed: a
  // cold start answering system:masters does not read them at all.
  let loading: Promise<void> | undefined;
  const loaded = (): Promise<void> => {
    loading ??= Promise.all([rbacSource.ready, nodeGraph?.ready]).then(() => undefined);
    return loading;
  };
  const authorizers = askedWhenLoaded(() => chain, loaded);

  // Reloads (kube's reloadableAuthorizerResolver.checkFile and the authentication config watcher).
  const { flags, readFile } = initial.source;
  // The files as read at start: a first check finds them unchanged.
  const lastRead: { 'authorization-config'?: string; 'authentication-config'?: string } = { ...initial.source.texts };
  const initialAnonymous = JSON.stringify(initial.authenticationFile?.anonymous ?? null);
  let reloading: Promise<readonly ConfigReload[]> | undefined;

  const reloadAuthorization = async (path: string): Promise<ConfigReload> => {
    const file = 'authorization-config' as const;
    let text: string;
    try {
      text = await readFile!(path);
    } catch (err) {
      return { file, status: 'failure', error: `reloading authorization config: open ${path}: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (text === lastRead[file]) return { file, status: 'unchanged' };
    lastRead[file] = text;
    try {
      const authorization = authorizationConfigurationFromFile(text, path);
      // Every non-webhook type of the start-up file must stay; none may be added (their informers exist only from start).
      const types = new Set(authorization.authorizers.map((a) => a.type));
      const missing = [...initialTypes].filter((t) => t !== 'Webhook' && !types.has(t)).sort();
      if (missing.length) throw new Error(`missing required types: [${missing.join(' ')}]`);
      for (const t of ['Node', 'RBAC', 'ABAC']) {
        if (types.has(t) && !initialTypes.has(t)) throw new Error(`authorizer type ${t} is not allowed if it was not enabled at initial server startup`);
      }
      if (JSON.stringify(authorization) === JSON.stringify(config.authorization)) return { file, status: 'unchanged' };
      const authorizationWebhooks = await authorizationWebhookEndpoints(authorization, readFile);
      const previous = config;
      config = { ...config, authorization, authorizationWebhooks };
      try {
        chain = authorizersFor(authorization).chain;
      } catch (err) {
        config = previous;
        throw err;
      }
      fastAllow = fastAllowOf(chain);
      return { file, status: 'success' };
    } catch (err) {
      return { file, status: 'failure', error: `reloading authorization config: ${err instanceof Error ? err.message : String(err)}` };
    }
  };

  const reloadAuthentication = async (path: string): Promise<ConfigReload> => {
    const file = 'authentication-config' as const;
    let text: string;
    try {
      text = await readFile!(path);
    } catch (err) {
      // Not remembered: a missing file may come back.
      return { file, status: 'failure', error: `failed to read authentication config file: open ${path}: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (text === lastRead[file]) return { file, status: 'unchanged' };
    // A version that does not decode or validate never will: remembered, so it is not retried.
    lastRead[file] = text;
    let authentication;
    try {
      authentication = decodeAuthenticationConfiguration(text, path, config.serviceAccounts.issuers);
    } catch (err) {
      return { file, status: 'failure', error: `failed to validate authentication config: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (JSON.stringify(authentication.anonymous ?? null) !== initialAnonymous) {
      return { file, status: 'failure', error: 'failed to validate authentication config: anonymous: Forbidden: changed from initial configuration file' };
    }
    config = { ...config, authenticationFile: authentication, jwt: (authentication.jwt ?? []).map((j) => ({ config: j })) };
    authn = buildAuthn();
    return { file, status: 'success' };
  };

  const reloadConfigFiles = (): Promise<readonly ConfigReload[]> => {
    // One check at a time (kube holds a lock around each): a file watcher may fire while a check runs.
    const run = async (): Promise<readonly ConfigReload[]> => {
      await reloading?.catch(() => undefined);
      if (!readFile) return [];
      const out: ConfigReload[] = [];
      const authzPath = flags['authorization-config'];
      if (authzPath && initial.authorizationFromFile) out.push(await reloadAuthorization(authzPath));
      const authnPath = flags['authentication-config'];
      if (authnPath) out.push(await reloadAuthentication(authnPath));
      return out;
    };
    reloading = run();
    return reloading;
  };
  return {
    get config() {
      return config;
    },
    get ready() {
      return loaded();
    },
    rbacSource,
    authorizers,
    rbac,
    get fastAllow() {
      return fastAllow;
    },
    reloadConfigFiles,
    audit,
    verifyCertificateHeader: createCertificateHeaderVerifier(initial.certificateTrust, () => clock.now()),
    ...(deps.auditSink ? { auditSink: deps.auditSink } : {}),
    objects,
    clock,
    authenticator() {
      return authn;
    },
    serviceAccountKeys,
    testIssuer,
    stop() {
      rbacSource.stop();
      nodeGraph?.stop();
    },
  };
}
