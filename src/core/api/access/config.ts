// Access control's configuration from kube-apiserver's flags and the files
// they name, read once at start. Every problem is a start-up error with the
// text kube-apiserver prints, and createApiServer rejects with it.
//
// With none of these flags KubeTab keeps kube-apiserver's defaults
// (AlwaysAllow, and anonymous reset to off because of it) and treats requests
// that carry no credentials as kube-apiserver does when authentication is not
// configured: they go through with no user (decision 0150). Presented
// credentials are always checked.

import { parse as parseYaml } from 'yaml';
import { decodeJson } from '../negotiation/json-decode';
import {
  anonymousConflict,
  authorizationConfigurationFromFlags,
  compileCel,
  effectiveAnonymousAuth,
  jwtAuthenticatorFromOidcFlags,
  parseAbacPolicyFile,
  parseGoDuration,
  parseTokenFile,
  validateAuthenticationConfiguration,
  type AbacPolicy,
  type AnonymousConfig,
  type AuthenticationConfiguration,
  type AuthorizationConfiguration,
  type JWTAuthenticator,
} from '../../auth';
import type { StaticTokenEntry } from '../../auth/authn/token-file';
import type { RequestHeaderConfig } from '../../auth/authn/x509-and-proxy';
import { parseAuditPolicy, type AuditPolicy } from '../../auth/audit/policy';
import { parsePemCertificates, type Certificate } from '../../auth/authn/x509-verify';
import { aggregateFieldErrors } from '../../errors/field-errors';

/** kube-apiserver's default --service-account-issuer in a kubeadm cluster. */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

/** The flags that configure access control: any of them turns off the no-credentials pass-through. */
export const ACCESS_FLAGS = [
  'authorization-mode',
  'authorization-config',
  'authorization-policy-file',
  'authorization-webhook-config-file',
  'authorization-webhook-version',
  'authorization-webhook-cache-authorized-ttl',
  'authorization-webhook-cache-unauthorized-ttl',
  'anonymous-auth',
  'token-auth-file',
  'enable-bootstrap-token-auth',
  'authentication-config',
  'oidc-issuer-url',
  'oidc-client-id',
  'authentication-token-webhook-config-file',
  'client-ca-file',
  'requestheader-client-ca-file',
] as const;

export type ReadFile = (path: string) => Promise<string>;

export interface WebhookEndpoint {
  /** The cluster server URL of the kubeconfig file. */
  readonly server: string;
  /** Bearer token of the kubeconfig's user, if any. */
  readonly token?: string;
}

export interface OidcSettings {
  readonly config: JWTAuthenticator;
  /** --oidc-signing-algs (flags) or every asymmetric algorithm (configuration file). */
  readonly algorithms?: readonly string[];
}

export interface AccessConfig {
  /** True when any access-control flag was given (kube's rules apply in full). */
  readonly configured: boolean;
  readonly authorization: AuthorizationConfiguration;
  readonly abacPolicies: readonly AbacPolicy[];
  /** Webhook authorizers by name: where to send SubjectAccessReviews. */
  readonly authorizationWebhooks: ReadonlyMap<string, WebhookEndpoint>;
  readonly tokenFile?: readonly StaticTokenEntry[];
  readonly anonymous: AnonymousConfig;
  readonly bootstrapTokens: boolean;
  readonly serviceAccounts: {
    readonly issuers: readonly string[];
    readonly apiAudiences: readonly string[];
    readonly lookup: boolean;
    readonly maxExpirationSeconds: number;
    readonly extendExpiration: boolean;
    /** PEM of --service-account-signing-key-file. */
    readonly signingKeyPem?: string;
    /** PEMs of --service-account-key-file (verification keys). */
    readonly verificationKeyPems: readonly string[];
  };
  readonly jwt: readonly OidcSettings[];
  readonly tokenWebhook?: WebhookEndpoint & { readonly version: 'v1' | 'v1beta1'; readonly cacheTtlMs: number };
  /**
   * --client-ca-file given: client certificates authenticate (CN, O). The host
   * verifies the chain (TLS under Node) and hands the result to the core.
   */
  readonly clientCertificates: boolean;
  /** The bundles certificates are verified against when the core verifies them (the browser's reserved header). */
  readonly certificateTrust: { readonly clientCA?: readonly Certificate[]; readonly requestHeaderCA?: readonly Certificate[] };
  /** The authenticating proxy (--requestheader-*), only with --requestheader-client-ca-file, as kube-apiserver. */
  readonly requestHeader?: RequestHeaderConfig;
  /** --audit-policy-file: the level of each request's audit events (absent: Metadata in the UI's log, no backend events). */
  readonly auditPolicy?: AuditPolicy;
  /** Whether authorization came from --authorization-config (only then is it reloaded). */
  readonly authorizationFromFile: boolean;
  /** The --authentication-config file's configuration, when given. */
  readonly authenticationFile?: AuthenticationConfiguration;
  /** Where the configuration came from, for reloads: the flags, the reader, and the files' text as read at start. */
  readonly source: {
    readonly flags: Readonly<Record<string, string>>;
    readonly readFile?: ReadFile;
    readonly texts: { readonly 'authorization-config'?: string; readonly 'authentication-config'?: string };
  };
  /** Warnings kube-apiserver logs at start (never containing a credential). */
  readonly warnings: readonly string[];
}

export class StartupError extends Error {}

/** pflag's bool parsing (strconv.ParseBool). */
function parseBool(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw new StartupError(`invalid argument "${value}" for "--${name}" flag: strconv.ParseBool: parsing "${value}": invalid syntax`);
}

/** Repeatable flags arrive as one value; KubeTab takes a comma-separated list. */
function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
}

async function read(readFile: ReadFile | undefined, flag: string, path: string): Promise<string> {
  if (!readFile) throw new StartupError(`--${flag}=${path}: this host cannot read configuration files`);
  try {
    return await readFile(path);
  } catch (err) {
    throw new StartupError(`open ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * A configuration text that is plain JSON (what the browser host stores),
 * parsed without the YAML library, which costs milliseconds of every cold
 * start of the worker. Undefined for anything else, duplicate keys included:
 * the YAML parser reads those and reports them with its own errors.
 */
function plainJsonDocument(text: string): unknown {
  if (!/^\s*\{/.test(text)) return undefined;
  try {
    const { value, duplicateFields } = decodeJson(text);
    return duplicateFields.length === 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

function parseDocument(text: string, path: string): Record<string, unknown> {
  let doc: unknown = plainJsonDocument(text);
  try {
    doc ??= parseYaml(text);
  } catch (err) {
    throw new StartupError(`failed to decode ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new StartupError(`failed to decode ${path}: not an object`);
  return doc as Record<string, unknown>;
}

/** The server (and token) of a kubeconfig file's current context, as webhooks use them. */
export function webhookEndpointFromKubeconfig(text: string, path: string): WebhookEndpoint {
  const doc = parseDocument(text, path) as {
    'current-context'?: string;
    contexts?: { name: string; context?: { cluster?: string; user?: string } }[];
    clusters?: { name: string; cluster?: { server?: string } }[];
    users?: { name: string; user?: { token?: string } }[];
  };
  const contexts = doc.contexts ?? [];
  const current = contexts.find((c) => c.name === doc['current-context']) ?? (contexts.length === 1 ? contexts[0] : undefined);
  const clusters = doc.clusters ?? [];
  const cluster = current?.context?.cluster ? clusters.find((c) => c.name === current.context!.cluster) : clusters.length === 1 ? clusters[0] : undefined;
  const server = cluster?.cluster?.server;
  if (!server) throw new StartupError(`invalid configuration in ${path}: no server found for the current context`);
  const users = doc.users ?? [];
  const user = current?.context?.user ? users.find((u) => u.name === current.context!.user) : undefined;
  return { server, ...(user?.user?.token ? { token: user.user.token } : {}) };
}

function celCompileError(expression: string): string | undefined {
  return compileCel('request', expression, 'bool').error;
}

/** The AuthorizationConfiguration of a --authorization-config file, decoded (not yet defaulted or validated). */
export function decodeAuthorizationConfiguration(text: string, path: string): AuthorizationConfiguration {
  const doc = parseDocument(text, path);
  if (doc.kind !== 'AuthorizationConfiguration') throw new StartupError(`failed to decode ${path}: no kind "${String(doc.kind ?? '')}" is registered for the configuration of authorization`);
  return doc as unknown as AuthorizationConfiguration;
}

/** The --authorization-config file's configuration, defaulted and validated (kube's start-up and reload checks). */
export function authorizationConfigurationFromFile(text: string, path: string): AuthorizationConfiguration {
  const doc = decodeAuthorizationConfiguration(text, path);
  const authz = authorizationConfigurationFromFlags({ 'authorization-config': path }, () => doc, celCompileError);
  if (!authz.config) throw new StartupError(authz.errors.length === 1 ? authz.errors[0]! : `[${authz.errors.join(', ')}]`);
  return authz.config;
}

/** Where each webhook authorizer sends its SubjectAccessReviews (the kubeconfig files it names). */
export async function authorizationWebhookEndpoints(authorization: AuthorizationConfiguration, readFile: ReadFile | undefined): Promise<Map<string, WebhookEndpoint>> {
  const endpoints = new Map<string, WebhookEndpoint>();
  for (const a of authorization.authorizers) {
    if (a.type !== 'Webhook' || !a.webhook) continue;
    const ci = a.webhook.connectionInfo;
    if (ci.type !== 'KubeConfigFile' || !ci.kubeConfigFile) throw new StartupError(`authorizer ${a.name}: connectionInfo type ${ci.type} is not supported by KubeTab (use KubeConfigFile)`);
    endpoints.set(a.name, webhookEndpointFromKubeconfig(await read(readFile, 'authorization-config', ci.kubeConfigFile), ci.kubeConfigFile));
  }
  return endpoints;
}

/** The AuthenticationConfiguration of a --authentication-config file, validated (kube's limits). */
export function decodeAuthenticationConfiguration(text: string, path: string, serviceAccountIssuers: readonly string[]): AuthenticationConfiguration {
  const doc = parseDocument(text, path);
  if (doc.kind !== 'AuthenticationConfiguration') throw new StartupError(`failed to decode ${path}: no kind "${String(doc.kind ?? '')}" is registered for the configuration of authentication`);
  const config = doc as unknown as AuthenticationConfiguration;
  const errs = validateAuthenticationConfiguration(config, serviceAccountIssuers);
  if (errs.length) throw new StartupError(aggregateFieldErrors(errs));
  return config;
}

export async function loadAccessConfig(flags: Readonly<Record<string, string>>, readFile: ReadFile | undefined): Promise<AccessConfig> {
  const configured = ACCESS_FLAGS.some((f) => flags[f] !== undefined);
  const warnings: string[] = [];
  const texts: { 'authorization-config'?: string; 'authentication-config'?: string } = {};

  // Authorization: --authorization-config or the legacy flags, never both.
  let authzFile: AuthorizationConfiguration | undefined;
  const authzPath = flags['authorization-config'];
  if (authzPath) {
    const legacy = ['authorization-mode', 'authorization-webhook-config-file', 'authorization-webhook-version', 'authorization-webhook-cache-authorized-ttl', 'authorization-webhook-cache-unauthorized-ttl'];
    if (!legacy.some((f) => flags[f] !== undefined)) {
      texts['authorization-config'] = await read(readFile, 'authorization-config', authzPath);
      authzFile = decodeAuthorizationConfiguration(texts['authorization-config'], authzPath);
    }
  }
  const authz = authorizationConfigurationFromFlags(flags, () => authzFile!, celCompileError);
  if (!authz.config) throw new StartupError(authz.errors.length === 1 ? authz.errors[0]! : `[${authz.errors.join(', ')}]`);
  const authorization = authz.config;

  let abacPolicies: AbacPolicy[] = [];
  const policyPath = flags['authorization-policy-file'];
  if (policyPath) {
    try {
      abacPolicies = parseAbacPolicyFile(await read(readFile, 'authorization-policy-file', policyPath), policyPath);
    } catch (err) {
      throw err instanceof StartupError ? err : new StartupError(err instanceof Error ? err.message : String(err));
    }
  }

  const authorizationWebhooks = await authorizationWebhookEndpoints(authorization, readFile);

  // Service accounts.
  const issuers = list(flags['service-account-issuer']);
  if (issuers.length === 0) issuers.push(DEFAULT_SERVICE_ACCOUNT_ISSUER);
  const apiAudiences = list(flags['api-audiences']);
  const maxExpiration = flags['service-account-max-token-expiration'];
  let maxExpirationSeconds = 0;
  if (maxExpiration !== undefined) {
    const ms = parseGoDuration(maxExpiration);
    if (ms === undefined) throw new StartupError(`invalid argument "${maxExpiration}" for "--service-account-max-token-expiration" flag: time: invalid duration "${maxExpiration}"`);
    maxExpirationSeconds = Math.floor(ms / 1000);
    if (maxExpirationSeconds !== 0 && maxExpirationSeconds < 3600) throw new StartupError('service-account-max-token-expiration must be at least 1 hour');
  }
  const signingPath = flags['service-account-signing-key-file'];
  const keyFiles = list(flags['service-account-key-file']);
  const verificationKeyPems: string[] = [];
  for (const path of keyFiles) verificationKeyPems.push(await read(readFile, 'service-account-key-file', path));

  // Tokens and anonymous.
  let tokenFile: StaticTokenEntry[] | undefined;
  const tokenPath = flags['token-auth-file'];
  if (tokenPath) {
    try {
      const parsed = parseTokenFile(await read(readFile, 'token-auth-file', tokenPath), tokenPath);
      tokenFile = parsed.entries;
      warnings.push(...parsed.warnings);
    } catch (err) {
      throw err instanceof StartupError ? err : new StartupError(err instanceof Error ? err.message : String(err));
    }
  }

  let authnFile: AuthenticationConfiguration | undefined;
  const authnPath = flags['authentication-config'];
  if (authnPath) {
    if (flags['oidc-issuer-url'] !== undefined || flags['oidc-client-id'] !== undefined) {
      throw new StartupError('authentication-config file and oidc-* flags are mutually exclusive');
    }
    texts['authentication-config'] = await read(readFile, 'authentication-config', authnPath);
    authnFile = decodeAuthenticationConfiguration(texts['authentication-config'], authnPath, issuers);
  }
  const conflict = anonymousConflict(authnFile, flags['anonymous-auth'] !== undefined);
  if (conflict) throw new StartupError(conflict);

  let anonymous: AnonymousConfig;
  if (authnFile?.anonymous) {
    anonymous = {
      enabled: authnFile.anonymous.enabled,
      ...(authnFile.anonymous.conditions?.length ? { paths: authnFile.anonymous.conditions.map((c) => c.path) } : {}),
    };
  } else {
    const requested = parseBool('anonymous-auth', flags['anonymous-auth'], true);
    const effective = effectiveAnonymousAuth(requested, authorization);
    if (requested && !effective) warnings.push('AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer');
    anonymous = { enabled: effective };
  }

  const jwt: OidcSettings[] = [];
  if (authnFile?.jwt) for (const j of authnFile.jwt) jwt.push({ config: j });
  const oidcIssuer = flags['oidc-issuer-url'];
  if (oidcIssuer !== undefined || flags['oidc-client-id'] !== undefined) {
    if (!oidcIssuer || !flags['oidc-client-id']) throw new StartupError('oidc-issuer-url and oidc-client-id must be specified together');
    if (!oidcIssuer.startsWith('https://')) throw new StartupError(`oidc-issuer-url (${oidcIssuer}) must be a valid URL with https scheme`);
    const config = jwtAuthenticatorFromOidcFlags({
      'oidc-issuer-url': oidcIssuer,
      'oidc-client-id': flags['oidc-client-id'],
      ...(flags['oidc-username-claim'] !== undefined ? { 'oidc-username-claim': flags['oidc-username-claim'] } : {}),
      ...(flags['oidc-username-prefix'] !== undefined ? { 'oidc-username-prefix': flags['oidc-username-prefix'] } : {}),
      ...(flags['oidc-groups-claim'] !== undefined ? { 'oidc-groups-claim': flags['oidc-groups-claim'] } : {}),
      ...(flags['oidc-groups-prefix'] !== undefined ? { 'oidc-groups-prefix': flags['oidc-groups-prefix'] } : {}),
      'oidc-required-claim': list(flags['oidc-required-claim']),
    });
    const algs = list(flags['oidc-signing-algs']);
    jwt.push({ config, algorithms: algs.length ? algs : ['RS256'] });
  }

  let tokenWebhook: AccessConfig['tokenWebhook'];
  const webhookPath = flags['authentication-token-webhook-config-file'];
  if (webhookPath) {
    const endpoint = webhookEndpointFromKubeconfig(await read(readFile, 'authentication-token-webhook-config-file', webhookPath), webhookPath);
    const ttl = parseGoDuration(flags['authentication-token-webhook-cache-ttl'] ?? '2m');
    const version = (flags['authentication-token-webhook-version'] ?? 'v1beta1') === 'v1' ? 'v1' : 'v1beta1';
    tokenWebhook = { ...endpoint, version, cacheTtlMs: ttl ?? 120_000 };
  }

  // The authenticating proxy: kube-apiserver ignores the other --requestheader-* flags without the CA.
  const requestHeader: RequestHeaderConfig | undefined = flags['requestheader-client-ca-file']
    ? {
        usernameHeaders: list(flags['requestheader-username-headers']),
        uidHeaders: list(flags['requestheader-uid-headers']),
        groupHeaders: list(flags['requestheader-group-headers']),
        extraHeaderPrefixes: list(flags['requestheader-extra-headers-prefix']),
        allowedNames: list(flags['requestheader-allowed-names']),
      }
    : undefined;

  // The CA bundles (kube: "unable to load client CA file" at start).
  const loadCA = async (flag: string): Promise<Certificate[] | undefined> => {
    const path = flags[flag];
    if (!path) return undefined;
    const text = await read(readFile, flag, path);
    let certs: Certificate[];
    try {
      certs = parsePemCertificates(text);
    } catch (err) {
      throw new StartupError(`unable to load client CA file: unable to load client CA file "${path}": ${err instanceof Error ? err.message : String(err)}`);
    }
    if (certs.length === 0) throw new StartupError(`unable to load client CA file: unable to load client CA file "${path}": data does not contain any valid RSA or ECDSA certificates`);
    return certs;
  };
  const clientCA = await loadCA('client-ca-file');
  const requestHeaderCA = await loadCA('requestheader-client-ca-file');

  let auditPolicy: AuditPolicy | undefined;
  const auditPolicyPath = flags['audit-policy-file'];
  if (auditPolicyPath) {
    try {
      auditPolicy = parseAuditPolicy(await read(readFile, 'audit-policy-file', auditPolicyPath), auditPolicyPath);
    } catch (err) {
      throw err instanceof StartupError ? err : new StartupError(err instanceof Error ? err.message : String(err));
    }
  }

  return {
    configured,
    ...(auditPolicy ? { auditPolicy } : {}),
    clientCertificates: Boolean(flags['client-ca-file']),
    certificateTrust: { ...(clientCA ? { clientCA } : {}), ...(requestHeaderCA ? { requestHeaderCA } : {}) },
    ...(requestHeader ? { requestHeader } : {}),
    authorizationFromFile: authzFile !== undefined,
    ...(authnFile ? { authenticationFile: authnFile } : {}),
    source: { flags, ...(readFile ? { readFile } : {}), texts },
    authorization,
    abacPolicies,
    authorizationWebhooks,
    ...(tokenFile ? { tokenFile } : {}),
    anonymous,
    bootstrapTokens: parseBool('enable-bootstrap-token-auth', flags['enable-bootstrap-token-auth'], false),
    serviceAccounts: {
      issuers,
      apiAudiences: apiAudiences.length ? apiAudiences : [...issuers],
      lookup: parseBool('service-account-lookup', flags['service-account-lookup'], true),
      maxExpirationSeconds,
      extendExpiration: parseBool('service-account-extend-token-expiration', flags['service-account-extend-token-expiration'], true),
      ...(signingPath ? { signingKeyPem: await read(readFile, 'service-account-signing-key-file', signingPath) } : {}),
      verificationKeyPems,
    },
    jwt,
    ...(tokenWebhook ? { tokenWebhook } : {}),
    warnings,
  };
}
