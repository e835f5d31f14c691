// spec.successPolicy of an Indexed Job: the first rule met by the succeeded
// indexes (all of its succeededIndexes, or succeededCount of them, or
// succeededCount indexes at all) makes the Job succeed early, with
// SuccessCriteriaMet "Matched rules at index N".

import type { Obj } from './json';
import { arr, num, rec, str } from './json';
import { OrderedIntervals } from './indexes';

function matchSucceededIndexesRule(ruleIndexes: OrderedIntervals, succeeded: OrderedIntervals, succeededCount: number | undefined): boolean {
  let contains = 0;
  for (const r of ruleIndexes.intervals) {
    for (const s of succeeded.intervals) {
      const overlap = Math.min(r.last, s.last) - Math.max(r.first, s.first) + 1;
      if (overlap > 0) contains += overlap;
    }
  }
  return contains === ruleIndexes.total() || (succeededCount !== undefined && contains >= succeededCount);
}

/** The SuccessCriteriaMet message when a rule is met, else undefined. */
export function matchSuccessPolicy(policy: Obj | undefined, completions: number, succeeded: OrderedIntervals): string | undefined {
  if (!policy || succeeded.intervals.length === 0) return undefined;
  const rules = arr(policy.rules).map(rec);
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index]!;
    const count = num(rule.succeededCount);
    if (typeof rule.succeededIndexes === 'string') {
      const required = OrderedIntervals.parse(str(rule.succeededIndexes), completions);
      if (required.intervals.length === 0) continue;
      if (matchSucceededIndexesRule(required, succeeded, count)) return `Matched rules at index ${index}`;
    } else if (count !== undefined && succeeded.total() >= count) {
      return `Matched rules at index ${index}`;
    }
  }
  return undefined;
}
