// The vocabulary of access control, shared by authenticators, authorizers,
// the review objects and the audit log. Names follow k8s.io/apiserver
// (user.Info, authorizer.Attributes, authorizer.Decision) so the upstream code
// can be read side by side; field names follow the JSON of the API objects.

// ---------------------------------------------------------------------------
// Who is asking
// ---------------------------------------------------------------------------

/** user.Info: who a request is made by. Values are opaque to authentication. */
export interface UserInfo {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  /** Must never carry secrets: it ends up in audit records and admission reviews. */
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** Well-known user and group names (k8s.io/apiserver/pkg/authentication/user). */
export const USER = {
  anonymous: 'system:anonymous',
  apiserver: 'system:apiserver',
  kubeProxy: 'system:kube-proxy',
  kubeControllerManager: 'system:kube-controller-manager',
  kubeScheduler: 'system:kube-scheduler',
} as const;
export const GROUP = {
  masters: 'system:masters',
  nodes: 'system:nodes',
  monitoring: 'system:monitoring',
  authenticated: 'system:authenticated',
  unauthenticated: 'system:unauthenticated',
  serviceAccounts: 'system:serviceaccounts',
  bootstrappers: 'system:bootstrappers',
} as const;

// ---------------------------------------------------------------------------
// What is asked: request info and authorizer attributes
// ---------------------------------------------------------------------------

/** request.RequestInfo: what the URL and method say, before anyone is known. */
export interface RequestInfo {
  readonly isResourceRequest: boolean;
  /** The URL path as sent. */
  readonly path: string;
  /** API verb for resource requests; the lower-case HTTP method otherwise. */
  readonly verb: string;
  /** 'api' or 'apis' for resource requests, else ''. */
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** Path segments from the resource on (resource, name, subresource, …). */
  readonly parts: readonly string[];
  /**
   * Parsed selectors of list/watch/deletecollection (AuthorizeWithSelectors):
   * set only when the verb came from the HTTP method and the query had one.
   */
  readonly fieldSelectorRequirements?: readonly SelectorRequirement[];
  readonly fieldSelectorParsingError?: string;
  readonly labelSelectorRequirements?: readonly SelectorRequirement[];
  readonly labelSelectorParsingError?: string;
}

/**
 * One parsed selector requirement as authorization.k8s.io/v1 writes it
 * (FieldSelectorRequirement / LabelSelectorRequirement).
 */
export interface SelectorRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values?: readonly string[];
}

/**
 * authorizer.Attributes: everything an authorizer may look at. Resource
 * requests carry verb/namespace/apiGroup/apiVersion/resource/subresource/name;
 * non-resource requests carry path and the lower-case HTTP verb.
 */
export interface Attributes {
  readonly user: UserInfo;
  readonly verb: string;
  readonly resourceRequest: boolean;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** Request path, meaningful for non-resource requests. */
  readonly path: string;
  readonly fieldSelectorRequirements?: readonly SelectorRequirement[];
  readonly fieldSelectorParsingError?: string;
  readonly labelSelectorRequirements?: readonly SelectorRequirement[];
  readonly labelSelectorParsingError?: string;
}

/** Verbs that only read (authorizer.AttributesRecord.IsReadOnly). */
export function isReadOnly(attrs: Pick<Attributes, 'verb'>): boolean {
  return attrs.verb === 'get' || attrs.verb === 'list' || attrs.verb === 'watch';
}

// ---------------------------------------------------------------------------
// The answer, with a trace the UI can step through
// ---------------------------------------------------------------------------

export type DecisionValue = 'Allow' | 'Deny' | 'NoOpinion';

/** The outcome of one authorization, with the steps that led to it. */
export interface Decision {
  readonly decision: DecisionValue;
  /** kube's reason string (empty when the deciding authorizer gave none). */
  readonly reason: string;
  /** One step per authorizer asked, in order; the last one decided (or all had no opinion). */
  readonly trace: TraceStep[];
  /** An evaluation error (kube answers 500 when the decision is not Allow and this is set). */
  readonly error?: string;
}

/** What one authorizer in the chain answered. */
export interface TraceStep {
  /** The authorizer type: 'Privileged', 'RBAC', 'Node', 'ABAC', 'AlwaysAllow', 'AlwaysDeny', 'Webhook'. */
  readonly authorizer: string;
  /** The configured name (AuthorizationConfiguration authorizers[].name) when there is one. */
  readonly name?: string;
  readonly decision: DecisionValue;
  readonly reason: string;
  /** RBAC: the bindings looked at, in the order RBAC visits them. */
  readonly bindings?: BindingTrace[];
  /** RBAC: how many bindings were not looked at because none of their subjects can be the user (matched mode). */
  readonly skippedBindings?: number;
  /** Free-form explanations (ABAC line numbers, Node authorizer reasons, webhook answers, …). */
  readonly notes?: string[];
  /** An evaluation error (webhook unreachable, …): kube answers 500 unless a later authorizer allows. */
  readonly error?: string;
}

/** How much detail RBAC records: the fast default, or every binding. */
export type TraceMode = 'off' | 'matched' | 'full';

export interface BindingTrace {
  readonly kind: 'ClusterRoleBinding' | 'RoleBinding';
  readonly name: string;
  readonly namespace?: string;
  readonly roleRef: RoleRef;
  /** Whether one of the binding's subjects is the user, and why (or why not). */
  readonly subjectMatched: boolean;
  readonly subject?: Subject;
  readonly why: string;
  /** Present when the subject matched: the role that was looked up and its rules. */
  readonly role?: RoleTrace;
}

export interface RoleTrace {
  readonly kind: 'Role' | 'ClusterRole';
  readonly name: string;
  readonly namespace?: string;
  readonly found: boolean;
  /** Lookup failure as kube words it, e.g. `clusterrole.rbac.authorization.k8s.io "x" not found`. */
  readonly error?: string;
  readonly rules: RuleTrace[];
}

export interface RuleTrace {
  readonly index: number;
  readonly rule: PolicyRule;
  readonly matched: boolean;
  /** Which part of the rule failed ("verb \"list\" not in [get]") or "matches". */
  readonly why: string;
}

/** An authorizer: one link of the chain. */
export interface Authorizer {
  /** For the trace. */
  readonly type: string;
  readonly name?: string;
  authorize(attrs: Attributes, options?: AuthorizeOptions): TraceStep | Promise<TraceStep>;
  /** For SelfSubjectRulesReview: the rules this authorizer grants the user in a namespace (if it can list them). */
  rulesFor?(user: UserInfo, namespace: string): RulesResult | Promise<RulesResult>;
}

/** An authorizer that answers at once (all but webhooks). */
export interface SyncAuthorizer extends Authorizer {
  authorize(attrs: Attributes, options?: AuthorizeOptions): TraceStep;
}

export interface AuthorizeOptions {
  readonly trace?: TraceMode;
}

/** authorizer.RuleResolver's answer, in the shape of SelfSubjectRulesReview status. */
export interface RulesResult {
  readonly resourceRules: ResourceRule[];
  readonly nonResourceRules: NonResourceRule[];
  readonly incomplete: boolean;
  readonly evaluationError?: string;
}
export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}
export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

// ---------------------------------------------------------------------------
// RBAC objects (rbac.authorization.k8s.io/v1), as JSON
// ---------------------------------------------------------------------------

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount' | string;
  name: string;
  apiGroup?: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: 'Role' | 'ClusterRole' | string;
  name: string;
}

export interface RbacMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [extra: string]: unknown;
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelector[];
}

export interface Role {
  apiVersion?: string;
  kind?: 'Role';
  metadata: RbacMeta;
  rules: PolicyRule[] | null;
}

export interface ClusterRole {
  apiVersion?: string;
  kind?: 'ClusterRole';
  metadata: RbacMeta;
  rules: PolicyRule[] | null;
  aggregationRule?: AggregationRule;
}

export interface RoleBinding {
  apiVersion?: string;
  kind?: 'RoleBinding';
  metadata: RbacMeta;
  subjects?: Subject[];
  roleRef: RoleRef;
}

export interface ClusterRoleBinding {
  apiVersion?: string;
  kind?: 'ClusterRoleBinding';
  metadata: RbacMeta;
  subjects?: Subject[];
  roleRef: RoleRef;
}

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
export const BOOTSTRAPPING_LABEL = 'kubernetes.io/bootstrapping';

/**
 * Where RBAC reads its objects. Synchronous on purpose: the API layer keeps
 * them in memory (an informer-like cache), as kube-apiserver does. Return the
 * same array instance while nothing changed: the authorizer indexes bindings
 * by subject and reuses the index as long as the array is the same.
 */
export interface RbacSource {
  listClusterRoleBindings(): readonly ClusterRoleBinding[];
  listRoleBindings(namespace: string): readonly RoleBinding[];
  getClusterRole(name: string): ClusterRole | undefined;
  getRole(namespace: string, name: string): Role | undefined;
}

// ---------------------------------------------------------------------------
// Authentication
// ---------------------------------------------------------------------------

/** What an authenticator needs from the HTTP request (never the body). */
export interface AuthnRequest {
  /** Header lookup, case-insensitive (Fetch Headers semantics). */
  header(name: string): string | null;
  /** All header names present (lower-case), for Impersonate-Extra-* and request-header extras. */
  headerNames(): readonly string[];
  /** All values of a header that may repeat (Impersonate-Group). */
  headerValues(name: string): readonly string[];
  readonly path: string;
  /** Client certificate verified by the host against --client-ca-file. */
  readonly clientCertificate?: { readonly commonName: string; readonly organizations: readonly string[] };
  /**
   * The authenticating proxy's certificate, verified by the host against
   * --requestheader-client-ca-file (under Node from TLS, in the browser from the
   * header reserved for it). Absent: request headers are not trusted.
   */
  readonly requestHeaderCertificate?: { readonly commonName: string };
}

/** authenticator.Response plus how it was decided, for the trace and the audit log. */
export interface AuthnResult {
  /** 'ok': a user; 'none': no authenticator recognised the credentials; 'error': credentials refused. */
  readonly status: 'ok' | 'none' | 'error';
  readonly user?: UserInfo;
  /** Audiences the token is valid for (TokenReview status.audiences). */
  readonly audiences?: readonly string[];
  /** Which authenticator decided. */
  readonly authenticator?: string;
  /** Why it failed; never contains the credential itself. */
  readonly error?: string;
}

/** A bearer-token authenticator (authenticator.Token). */
export interface TokenAuthenticator {
  readonly name: string;
  /**
   * 'none' when the token is not of this authenticator's kind (the next one is
   * tried); 'error' when it is but is not valid.
   */
  authenticateToken(token: string, audiences?: readonly string[]): AuthnResult | Promise<AuthnResult>;
}

/** A request authenticator (authenticator.Request). */
export interface RequestAuthenticator {
  readonly name: string;
  authenticateRequest(req: AuthnRequest): AuthnResult | Promise<AuthnResult>;
}

// ---------------------------------------------------------------------------
// Configuration documents (apiserver.config.k8s.io): next round slots in here
// ---------------------------------------------------------------------------

/** AuthenticationConfiguration (apiserver.config.k8s.io/v1beta1). */
export interface AuthenticationConfiguration {
  apiVersion: 'apiserver.config.k8s.io/v1beta1' | 'apiserver.config.k8s.io/v1alpha1' | 'apiserver.config.k8s.io/v1';
  kind: 'AuthenticationConfiguration';
  jwt?: JWTAuthenticator[];
  anonymous?: { enabled: boolean; conditions?: { path: string }[] };
}

export interface JWTAuthenticator {
  issuer: {
    url: string;
    discoveryURL?: string;
    certificateAuthority?: string;
    audiences: string[];
    audienceMatchPolicy?: 'MatchAny';
  };
  claimValidationRules?: { claim?: string; requiredValue?: string; expression?: string; message?: string }[];
  claimMappings: {
    username: { claim?: string; prefix?: string; expression?: string };
    groups?: { claim?: string; prefix?: string; expression?: string };
    uid?: { claim?: string; expression?: string };
    extra?: { key: string; valueExpression: string }[];
  };
  userValidationRules?: { expression: string; message?: string }[];
}

/** AuthorizationConfiguration (apiserver.config.k8s.io/v1). */
export interface AuthorizationConfiguration {
  apiVersion: 'apiserver.config.k8s.io/v1' | 'apiserver.config.k8s.io/v1beta1' | 'apiserver.config.k8s.io/v1alpha1';
  kind: 'AuthorizationConfiguration';
  authorizers: AuthorizerConfiguration[];
}

export interface AuthorizerConfiguration {
  type: 'Webhook' | 'Node' | 'RBAC' | 'ABAC' | 'AlwaysAllow' | 'AlwaysDeny' | string;
  name: string;
  webhook?: WebhookAuthorizerConfiguration;
}

export interface WebhookAuthorizerConfiguration {
  /** Durations as Go writes them ("5m0s", "30s"). */
  authorizedTTL?: string;
  unauthorizedTTL?: string;
  timeout: string;
  subjectAccessReviewVersion: 'v1' | 'v1beta1';
  matchConditionSubjectAccessReviewVersion: 'v1';
  failurePolicy: 'NoOpinion' | 'Deny';
  connectionInfo: { type: 'KubeConfigFile' | 'InClusterConfig'; kubeConfigFile?: string };
  matchConditions?: { expression: string }[];
}
