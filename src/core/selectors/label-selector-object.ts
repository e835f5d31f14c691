// metav1.LabelSelector, the structured selector in Deployments, ReplicaSets,
// Services' peers, PodDisruptionBudgets, ClusterRole aggregation…:
// validation with kube's field errors (metav1 validation.ValidateLabelSelector)
// and conversion to a LabelSelector (metav1.LabelSelectorAsSelector).

import { childPath, fieldErrors, indexPath, type FieldError } from '../errors/field-errors';
import { isQualifiedName, isValidLabelValue } from '../kinds/validation/names';
import { goQuote } from '../util/go/quote';
import { newRequirement, type LabelOperator, type LabelRequirement } from './label-requirement';
import { LabelSelector } from './label-selector';
import { SelectorError } from './selector-error';

export interface LabelSelectorRequirementObject {
  key: string;
  /** In, NotIn, Exists or DoesNotExist. */
  operator: string;
  values?: string[] | null;
}

export interface LabelSelectorObject {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: LabelSelectorRequirementObject[] | null;
}

export interface LabelSelectorValidationOptions {
  /** Keep accepting stored selectors whose values are not valid label values. */
  allowInvalidLabelValueInSelector?: boolean;
  /** For *SubjectAccessReview: an operator this server does not know is not an error. */
  allowUnknownOperatorInRequirement?: boolean;
}

const OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/** Go iterates maps in random order; KubeTab reports label problems in key order. */
function sortedEntries(labels: Record<string, string>): [string, string][] {
  return Object.keys(labels)
    .sort()
    .map((k) => [k, labels[k]!]);
}

/** ValidateLabelName: one error per problem with the key, at `path`. */
export function validateLabelName(key: string, path: string): FieldError[] {
  return isQualifiedName(key).map((msg) => fieldErrors.invalid(path, key, msg));
}

/** ValidateLabels: every key and value of a label map, each error at `path` itself. */
export function validateLabels(labels: Record<string, string> | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of sortedEntries(labels ?? {})) {
    errs.push(...validateLabelName(k, path));
    for (const msg of isValidLabelValue(v)) errs.push(fieldErrors.invalid(path, v, msg));
  }
  return errs;
}

/** ValidateLabelSelectorRequirement. */
export function validateLabelSelectorRequirement(
  r: LabelSelectorRequirementObject,
  options: LabelSelectorValidationOptions,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldErrors.required(childPath(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(fieldErrors.forbidden(childPath(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      if (!options.allowUnknownOperatorInRequirement) errs.push(fieldErrors.invalid(childPath(path, 'operator'), r.operator, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(r.key, childPath(path, 'key')));
  if (!options.allowInvalidLabelValueInSelector) {
    values.forEach((v, i) => {
      for (const msg of isValidLabelValue(v)) errs.push(fieldErrors.invalid(indexPath(childPath(path, 'values'), i), v, msg));
    });
  }
  return errs;
}

/** ValidateLabelSelector: the field errors of a structured selector at `path` (e.g. "spec.selector"). */
export function validateLabelSelector(
  selector: LabelSelectorObject | null | undefined,
  options: LabelSelectorValidationOptions,
  path: string,
): FieldError[] {
  if (!selector) return [];
  const errs = validateLabels(selector.matchLabels, childPath(path, 'matchLabels'));
  (selector.matchExpressions ?? []).forEach((r, i) => {
    errs.push(...validateLabelSelectorRequirement(r, options, indexPath(childPath(path, 'matchExpressions'), i)));
  });
  return errs;
}

/**
 * LabelSelectorAsSelector: null/undefined selects nothing, `{}` everything.
 * Throws SelectorError with kube's text for what it cannot convert (an
 * unknown operator, an invalid key or value).
 */
export function labelSelectorAsSelector(selector: LabelSelectorObject | null | undefined): LabelSelector {
  if (!selector) return LabelSelector.nothing();
  const matchLabels = selector.matchLabels ?? {};
  const matchExpressions = selector.matchExpressions ?? [];
  if (Object.keys(matchLabels).length + matchExpressions.length === 0) return LabelSelector.everything();
  const requirements: LabelRequirement[] = [];
  for (const [k, v] of sortedEntries(matchLabels)) requirements.push(newRequirement(k, '=', [v]));
  for (const expr of matchExpressions) {
    const op = OPERATORS[expr.operator];
    if (!op) throw new SelectorError(`${goQuote(expr.operator)} is not a valid label selector operator`);
    // Go copies the values with append([]string(nil), ...): none is a nil slice.
    const values = expr.values && expr.values.length ? [...expr.values] : null;
    requirements.push(newRequirement(expr.key, op, values));
  }
  return LabelSelector.fromRequirements(requirements);
}

/** Whether a structured selector selects nothing at all (nil) or everything ({}), as controllers check. */
export function isEmptyLabelSelector(selector: LabelSelectorObject | null | undefined): boolean {
  return !!selector && Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0;
}
