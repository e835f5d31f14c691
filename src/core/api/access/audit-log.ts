// The audit log: one record per request, newest kept, oldest overwritten (a
// bounded ring). A record keeps what the request carried (request info,
// users, the authentication steps, the authorization decision with its trace,
// the response code) and becomes an audit.k8s.io/v1 Event only when read, so
// recording costs a few field copies on the request path.
//
// Without --audit-policy-file every request is kept at level Metadata: no
// bodies, no headers, so no credential can reach the log (authentication
// errors never contain the token either). With a policy, the level of its
// first matching rule applies (this log, the UI's, keeps every request at
// least at Metadata: its traces are what the UI shows); Request and
// RequestResponse add the bodies, with TokenReview tokens removed.

import { buildAuditEvent, RingBuffer, type AuditEvent, type Decision, type RequestInfo, type UserInfo } from '../../auth';
import type { AuditLevel, AuditStage } from '../../auth/audit/event';
import type { Status } from '../../errors/status';

export interface AuditEntry {
  readonly auditID: string;
  readonly receivedAt: number;
  stageAt: number;
  readonly requestURI: string;
  readonly info: RequestInfo;
  /** The user authentication found (absent: refused, or authentication not configured). */
  user?: UserInfo;
  impersonatedUser?: UserInfo;
  readonly userAgent?: string;
  /** X-Forwarded-For, X-Real-Ip and the connection's address (hosts that know it). */
  readonly sourceIPs?: readonly string[];
  /** How authentication went (absent for the server's own clients, which are not authenticated). */
  authentication?: { authenticator?: string; status: string; steps: { authenticator: string; status: string; error?: string }[] };
  impersonation?: { attributes: unknown; decision: Decision }[];
  decision?: Decision;
  code?: number;
  status?: Status;
  /** Watches are recorded when their response starts. */
  stage: 'ResponseStarted' | 'ResponseComplete';
  deprecated?: boolean;
  /** The audit policy's level for the request (absent: no policy, Metadata). */
  level?: AuditLevel;
  /** Stages the policy leaves out of the audit backends. */
  omitStages?: readonly AuditStage[];
  omitManagedFields?: boolean;
  /** The decoded request body (level Request and above). */
  requestObject?: unknown;
  /** The decoded response body (level RequestResponse). */
  responseObject?: unknown;
  /** Annotations admission added (audit.k8s.io/v1 Event annotations, e.g. pod-security.kubernetes.io/enforce-policy). */
  annotations?: Readonly<Record<string, string>>;
}

/** One item of the KubeTab audit list (see README). */
export interface AuditRecordJson {
  readonly seq: number;
  readonly event: AuditEvent;
  readonly authentication?: AuditEntry['authentication'];
  readonly impersonation?: AuditEntry['impersonation'];
  readonly authorization?: Decision;
}

/**
 * The entry as an audit.k8s.io/v1 Event at `stage` (default: the entry's
 * last). `level` defaults to the entry's, at least Metadata (the UI's log).
 */
export function auditEvent(e: AuditEntry, stage: AuditStage = e.stage, level: AuditLevel = e.level && e.level !== 'None' ? e.level : 'Metadata'): AuditEvent {
  return buildAuditEvent({
    auditID: e.auditID,
    level,
    stage,
    requestURI: e.requestURI,
    requestInfo: e.info,
    ...(e.user ? { user: e.user } : {}),
    ...(e.impersonatedUser ? { impersonatedUser: e.impersonatedUser } : {}),
    ...(e.userAgent ? { userAgent: e.userAgent } : {}),
    ...(e.sourceIPs ? { sourceIPs: e.sourceIPs } : {}),
    receivedAt: e.receivedAt,
    stageAt: e.stageAt,
    ...(e.decision ? { decision: e.decision } : {}),
    ...(e.status ? { responseStatus: e.status } : e.code !== undefined ? { responseStatus: { code: e.code } } : {}),
    ...(e.deprecated ? { deprecated: {} } : {}),
    ...(e.requestObject !== undefined ? { requestObject: e.requestObject } : {}),
    ...(e.responseObject !== undefined ? { responseObject: e.responseObject } : {}),
    ...(e.annotations ? { extraAnnotations: e.annotations } : {}),
  });
}

export class AuditLog {
  private readonly ring: RingBuffer<AuditEntry>;

  constructor(capacity: number) {
    this.ring = new RingBuffer<AuditEntry>(capacity);
  }

  get capacity(): number {
    return this.ring.capacity;
  }

  /** Keeps the entry; it may still be completed (code, stage time) until the response is sent. */
  record(entry: AuditEntry): void {
    this.ring.push(entry);
  }

  /** The sequence number the next record gets. */
  get next(): number {
    return this.ring.next;
  }

  /**
   * Records oldest first. With `since`: those after it, the oldest `limit`
   * (a reader pages forward); without: the newest `limit`.
   */
  list(options: { since?: number; limit?: number } = {}): AuditRecordJson[] {
    const limit = options.limit ?? Infinity;
    let entries = this.ring.list(options.since ?? 0);
    if (options.since !== undefined) entries = entries.slice(0, limit);
    else if (entries.length > limit) entries = entries.slice(entries.length - limit);
    return entries.map(({ seq, value }) => ({
      seq,
      event: auditEvent(value),
      ...(value.authentication ? { authentication: value.authentication } : {}),
      ...(value.impersonation?.length ? { impersonation: value.impersonation } : {}),
      ...(value.decision ? { authorization: value.decision } : {}),
    }));
  }
}
