// Access control wired into the API server (see README.md): configuration
// from flags, the request filters, the RBAC cache and write checks, the
// default policy, the review handlers and the audit log.

export { loadAccessConfig, StartupError, DEFAULT_SERVICE_ACCOUNT_ISSUER, type AccessConfig } from './config';
export { createAccessControl, type AccessControl } from './access-control';
export { auditResponse } from './audit-stages';
export { admit, beginAudit, internalErrorResponse, type Admission, type InternalClient } from './filter';
export { identityForUserAgent, internalClientFor, APISERVER_USER, CONTROLLER_MANAGER_USER } from './internal-identities';
export { reconcileBootstrapPolicy, APISERVER_USER_AGENT } from './bootstrap-policy';
export { withRbacWriteChecks } from './rbac-write-checks';
export { handleAuditEndpoint, AUDIT_PATH } from './audit-endpoint';
export { AuditLog, type AuditRecordJson } from './audit-log';
export { newAuditId } from './audit-id';
export { handleTestIssuer, isTestIssuerPath, TEST_ISSUER_PATH, TEST_ISSUER_URL } from './test-issuer-endpoint';
export { handleIssuerDiscovery, OPENID_CONFIGURATION_PATH, JWKS_PATH } from './issuer-discovery';
export { attachPeerCertificates, attachRemoteAddress, peerCertificatesOf, CLIENT_CERTIFICATE_HEADER, type PeerCertificates, type VerifiedCertificateSubject } from './peer-certificates';
