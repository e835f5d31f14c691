// One model of "how the server decided", whether it comes from the audit log
// (a request that was sent: the server's own trace) or from a request composed
// by hand (the server's SubjectAccessReview answer, explained with the RBAC
// objects and the configured authorizer chain). The steps view renders it.

import type { AuditRecord, TraceBinding, TraceStep } from './audit';
import { explainRbac, forbiddenMessage, type RequestAttributes } from './rbac-explain';
import type { RbacObjects } from './rbac-types';

export type StepDecision = 'Allow' | 'Deny' | 'NoOpinion' | 'Unknown';

export interface AuthenticationStep {
  /** ok: a user; refused: 401; skipped: no authentication ran (and why). */
  readonly outcome: 'ok' | 'refused' | 'skipped';
  readonly summary: string;
  readonly attempts: readonly { authenticator: string; status: string; error?: string }[];
  readonly user?: { username?: string; groups?: readonly string[] };
}

export interface ImpersonationStep {
  readonly summary: string;
  readonly checks: readonly { what: string; decision: StepDecision; reason: string }[];
  readonly user?: { username?: string; groups?: readonly string[] };
}

export interface AuthorizerStep {
  readonly type: string;
  readonly name?: string;
  readonly decision: StepDecision;
  readonly reason: string;
  readonly notes: readonly string[];
  readonly error?: string;
  /** RBAC: the bindings that name the user. */
  readonly bindings?: readonly TraceBinding[];
  readonly skippedBindings?: number;
  /** Whether this step is the server's record or explained here from what the API lists. */
  readonly source: 'server' | 'explained';
}

export interface FinalStep {
  readonly decision: StepDecision | 'Unauthorized';
  readonly status: number;
  readonly statusText: string;
  readonly message?: string;
  /** Set when the server's answer and the explanation disagree. */
  readonly mismatch?: string;
  /** An authorizer's evaluation error the review reported. */
  readonly evaluationError?: string;
}

export interface DecisionSteps {
  readonly title: string;
  readonly authentication: AuthenticationStep;
  readonly impersonation?: ImpersonationStep;
  readonly authorizers: readonly AuthorizerStep[];
  readonly final: FinalStep;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

export function statusText(code: number): string {
  return STATUS_TEXT[code] ?? '';
}

function describeAttributes(a: Record<string, unknown>): string {
  const verb = String(a.verb ?? '');
  if (a.resourceRequest === false || a.path && !a.resource) return `${verb} ${String(a.path ?? '')}`;
  const group = a.apiGroup ? `.${String(a.apiGroup)}` : '';
  const name = a.name ? ` ${String(a.name)}` : '';
  const ns = a.namespace ? ` in ${String(a.namespace)}` : '';
  return `${verb} ${String(a.resource ?? '')}${group}${name}${ns}`;
}

function fromTrace(step: TraceStep): AuthorizerStep {
  return {
    type: step.authorizer,
    ...(step.name ? { name: step.name } : {}),
    decision: step.decision,
    reason: step.reason,
    notes: step.notes ?? [],
    ...(step.error ? { error: step.error } : {}),
    ...(step.bindings ? { bindings: step.bindings } : {}),
    ...(step.skippedBindings !== undefined ? { skippedBindings: step.skippedBindings } : {}),
    source: 'server',
  };
}

/** The steps of a request that was sent, from its audit record. */
export function stepsFromAudit(record: AuditRecord): DecisionSteps {
  const { event } = record;
  const code = event.responseStatus?.code ?? 0;
  const authn = record.authentication;
  let authentication: AuthenticationStep;
  if (!authn) {
    authentication = event.user?.username
      ? { outcome: 'skipped', summary: `The server's own client (${event.user.username}): not authenticated over HTTP.`, attempts: [], user: event.user }
      : { outcome: 'skipped', summary: 'Authentication is not configured: the request carried no credentials and was served with no user.', attempts: [] };
  } else if (authn.status === 'ok') {
    authentication = { outcome: 'ok', summary: `Authenticated by ${authn.authenticator ?? 'an authenticator'} as ${event.user.username ?? '?'}.`, attempts: authn.steps, user: event.user };
  } else {
    authentication = { outcome: 'refused', summary: authn.status === 'none' ? 'No authenticator accepted the request: 401 Unauthorized.' : 'The credentials were refused: 401 Unauthorized.', attempts: authn.steps };
  }
  const impersonation: ImpersonationStep | undefined = record.impersonation?.length
    ? {
        summary: event.impersonatedUser ? `${event.user.username ?? '?'} acts as ${event.impersonatedUser.username ?? '?'}.` : 'Impersonation was refused.',
        checks: record.impersonation.map((c) => ({ what: describeAttributes(c.attributes), decision: c.decision.decision, reason: c.decision.reason })),
        ...(event.impersonatedUser ? { user: event.impersonatedUser } : {}),
      }
    : undefined;
  const authorizers = (record.authorization?.trace ?? []).map(fromTrace);
  const decision = authentication.outcome === 'refused' ? 'Unauthorized' : record.authorization?.decision ?? 'Unknown';
  return {
    title: `${event.verb} ${event.requestURI}`,
    authentication,
    ...(impersonation ? { impersonation } : {}),
    authorizers,
    final: { decision, status: code, statusText: statusText(code), ...(event.responseStatus?.message ? { message: event.responseStatus.message } : {}) },
  };
}

/** What the SubjectAccessReview answered (status of authorization.k8s.io/v1). */
export interface ReviewAnswer {
  readonly allowed: boolean;
  readonly denied?: boolean;
  readonly reason?: string;
  readonly evaluationError?: string;
}

/** The configured chain as the server runs it: system:masters first, then the configuration's authorizers. */
export interface ChainEntry {
  readonly type: string;
  readonly name?: string;
}

function explainAuthorizer(entry: ChainEntry, attrs: RequestAttributes, rbac: RbacObjects): AuthorizerStep {
  const base = { type: entry.type, ...(entry.name ? { name: entry.name } : {}), source: 'explained' as const };
  switch (entry.type) {
    case 'Privileged':
      return attrs.groups.includes('system:masters')
        ? { ...base, decision: 'Allow', reason: '', notes: ['the user is in system:masters, which every request is allowed to'] }
        : { ...base, decision: 'NoOpinion', reason: '', notes: ['the user is not in system:masters'] };
    case 'Node':
      return attrs.user.startsWith('system:node:') && attrs.groups.includes('system:nodes')
        ? { ...base, decision: 'Unknown', reason: '', notes: ['a node: the Node authorizer decides from the graph of its pods, secrets and volumes (see the server\'s answer)'] }
        : { ...base, decision: 'NoOpinion', reason: '', notes: ['not a node (a node is system:node:<name> in system:nodes)'] };
    case 'RBAC': {
      const explained = explainRbac(attrs, rbac);
      return {
        ...base,
        decision: explained.allowed ? 'Allow' : 'NoOpinion',
        reason: explained.reason,
        notes: explained.bindings.length ? [] : ['no binding names the user or one of its groups'],
        bindings: explained.bindings.map((b) => ({
          kind: b.kind,
          name: b.name,
          ...(b.namespace ? { namespace: b.namespace } : {}),
          roleRef: b.roleRef,
          subjectMatched: true,
          subject: b.subject,
          why: b.subjectWhy,
          role: { kind: b.role.kind, name: b.role.name, ...(b.role.namespace ? { namespace: b.role.namespace } : {}), found: b.role.found, ...(b.role.found ? {} : { error: `${b.role.kind.toLowerCase()}.rbac.authorization.k8s.io ${JSON.stringify(b.role.name)} not found` }), rules: [...b.role.rules] },
        })),
      };
    }
    case 'AlwaysAllow':
      return { ...base, decision: 'Allow', reason: '', notes: ['allows every request'] };
    case 'AlwaysDeny':
      return { ...base, decision: 'Deny', reason: '', notes: ['denies every request'] };
    default:
      return { ...base, decision: 'Unknown', reason: '', notes: [`a ${entry.type} authorizer: only the server can ask it (see the server's answer)`] };
  }
}

/**
 * The steps of a request composed by hand: the chain walked with what the API
 * lists, stopped at the first authorizer that allows or denies, and the
 * server's own answer (a SubjectAccessReview) as the final word.
 */
export function stepsFromReview(attrs: RequestAttributes, chain: readonly ChainEntry[], rbac: RbacObjects, answer: ReviewAnswer): DecisionSteps {
  const authorizers: AuthorizerStep[] = [];
  for (const entry of chain) {
    const step = explainAuthorizer(entry, attrs, rbac);
    authorizers.push(step);
    if (step.decision === 'Allow' || step.decision === 'Deny' || step.decision === 'Unknown') break;
  }
  const last = authorizers[authorizers.length - 1];
  const explainedAllow = last?.decision === 'Allow';
  const decided = last?.decision === 'Unknown' ? undefined : explainedAllow;
  const create = attrs.verb === 'create';
  const status = answer.allowed ? (create ? 201 : 200) : 403;
  const mismatch =
    decided !== undefined && decided !== answer.allowed
      ? `The server ${answer.allowed ? 'allows' : 'does not allow'} this, but the explanation from the listed objects ${decided ? 'allows' : 'does not'}: an object may have changed since they were listed.`
      : undefined;
  const reason = answer.reason ?? '';
  const target = attrs.resource
    ? `${attrs.verb} ${attrs.resource.resource}${attrs.resource.subresource ? `/${attrs.resource.subresource}` : ''}${attrs.resource.group ? `.${attrs.resource.group}` : ''}${attrs.resource.name ? ` ${attrs.resource.name}` : ''}${attrs.resource.namespace ? ` in ${attrs.resource.namespace}` : ''}`
    : `${attrs.verb} ${attrs.path ?? ''}`;
  return {
    title: `${attrs.user} — ${target}`,
    authentication: {
      outcome: 'skipped',
      summary: 'A SubjectAccessReview names the user and groups itself: no credentials are checked, the authorizers are asked directly.',
      attempts: [],
      user: { username: attrs.user, groups: attrs.groups },
    },
    authorizers,
    final: {
      decision: answer.allowed ? 'Allow' : answer.denied ? 'Deny' : 'NoOpinion',
      status,
      statusText: statusText(status),
      message: answer.allowed ? reason || 'allowed' : forbiddenMessage(attrs, reason),
      ...(answer.evaluationError ? { evaluationError: answer.evaluationError } : {}),
      ...(mismatch ? { mismatch } : {}),
    },
  };
}

/** The chain a configuration document sets up (kube's default AlwaysAllow when it names none). */
export function chainOf(authorization: Record<string, unknown> | undefined): ChainEntry[] {
  const configured = ((authorization?.authorizers as Array<{ type: string; name?: string }> | undefined) ?? [{ type: 'AlwaysAllow', name: 'alwaysallow' }]).map((a) => ({
    type: a.type,
    ...(a.name ? { name: a.name } : {}),
  }));
  return [{ type: 'Privileged', name: 'system:masters' }, ...configured];
}
