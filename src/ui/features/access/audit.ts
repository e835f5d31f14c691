// KubeTab's audit endpoint (GET /kubetab/v1/audit): one record per request
// with its audit.k8s.io/v1 Event, how authentication went, the impersonation
// checks and the authorization decision with its trace. Read as the
// administrator: reading it needs `get` on that path, which system:masters has.

import { administratorIdentity } from '../../lib/api/administrator';
import { apiJson } from '../../lib/api/client';

export interface AuditUser {
  username?: string;
  uid?: string;
  groups?: string[];
}

export interface TraceRule {
  index: number;
  rule: { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; nonResourceURLs?: string[] };
  matched: boolean;
  why: string;
}

export interface TraceBinding {
  kind: 'ClusterRoleBinding' | 'RoleBinding';
  name: string;
  namespace?: string;
  roleRef: { kind: string; name: string };
  subjectMatched: boolean;
  subject?: { kind: string; name: string; namespace?: string };
  why: string;
  role?: { kind: string; name: string; namespace?: string; found: boolean; error?: string; rules: TraceRule[] };
}

export interface TraceStep {
  authorizer: string;
  name?: string;
  decision: 'Allow' | 'Deny' | 'NoOpinion';
  reason: string;
  bindings?: TraceBinding[];
  skippedBindings?: number;
  notes?: string[];
  error?: string;
}

export interface Decision {
  decision: 'Allow' | 'Deny' | 'NoOpinion';
  reason: string;
  trace: TraceStep[];
  error?: string;
}

export interface AuditRecord {
  seq: number;
  event: {
    auditID: string;
    stage: string;
    requestURI: string;
    verb: string;
    user: AuditUser;
    impersonatedUser?: AuditUser;
    userAgent?: string;
    objectRef?: { resource?: string; namespace?: string; name?: string; apiGroup?: string; apiVersion?: string; subresource?: string };
    responseStatus?: { code?: number; message?: string; reason?: string; status?: string };
    requestReceivedTimestamp: string;
    annotations?: Record<string, string>;
  };
  authentication?: { authenticator?: string; status: string; steps: { authenticator: string; status: string; error?: string }[] };
  impersonation?: { attributes: Record<string, unknown>; decision: Decision }[];
  authorization?: Decision;
}

export interface AuditPage {
  items: AuditRecord[];
  metadata: { next: number; capacity: number };
}

export const AUDIT_PATH = '/kubetab/v1/audit';

/** The newest `limit` records, or those after `since` (oldest first). */
export function fetchAudit(options: { since?: number; limit?: number } = {}): Promise<AuditPage> {
  return apiJson<AuditPage>(AUDIT_PATH, { query: { since: options.since, limit: options.limit }, identity: administratorIdentity() });
}

/** The user a request was served as (the impersonated one when there is one). */
export function effectiveUser(record: AuditRecord): AuditUser {
  return record.event.impersonatedUser ?? record.event.user;
}
