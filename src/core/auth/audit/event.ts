// audit.k8s.io/v1 Events, as kube-apiserver writes them: one per request and
// stage, with the user (and impersonated user), the object reference, the
// response status, and the annotations authorization adds
// (authorization.k8s.io/decision "allow" | "forbid", authorization.k8s.io/reason)
// and deprecated-API annotations (k8s.io/deprecated, k8s.io/removed-release).
// KubeTab also keeps the decision trace next to the event for the UI; it is
// not part of the audit.k8s.io shape. Credentials never enter an event: no
// headers are recorded and TokenReview tokens are removed from bodies.

import { rfc3339Micro } from '../../clock';
import type { Status } from '../../errors/status';
import type { Decision, RequestInfo, UserInfo } from '../types';

export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

export const DECISION_ANNOTATION = 'authorization.k8s.io/decision';
export const REASON_ANNOTATION = 'authorization.k8s.io/reason';
export const DEPRECATED_ANNOTATION = 'k8s.io/deprecated';
export const REMOVED_RELEASE_ANNOTATION = 'k8s.io/removed-release';

export interface AuditUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface AuditObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: AuditLevel;
  auditID: string;
  stage: AuditStage;
  requestURI: string;
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: AuditObjectReference;
  responseStatus?: Partial<Status> & { metadata: Record<string, never> | object; code?: number };
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** The KubeTab record: the audit event plus the decision trace (not part of audit.k8s.io). */
export interface AuditRecord {
  readonly event: AuditEvent;
  readonly authentication?: { authenticator?: string; steps: { authenticator: string; status: string; error?: string }[] };
  readonly authorization?: Decision;
}

function auditUser(u: UserInfo): AuditUser {
  const out: AuditUser = { username: u.username };
  if (u.uid) out.uid = u.uid;
  if (u.groups.length) out.groups = [...u.groups];
  if (u.extra && Object.keys(u.extra).length) out.extra = Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, [...v]]));
  return out;
}

/** Removes credentials from a body before it is kept (TokenReview spec.token). */
export function redactCredentials(body: unknown): unknown {
  if (!body || typeof body !== 'object') return body;
  const o = body as Record<string, unknown>;
  if (o.kind === 'TokenReview' && o.spec && typeof o.spec === 'object') {
    const spec = { ...(o.spec as Record<string, unknown>) };
    if ('token' in spec) spec.token = '';
    return { ...o, spec };
  }
  return body;
}

export interface AuditEventInput {
  readonly auditID: string;
  readonly level: AuditLevel;
  readonly stage: AuditStage;
  /** Path plus query, as received. */
  readonly requestURI: string;
  readonly requestInfo: RequestInfo;
  /** The authenticated user (before impersonation). */
  readonly user?: UserInfo;
  readonly impersonatedUser?: UserInfo;
  readonly sourceIPs?: readonly string[];
  readonly userAgent?: string;
  readonly receivedAt: number;
  readonly stageAt: number;
  readonly decision?: Decision;
  /** The response: a Status for failures, or just the code. */
  readonly responseStatus?: Status | { code: number };
  readonly requestObject?: unknown;
  readonly responseObject?: unknown;
  readonly deprecated?: { removedRelease?: string };
  readonly extraAnnotations?: Readonly<Record<string, string>>;
}

export function buildAuditEvent(input: AuditEventInput): AuditEvent {
  const info = input.requestInfo;
  const event: AuditEvent = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: input.level,
    auditID: input.auditID,
    stage: input.stage,
    requestURI: input.requestURI,
    verb: info.verb,
    user: input.user ? auditUser(input.user) : {},
    requestReceivedTimestamp: rfc3339Micro(input.receivedAt),
    stageTimestamp: rfc3339Micro(input.stageAt),
  };
  if (input.impersonatedUser) event.impersonatedUser = auditUser(input.impersonatedUser);
  if (input.sourceIPs?.length) event.sourceIPs = [...input.sourceIPs];
  if (input.userAgent) event.userAgent = input.userAgent;
  if (info.isResourceRequest) {
    const ref: AuditObjectReference = {};
    if (info.resource) ref.resource = info.resource;
    if (info.namespace) ref.namespace = info.namespace;
    if (info.name) ref.name = info.name;
    if (info.apiGroup) ref.apiGroup = info.apiGroup;
    if (info.apiVersion) ref.apiVersion = info.apiVersion;
    if (info.subresource) ref.subresource = info.subresource;
    event.objectRef = ref;
  }
  if (input.responseStatus && input.stage !== 'RequestReceived') {
    const rs = input.responseStatus as Partial<Status>;
    const out: AuditEvent['responseStatus'] = { metadata: {} };
    if (rs.status) out.status = rs.status;
    if (rs.message) out.message = rs.message;
    if (rs.reason) out.reason = rs.reason;
    if (rs.details) out.details = rs.details;
    if (rs.code !== undefined) out.code = rs.code;
    event.responseStatus = out;
  }
  if ((input.level === 'Request' || input.level === 'RequestResponse') && input.requestObject !== undefined) {
    event.requestObject = redactCredentials(input.requestObject);
  }
  if (input.level === 'RequestResponse' && input.responseObject !== undefined && input.stage === 'ResponseComplete') {
    event.responseObject = redactCredentials(input.responseObject);
  }
  const annotations: Record<string, string> = { ...(input.extraAnnotations ?? {}) };
  if (input.decision) {
    if (input.decision.decision !== 'Allow' && input.decision.error) {
      // An evaluation error that nobody overrode answers 500: kube records only the reason.
      annotations[REASON_ANNOTATION] = 'internal error';
    } else {
      annotations[DECISION_ANNOTATION] = input.decision.decision === 'Allow' ? 'allow' : 'forbid';
      annotations[REASON_ANNOTATION] = input.decision.reason;
    }
  }
  if (input.deprecated) {
    annotations[DEPRECATED_ANNOTATION] = 'true';
    if (input.deprecated.removedRelease) annotations[REMOVED_RELEASE_ANNOTATION] = input.deprecated.removedRelease;
  }
  if (Object.keys(annotations).length) event.annotations = annotations;
  return event;
}
