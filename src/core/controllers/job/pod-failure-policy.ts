// spec.podFailurePolicy: the first rule matching a failed pod decides what
// its failure means — FailJob (the Job fails, with kube's message naming the
// container and exit code or the pod condition), FailIndex (its index
// fails), Ignore (not counted against backoffLimit) or Count (counted, the
// default). onExitCodes looks at terminated containers (app, then init)
// with a non-zero exit code; onPodConditions at the pod's conditions.

import type { KubeObject } from '../../kinds/types';
import { arr, num, rec, str, type Obj } from './json';

export type PodFailureAction = 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';

export interface PodFailureMatch {
  /** The Job failure message, for a FailJob rule. */
  readonly failJobMessage?: string;
  /** Whether the failure counts against backoffLimit (and backoffLimitPerIndex). */
  readonly countFailed: boolean;
  readonly action?: PodFailureAction;
}

function matchingContainer(statuses: unknown, requirement: Obj): Obj | undefined {
  const name = requirement.containerName;
  const values = arr(requirement.values).map((v) => num(v));
  for (const status of arr(statuses).map(rec)) {
    const terminated = rec(rec(status.state).terminated);
    if (!status.state || !rec(status.state).terminated) continue;
    if (typeof name === 'string' && name !== status.name) continue;
    const code = num(terminated.exitCode) ?? 0;
    if (code === 0) continue;
    const listed = values.includes(code);
    if ((requirement.operator === 'In' && listed) || (requirement.operator === 'NotIn' && !listed)) return status;
  }
  return undefined;
}

function matchingCondition(pod: KubeObject, patterns: unknown): Obj | undefined {
  for (const condition of arr(rec(pod.status).conditions).map(rec)) {
    for (const p of arr(patterns).map(rec)) {
      if (condition.type === p.type && condition.status === (p.status ?? 'True')) return condition;
    }
  }
  return undefined;
}

export function matchPodFailurePolicy(policy: Obj | undefined, pod: KubeObject): PodFailureMatch {
  if (!policy) return { countFailed: true };
  const ns = pod.metadata?.namespace ?? '';
  const podName = pod.metadata?.name ?? '';
  const rules = arr(policy.rules).map(rec);
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index]!;
    const action = str(rule.action) as PodFailureAction;
    let failJobMessage: string | undefined;
    if (rule.onExitCodes) {
      const status = rec(pod.status);
      const container = matchingContainer(status.containerStatuses, rec(rule.onExitCodes)) ?? matchingContainer(status.initContainerStatuses, rec(rule.onExitCodes));
      if (!container) continue;
      const code = num(rec(rec(container.state).terminated).exitCode);
      failJobMessage = `Container ${str(container.name)} for pod ${ns}/${podName} failed with exit code ${code} matching ${action} rule at index ${index}`;
    } else if (rule.onPodConditions) {
      const condition = matchingCondition(pod, rule.onPodConditions);
      if (!condition) continue;
      failJobMessage = `Pod ${ns}/${podName} has condition ${str(condition.type)} matching ${action} rule at index ${index}`;
    } else continue;
    switch (action) {
      case 'Ignore':
        return { countFailed: false, action };
      case 'FailIndex':
        return { countFailed: true, action };
      case 'Count':
        return { countFailed: true, action };
      case 'FailJob':
        return { failJobMessage, countFailed: true, action };
      default:
        // An action this controller does not know: as kube's switch, the next rule is tried.
        continue;
    }
  }
  return { countFailed: true };
}
