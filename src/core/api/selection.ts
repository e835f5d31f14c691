// Compiles a request's labelSelector and fieldSelector into a predicate over
// stored objects, refusing (400) malformed selectors and field labels the
// kind does not support, as kube-apiserver does.

import type { KubeObject } from '../kinds/types';
import {
  DEFAULT_FIELD_LABELS,
  isSelectorError,
  parseFieldSelector,
  parseLabelSelector,
  registeredFieldLabels,
  validateFieldSelector,
  type FieldLabelPolicy,
} from '../selectors';
import type { Predicate } from './predicate';
import type { ServedResource } from './registry';

function fieldLabelPolicy(served: ServedResource): FieldLabelPolicy {
  const own = served.definition.fieldSelectors;
  if (!own) return DEFAULT_FIELD_LABELS;
  return registeredFieldLabels(['metadata.name', 'metadata.namespace', ...Object.keys(own)]);
}

function fieldValue(served: ServedResource, obj: KubeObject, field: string): string | undefined {
  if (field === 'metadata.name') return obj.metadata?.name ?? '';
  if (field === 'metadata.namespace') return obj.metadata?.namespace ?? '';
  return served.definition.fieldSelectors?.[field]?.(obj);
}

function rethrow(err: unknown): never {
  if (isSelectorError(err)) throw err.toStatusError();
  throw err;
}

export function compileSelectors(served: ServedResource, labelText: string, fieldText: string): Predicate {
  let labels;
  let fields;
  try {
    labels = parseLabelSelector(labelText);
    fields = validateFieldSelector(parseFieldSelector(fieldText), fieldLabelPolicy(served));
  } catch (err) {
    rethrow(err);
  }
  const labelSelector = labels;
  const fieldSelector = fields;
  return {
    empty: labelSelector.empty() && fieldSelector.empty(),
    matches(obj) {
      if (!labelSelector.matches(obj.metadata?.labels ?? {})) return false;
      return fieldSelector.matches((field) => fieldValue(served, obj, field));
    },
  };
}
