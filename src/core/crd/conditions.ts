// CRD status conditions as apiextensions' helpers manage them
// (SetCRDCondition, FindCRDCondition, IsCRDConditionTrue): a condition keeps
// its lastTransitionTime while its status stays the same; new conditions are
// appended, so NamesAccepted comes before Established as on a real server.

import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from './types';

export const NAMES_ACCEPTED = 'NamesAccepted';
export const ESTABLISHED = 'Established';
export const TERMINATING = 'Terminating';

export function findCondition(crd: CustomResourceDefinition, type: string): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isConditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return findCondition(crd, type)?.status === 'True';
}

/** Whether two conditions say the same thing (IsCRDConditionEquivalent: time aside). */
export function conditionEquivalent(a: CustomResourceDefinitionCondition | undefined, b: CustomResourceDefinitionCondition | undefined): boolean {
  if (!a || !b) return a === b;
  return a.type === b.type && a.status === b.status && a.reason === b.reason && a.message === b.message;
}

/** Sets (or replaces) a condition in place; `now` is the RFC 3339 time of a status change. */
export function setCondition(crd: CustomResourceDefinition, next: CustomResourceDefinitionCondition, now: string): void {
  crd.status = crd.status ?? {};
  const conditions = (crd.status.conditions = crd.status.conditions ?? []);
  const index = conditions.findIndex((c) => c.type === next.type);
  const ordered = (c: CustomResourceDefinitionCondition, time: string | undefined): CustomResourceDefinitionCondition => {
    // The Go struct order: type, status, lastTransitionTime, reason, message.
    const out: CustomResourceDefinitionCondition = { type: c.type, status: c.status };
    if (time) out.lastTransitionTime = time;
    if (c.reason) out.reason = c.reason;
    if (c.message) out.message = c.message;
    return out;
  };
  if (index === -1) {
    conditions.push(ordered(next, next.lastTransitionTime ?? now));
    return;
  }
  const existing = conditions[index]!;
  const time = existing.status === next.status ? (existing.lastTransitionTime ?? now) : (next.lastTransitionTime ?? now);
  conditions[index] = ordered(next, time);
}
