// From the metrics' proposal to the replica count the HPA applies, as
// kube-controller-manager's HPA controller normalizes it: without
// spec.behavior, the highest recommendation of the last 5 minutes (the
// downscale stabilization window) and a scale-up of at most max(2×, 4);
// with a behavior, the scale-up and scale-down stabilization windows and the
// rate policies (Pods / Percent per period, selectPolicy Max / Min /
// Disabled) over the scale events of the periods. Each step says which
// AbleToScale and ScalingLimited condition it leads to.

/** --horizontal-pod-autoscaler-downscale-stabilization */
export const DOWNSCALE_STABILIZATION_MS = 5 * 60_000;
const SCALE_UP_LIMIT_FACTOR = 2;
const SCALE_UP_LIMIT_MINIMUM = 4;

export interface Recommendation {
  readonly replicas: number;
  readonly atMs: number;
}

export interface ScaleEvent {
  readonly change: number;
  readonly atMs: number;
}

/** What the controller remembers of one HPA between resyncs (kept in memory, as kube does). */
export interface ScalingHistory {
  recommendations: Recommendation[];
  scaleUpEvents: ScaleEvent[];
  scaleDownEvents: ScaleEvent[];
}

export interface ScalingPolicy {
  readonly type: 'Pods' | 'Percent' | string;
  readonly value: number;
  readonly periodSeconds: number;
}

export interface ScalingRules {
  readonly stabilizationWindowSeconds: number;
  readonly selectPolicy: 'Max' | 'Min' | 'Disabled' | string;
  readonly policies: readonly ScalingPolicy[];
}

export interface Behavior {
  readonly scaleUp: ScalingRules;
  readonly scaleDown: ScalingRules;
}

export interface ConditionChange {
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
}

export interface Normalized {
  readonly replicas: number;
  readonly ableToScale: ConditionChange;
  readonly scalingLimited: ConditionChange;
}

export function newHistory(): ScalingHistory {
  return { recommendations: [], scaleUpEvents: [], scaleDownEvents: [] };
}

const READY_FOR_NEW_SCALE: ConditionChange = { status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' };
const WITHIN_RANGE = { reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };

/** Records a recommendation, reusing the slot of one older than `cutoff` when there is one. */
function record(history: ScalingHistory, replicas: number, nowMs: number, isOld: (r: Recommendation) => boolean): void {
  const old = history.recommendations.findIndex(isOld);
  if (old >= 0) history.recommendations[old] = { replicas, atMs: nowMs };
  else history.recommendations.push({ replicas, atMs: nowMs });
}

function limited(replicas: number, stabilized: number, step: { reason: string; message: string }): ConditionChange {
  return { status: replicas === stabilized ? 'False' : 'True', reason: step.reason, message: step.message };
}

/** normalizeDesiredReplicas: no behavior given. */
export function normalizeWithoutBehavior(history: ScalingHistory, nowMs: number, current: number, proposed: number, min: number, max: number): Normalized {
  const cutoff = nowMs - DOWNSCALE_STABILIZATION_MS;
  let stabilized = proposed;
  for (const r of history.recommendations) if (r.atMs >= cutoff && r.replicas > stabilized) stabilized = r.replicas;
  record(history, proposed, nowMs, (r) => r.atMs < cutoff);
  const ableToScale: ConditionChange =
    stabilized !== proposed
      ? { status: 'True', reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' }
      : READY_FOR_NEW_SCALE;

  const scaleUpLimit = Math.max(SCALE_UP_LIMIT_FACTOR * current, SCALE_UP_LIMIT_MINIMUM);
  const upper =
    max > scaleUpLimit
      ? { value: scaleUpLimit, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' }
      : { value: max, reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' };
  let replicas = stabilized;
  let step = WITHIN_RANGE;
  if (stabilized < min) {
    replicas = min;
    step = { reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
  } else if (stabilized > upper.value) {
    replicas = upper.value;
    step = upper;
  }
  return { replicas, ableToScale, scalingLimited: limited(replicas, stabilized, step) };
}

function changeInPeriod(events: readonly ScaleEvent[], periodSeconds: number, nowMs: number): number {
  const cutoff = nowMs - periodSeconds * 1000;
  return events.filter((e) => e.atMs > cutoff).reduce((sum, e) => sum + e.change, 0);
}

function scaleUpLimit(current: number, history: ScalingHistory, rules: ScalingRules, nowMs: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const useMin = rules.selectPolicy === 'Min';
  let result = useMin ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
  for (const p of rules.policies) {
    const start = current - changeInPeriod(history.scaleUpEvents, p.periodSeconds, nowMs) + changeInPeriod(history.scaleDownEvents, p.periodSeconds, nowMs);
    const proposed = p.type === 'Pods' ? start + p.value : p.type === 'Percent' ? Math.ceil(start * (1 + p.value / 100)) : start;
    result = useMin ? Math.min(result, proposed) : Math.max(result, proposed);
  }
  return result;
}

function scaleDownLimit(current: number, history: ScalingHistory, rules: ScalingRules, nowMs: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const useMin = rules.selectPolicy === 'Min';
  let result = useMin ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  for (const p of rules.policies) {
    const start = current - changeInPeriod(history.scaleUpEvents, p.periodSeconds, nowMs) + changeInPeriod(history.scaleDownEvents, p.periodSeconds, nowMs);
    const proposed = p.type === 'Pods' ? start - p.value : p.type === 'Percent' ? Math.trunc(start * (1 - p.value / 100)) : start;
    result = useMin ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

/** normalizeDesiredReplicasWithBehaviors. */
export function normalizeWithBehavior(history: ScalingHistory, nowMs: number, current: number, proposed: number, min: number, max: number, behavior: Behavior): Normalized {
  const upCutoff = nowMs - behavior.scaleUp.stabilizationWindowSeconds * 1000;
  const downCutoff = nowMs - behavior.scaleDown.stabilizationWindowSeconds * 1000;
  let up = proposed;
  let down = proposed;
  for (const r of history.recommendations) {
    if (r.atMs > upCutoff) up = Math.min(up, r.replicas);
    if (r.atMs > downCutoff) down = Math.max(down, r.replicas);
  }
  let stabilized = current;
  if (stabilized < up) stabilized = up;
  if (stabilized > down) stabilized = down;
  record(history, proposed, nowMs, (r) => r.atMs < upCutoff && r.atMs < downCutoff);
  const ableToScale: ConditionChange =
    stabilized === proposed
      ? READY_FOR_NEW_SCALE
      : proposed >= current
        ? { status: 'True', reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' }
        : { status: 'True', reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' };

  let replicas = stabilized;
  let step = WITHIN_RANGE;
  if (stabilized > current) {
    const limit = Math.max(scaleUpLimit(current, history, behavior.scaleUp, nowMs), current);
    const upper =
      max > limit
        ? { value: limit, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' }
        : { value: max, reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' };
    if (stabilized > upper.value) {
      replicas = upper.value;
      step = upper;
    }
  } else if (stabilized < current) {
    const limit = Math.min(scaleDownLimit(current, history, behavior.scaleDown, nowMs), current);
    const lower =
      min < limit
        ? { value: limit, reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' }
        : { value: min, reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
    if (stabilized < lower.value) {
      replicas = lower.value;
      step = lower;
    }
  }
  return { replicas, ableToScale, scalingLimited: limited(replicas, stabilized, step) };
}

function longestPeriodSeconds(rules: ScalingRules): number {
  return rules.policies.reduce((m, p) => Math.max(m, p.periodSeconds), 0);
}

/** storeScaleEvent: remembered only with a behavior, and only as long as its longest policy period needs. */
export function recordScaleEvent(history: ScalingHistory, behavior: Behavior | undefined, from: number, to: number, nowMs: number): void {
  if (!behavior) return;
  if (to > from) {
    const keep = nowMs - longestPeriodSeconds(behavior.scaleUp) * 1000;
    history.scaleUpEvents = [...history.scaleUpEvents.filter((e) => e.atMs > keep), { change: to - from, atMs: nowMs }];
  } else if (to < from) {
    const keep = nowMs - longestPeriodSeconds(behavior.scaleDown) * 1000;
    history.scaleDownEvents = [...history.scaleDownEvents.filter((e) => e.atMs > keep), { change: from - to, atMs: nowMs }];
  }
}
