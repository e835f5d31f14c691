// The selection predicate of list, watch and deletecollection: the label
// selector and the field selector of the request, parsed and checked against
// the fields the kind supports (400 for a malformed or unsupported one).

import type { KubeObject } from '../kinds/types';
import type { RequestScope } from './context';
import { compileSelectors } from './selection';

export interface Predicate {
  /** No selector at all (remainingItemCount is only reported then). */
  readonly empty: boolean;
  matches(obj: KubeObject): boolean;
}

export function buildPredicate(scope: RequestScope): Predicate {
  const labelText = scope.query.get('labelSelector') ?? '';
  const fieldText = scope.query.get('fieldSelector') ?? '';
  if (!labelText.trim() && !fieldText.trim()) return { empty: true, matches: () => true };
  return compileSelectors(scope.served, labelText, fieldText);
}
