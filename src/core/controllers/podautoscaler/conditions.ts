// HorizontalPodAutoscaler status conditions as the HPA controller keeps them:
// one per type, in the order first set (AbleToScale, ScalingActive,
// ScalingLimited); lastTransitionTime moves only when the status changes.

export type HpaConditionType = 'AbleToScale' | 'ScalingActive' | 'ScalingLimited';

export interface HpaCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export function setCondition(conditions: HpaCondition[], type: HpaConditionType, status: 'True' | 'False', reason: string, message: string, nowIso: string): void {
  let existing = conditions.find((c) => c.type === type);
  if (!existing) {
    existing = { type, status: '' };
    conditions.push(existing);
  }
  if (existing.status !== status) existing.lastTransitionTime = nowIso;
  existing.status = status;
  existing.reason = reason;
  existing.message = message;
}
