// The Webhook authorizer (plugin/pkg/authorizer/webhook): the request is
// described as a SubjectAccessReview (v1 or v1beta1, where `groups` is
// `group`), filtered by CEL matchConditions, sent through a transport, and
// the answer cached (authorizedTTL for allowed, unauthorizedTTL otherwise).
// - allowed → Allow; denied → Deny (both → Deny with an error); else NoOpinion;
// - a failed call, a malformed answer, a timeout, or a matchCondition that
//   errors (none being false) → failurePolicy's decision (NoOpinion or Deny)
//   with the error, which makes kube answer 500 unless someone else allows;
// - a matchCondition that is false skips the webhook (NoOpinion).
// The transport is a dependency: fetch to a URL under Node, a URL or an in-app
// rule set in the browser.

import { compileCel, type CompiledExpression } from '../cel/cel';
import { parseGoDuration } from '../config/duration';
import type { Clock } from '../../clock';
import type { Attributes, Authorizer, DecisionValue, TraceStep, WebhookAuthorizerConfiguration } from '../types';

export type SubjectAccessReviewJson = {
  apiVersion: string;
  kind: 'SubjectAccessReview';
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
};

export interface WebhookTransport {
  /** Posts the review; resolves with the decoded response body. Must honour the abort signal. */
  send(review: SubjectAccessReviewJson, signal: AbortSignal): Promise<unknown>;
}

export interface WebhookAuthorizerDeps {
  readonly name: string;
  readonly config: WebhookAuthorizerConfiguration;
  readonly transport: WebhookTransport;
  readonly clock: Clock;
  /** AuthorizeWithSelectors (default true in 1.32): pass parsed selector requirements. */
  readonly authorizeWithSelectors?: boolean;
}

/** The v1 SubjectAccessReview spec kube sends for these attributes. */
export function subjectAccessReviewSpec(attrs: Attributes, withSelectors = true): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  if (attrs.resourceRequest) {
    const ra: Record<string, unknown> = {};
    if (attrs.namespace) ra.namespace = attrs.namespace;
    if (attrs.verb) ra.verb = attrs.verb;
    if (attrs.apiGroup) ra.group = attrs.apiGroup;
    if (attrs.apiVersion) ra.version = attrs.apiVersion;
    if (attrs.resource) ra.resource = attrs.resource;
    if (attrs.subresource) ra.subresource = attrs.subresource;
    if (attrs.name) ra.name = attrs.name;
    if (withSelectors && attrs.fieldSelectorRequirements?.length) ra.fieldSelector = { requirements: attrs.fieldSelectorRequirements.map((r) => ({ ...r })) };
    if (withSelectors && attrs.labelSelectorRequirements?.length) ra.labelSelector = { requirements: attrs.labelSelectorRequirements.map((r) => ({ ...r })) };
    spec.resourceAttributes = ra;
  } else {
    spec.nonResourceAttributes = { path: attrs.path, verb: attrs.verb };
  }
  if (attrs.user.username) spec.user = attrs.user.username;
  if (attrs.user.groups.length) spec.groups = [...attrs.user.groups];
  if (attrs.user.extra && Object.keys(attrs.user.extra).length) spec.extra = Object.fromEntries(Object.entries(attrs.user.extra).map(([k, v]) => [k, [...v]]));
  if (attrs.user.uid) spec.uid = attrs.user.uid;
  return spec;
}

/** The `request` variable of matchConditions: the v1 spec with unset strings as "" (proto semantics). */
function celRequest(spec: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { user: '', groups: [], extra: {}, uid: '', ...spec };
  if (spec.resourceAttributes) {
    out.resourceAttributes = { namespace: '', verb: '', group: '', version: '', resource: '', subresource: '', name: '', ...(spec.resourceAttributes as object) };
  }
  if (spec.nonResourceAttributes) out.nonResourceAttributes = { path: '', verb: '', ...(spec.nonResourceAttributes as object) };
  return out;
}

function versioned(spec: Record<string, unknown>, version: 'v1' | 'v1beta1'): SubjectAccessReviewJson {
  if (version === 'v1') return { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec };
  const { groups, ...rest } = spec;
  return { apiVersion: 'authorization.k8s.io/v1beta1', kind: 'SubjectAccessReview', spec: groups ? { ...rest, group: groups } : rest };
}

interface CachedStatus {
  allowed: boolean;
  denied: boolean;
  reason: string;
  expires: number;
}

export interface WebhookAuthorizer extends Authorizer {
  authorize(attrs: Attributes): Promise<TraceStep>;
}

export function createWebhookAuthorizer(deps: WebhookAuthorizerDeps): WebhookAuthorizer {
  const cfg = deps.config;
  const onError: DecisionValue = cfg.failurePolicy === 'Deny' ? 'Deny' : 'NoOpinion';
  const timeoutMs = parseGoDuration(cfg.timeout) ?? 30_000;
  const authorizedTtl = parseGoDuration(cfg.authorizedTTL ?? '5m0s') ?? 300_000;
  const unauthorizedTtl = parseGoDuration(cfg.unauthorizedTTL ?? '30s') ?? 30_000;
  const conditions: CompiledExpression[] = [];
  for (const c of cfg.matchConditions ?? []) {
    const r = compileCel('request', c.expression, 'bool');
    if (!r.compiled) throw new Error(`matchConditions: ${c.expression}: ${r.error}`);
    conditions.push(r.compiled);
  }
  const cache = new Map<string, CachedStatus>();
  const base = { authorizer: 'Webhook', name: deps.name };
  const step = (decision: DecisionValue, reason: string, notes: string[], error?: string): TraceStep => ({
    ...base,
    decision,
    reason,
    notes,
    ...(error ? { error } : {}),
  });

  async function call(review: SubjectAccessReviewJson): Promise<unknown> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new Error('timeout'));
        reject(new Error(`webhook did not answer within ${cfg.timeout}`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([deps.transport.send(review, controller.signal), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function authorize(attrs: Attributes): Promise<TraceStep> {
    const spec = subjectAccessReviewSpec(attrs, deps.authorizeWithSelectors ?? true);
    if (conditions.length) {
      const request = celRequest(spec);
      const errors: string[] = [];
      for (const c of conditions) {
        try {
          const v = c.evaluate(request);
          if (v === false) return step('NoOpinion', '', [`matchCondition ${JSON.stringify(c.expression)} is false: webhook skipped`]);
          if (v !== true) errors.push(`matchCondition ${JSON.stringify(c.expression)} did not evaluate to a bool`);
        } catch (err) {
          errors.push(`matchCondition ${JSON.stringify(c.expression)}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
        }
      }
      if (errors.length) return step(onError, '', [`failurePolicy ${cfg.failurePolicy} applied`], errors.join(', '));
    }
    const key = JSON.stringify(spec);
    const now = deps.clock.now();
    let status = cache.get(key);
    const notes: string[] = [];
    if (status && status.expires > now) {
      notes.push('answer from cache');
    } else {
      let body: unknown;
      try {
        body = await call(versioned(spec, cfg.subjectAccessReviewVersion === 'v1' ? 'v1' : 'v1beta1'));
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        return step(onError, '', [`webhook call failed; failurePolicy ${cfg.failurePolicy} applied`], `Failed to make webhook authorizer request: ${message}`);
      }
      const s = (body as { status?: unknown } | null)?.status;
      if (!body || typeof body !== 'object' || (s !== undefined && (typeof s !== 'object' || s === null))) {
        return step(onError, '', [`malformed webhook answer; failurePolicy ${cfg.failurePolicy} applied`], 'webhook returned a malformed SubjectAccessReview');
      }
      const st = (s ?? {}) as { allowed?: unknown; denied?: unknown; reason?: unknown };
      if ((st.allowed !== undefined && typeof st.allowed !== 'boolean') || (st.denied !== undefined && typeof st.denied !== 'boolean')) {
        return step(onError, '', [`malformed webhook answer; failurePolicy ${cfg.failurePolicy} applied`], 'webhook returned a malformed SubjectAccessReview');
      }
      status = {
        allowed: st.allowed === true,
        denied: st.denied === true,
        reason: typeof st.reason === 'string' ? st.reason : '',
        expires: now + (st.allowed === true ? authorizedTtl : unauthorizedTtl),
      };
      cache.set(key, status);
      notes.push('webhook called');
    }
    if (status.allowed && status.denied) return step('Deny', status.reason, notes, 'webhook subject access review returned both allow and deny response');
    if (status.denied) return step('Deny', status.reason, notes);
    if (status.allowed) return step('Allow', status.reason, notes);
    return step('NoOpinion', status.reason, notes);
  }

  return {
    type: 'Webhook',
    name: deps.name,
    authorize,
    rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' }),
  };
}
