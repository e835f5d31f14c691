// The selectors of workloads as their controllers read them: a structured
// metav1.LabelSelector (Deployments, ReplicaSets, StatefulSets, DaemonSets,
// Jobs) or a plain label map (ReplicationControllers). A selector that
// cannot be converted selects nothing, so a bad object never claims pods.

import type { KubeObject } from '../../kinds/types';
import { labelSelectorAsSelector, LabelSelector, newRequirement, type LabelSelectorObject } from '../../selectors';
import { labelsOf, rec } from './objects';

/** metav1.LabelSelectorAsSelector, or undefined when the selector is invalid. */
export function structuredSelector(selector: unknown): LabelSelector | undefined {
  try {
    return labelSelectorAsSelector((selector ?? undefined) as LabelSelectorObject | undefined);
  } catch {
    return undefined;
  }
}

/** labels.SelectorFromSet: a map of labels (an empty map selects everything). */
export function mapSelector(selector: unknown): LabelSelector {
  const map = rec(selector);
  try {
    return LabelSelector.fromRequirements(
      Object.keys(map)
        .sort()
        .map((k) => newRequirement(k, '=', [String(map[k])])),
    );
  } catch {
    return LabelSelector.nothing();
  }
}

/**
 * Whether a workload's selector claims an object with these labels, as the
 * controllers' "which owners might want this orphan" lookups check: an
 * empty selector (everything) matches nothing there.
 */
export function selectorMatchesForLookup(selector: LabelSelector | undefined, obj: KubeObject): boolean {
  return !!selector && !selector.empty() && !selector.isNothing && selector.matches(labelsOf(obj));
}
