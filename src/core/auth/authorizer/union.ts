// The authorizer chain (union.New): authorizers are asked in order; the first
// Allow or Deny decides; when all have no opinion the request is denied, with
// the reasons of all of them joined by newlines. The rule resolvers are
// unioned the same way for SelfSubjectRulesReview.

import type { Attributes, AuthorizeOptions, Authorizer, Decision, RulesResult, TraceStep, UserInfo } from '../types';

export interface AuthorizerChain {
  readonly authorizers: readonly Authorizer[];
  authorize(attrs: Attributes, options?: AuthorizeOptions): Promise<Decision>;
  rulesFor(user: UserInfo, namespace: string): Promise<RulesResult>;
}

export function createAuthorizerChain(authorizers: readonly Authorizer[]): AuthorizerChain {
  return {
    authorizers,
    async authorize(attrs, options) {
      const trace: TraceStep[] = [];
      const reasons: string[] = [];
      const errors: string[] = [];
      for (const authorizer of authorizers) {
        let step: TraceStep;
        try {
          step = await authorizer.authorize(attrs, options);
        } catch (err) {
          // An authorizer that fails has no opinion; its error is kept for the caller (500 unless someone allows).
          const message = err instanceof Error ? err.message : String(err);
          errors.push(message);
          step = { authorizer: authorizer.type, ...(authorizer.name ? { name: authorizer.name } : {}), decision: 'NoOpinion', reason: '', notes: [`error: ${message}`] };
        }
        trace.push(step);
        if (step.error) errors.push(step.error);
        if (step.reason) reasons.push(step.reason);
        if (step.decision !== 'NoOpinion') {
          // A Deny that comes with an error (failurePolicy Deny) still answers 500, as in kube.
          return step.error && step.decision === 'Deny'
            ? { decision: step.decision, reason: step.reason, trace, error: step.error }
            : { decision: step.decision, reason: step.reason, trace };
        }
      }
      const decision: Decision = { decision: 'NoOpinion', reason: reasons.join('\n'), trace };
      return errors.length ? { ...decision, error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` } : decision;
    },
    async rulesFor(user, namespace) {
      const result: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
      const errors: string[] = [];
      let incomplete = false;
      for (const authorizer of authorizers) {
        if (!authorizer.rulesFor) continue;
        const r = await authorizer.rulesFor(user, namespace);
        result.resourceRules.push(...r.resourceRules);
        result.nonResourceRules.push(...r.nonResourceRules);
        if (r.incomplete) incomplete = true;
        if (r.evaluationError) errors.push(r.evaluationError);
      }
      const out: RulesResult = { ...result, incomplete };
      return errors.length ? { ...out, evaluationError: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` } : out;
    },
  };
}

/** Whether a chain's decision lets the request through (only Allow does). */
export function isAllowed(decision: Decision): boolean {
  return decision.decision === 'Allow';
}
