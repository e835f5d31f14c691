// The public surface of access control for the API pipeline (src/core/api)
// and the hosts. Everything is pure or takes its dependencies as functions.

export * from './types';
export { requestInfoFor, isValidPathSegmentName } from './request-info';
export { attributesFor, resourceAttributes, nonResourceAttributes } from './attributes';

// Authorization
export { createAuthorizerChain, isAllowed, type AuthorizerChain } from './authorizer/union';
export { createRbacAuthorizer, type RbacAuthorizer } from './authorizer/rbac';
export { createPrivilegedGroupsAuthorizer, createAlwaysAllowAuthorizer, createAlwaysDenyAuthorizer } from './authorizer/simple';
export { createAbacAuthorizer, parseAbacPolicyFile, type AbacPolicy } from './authorizer/abac';
export { createNodeAuthorizer, nodeIdentity, type NodeGraphVertex } from './authorizer/node';
export { createWebhookAuthorizer, subjectAccessReviewSpec, type WebhookTransport, type SubjectAccessReviewJson } from './authorizer/webhook';
export { forbiddenError, forbiddenMessage, forbiddenStatus } from './authorizer/forbidden';
export { ruleAllows, rulesAllow, explainRule } from './authorizer/rule-match';
export { checkRoleWrite, checkBindingWrite, confirmNoEscalation, covers, escalationAllowed, type EscalationDeps } from './authorizer/escalation';
export { validateRoleRefUnchanged } from './authorizer/validation';
export { createMemoryRbacSource, type MemoryRbacSource, type RbacObjects } from './rbac-memory-source';

// Default policy
export { bootstrapPolicy, type BootstrapPolicy } from './bootstrap/policy';
export { aggregateClusterRoles, computeAggregation, aggregatedRules, labelSelectorMatches } from './bootstrap/aggregation';
export { planBootstrapReconcile, reconcileRole, reconcileBinding, type BootstrapWrite, type ExistingRbac } from './bootstrap/reconcile';

// Authentication
export {
  createRequestAuthenticatorChain,
  authnRequestFromHeaders,
  bearerToken,
  unauthorizedError,
  withAuthenticatedGroup,
  anonymousUser,
  type RequestAuthenticatorChain,
  type AuthenticationOutcome,
  type AnonymousConfig,
} from './authn/request-authenticator';
export { impersonate, impersonationRequests, type ImpersonationResult } from './authn/impersonation';
export { parseTokenFile, createStaticTokenAuthenticator } from './authn/token-file';
export { createBootstrapTokenAuthenticator, BOOTSTRAP_TOKEN_SECRET_TYPE } from './authn/bootstrap-token';
export {
  createServiceAccountAuthenticator,
  issueServiceAccountToken,
  issueLegacyServiceAccountToken,
  serviceAccountUsername,
  splitServiceAccountUsername,
  serviceAccountGroups,
  LEGACY_ISSUER,
} from './authn/service-account';
export { generateSigningKey, importSigningKey, importVerificationKey, keysFor, publicJwks, keyIdOf, type ServiceAccountKeys } from './authn/service-account-keys';
export { createJwtAuthenticator, jwtAuthenticatorFromOidcFlags } from './authn/jwt-authenticator';
export { createTestIssuer, type TestIssuer } from './authn/test-issuer';
export { constantTimeEqual } from './authn/constant-time';

export { createTokenRequest, type TokenRequestDeps } from './authn/token-request';
export { createX509Authenticator, createRequestHeaderAuthenticator, type RequestHeaderConfig } from './authn/x509-and-proxy';
export { createTokenWebhookAuthenticator, type TokenWebhookDeps } from './authn/token-webhook';
export { signClusterInfo, computeDetachedSignature, tokenCleanerPlan, signingToken, CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE } from './bootstrap-tokens/signer';

// Review objects
export { createTokenReview } from './review/token-review';
export { createSelfSubjectReview } from './review/self-subject-review';
export {
  createSubjectAccessReview,
  createSelfSubjectAccessReview,
  createLocalSubjectAccessReview,
  createSelfSubjectRulesReview,
  attributesFromSpec,
} from './review/access-review';

// Configuration
export { authorizationConfigurationFromFlags, validateAuthorizationConfiguration, defaultAuthorizationConfiguration } from './config/authorization-config';
export { validateAuthenticationConfiguration, anonymousConflict } from './config/authentication-config';
export { parseGoDuration, formatGoDuration } from './config/duration';
export { buildAuthorizers, buildAuthenticator, effectiveAnonymousAuth } from './setup';
export { compileCel } from './cel/cel';

// Audit
export { buildAuditEvent, redactCredentials, DECISION_ANNOTATION, REASON_ANNOTATION, type AuditEvent, type AuditRecord } from './audit/event';
export { RingBuffer } from './audit/ring-buffer';
