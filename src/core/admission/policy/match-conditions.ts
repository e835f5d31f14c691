// matchConditions of policies and webhooks (kube's matchconditions.Matcher):
// every condition must be true; the first false one skips the policy or
// webhook; errors count only when no condition is false, and then the
// failure policy decides.

import type { AdmissionActivation } from './cel';

export interface MatchResult {
  readonly matches: boolean;
  readonly error?: string;
  readonly failedCondition?: string;
}

export async function evaluateMatchConditions(conditions: unknown, activation: AdmissionActivation): Promise<MatchResult> {
  const list = Array.isArray(conditions) ? (conditions as { name?: string; expression?: string }[]) : [];
  const errs: string[] = [];
  for (const c of list) {
    const r = await activation.evaluate(String(c.expression ?? ''));
    if (r.error !== undefined) {
      errs.push(r.error);
      continue;
    }
    if (r.value === false) return { matches: false, failedCondition: c.name ?? '' };
    if (r.value !== true) errs.push(`expression '${c.expression}' resulted in error: no such overload`);
  }
  if (errs.length) return { matches: false, error: errs.length === 1 ? errs[0] : `[${errs.join(', ')}]` };
  return { matches: true };
}
