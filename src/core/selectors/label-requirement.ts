// One label selector requirement (k8s.io/apimachinery labels.Requirement):
// a key, an operator and values, validated with kube's messages, and how it
// matches a set of labels.

import { isQualifiedName, isValidLabelValue } from '../kinds/validation/names';
import { goQuote } from '../util/go/quote';
import { aggregateMessages, childPath, goStringSlice } from './go-format';
import { SelectorError } from './selector-error';

/** selection.Operator values, as they appear in messages ("in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"). */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'gt' | 'lt' | 'exists' | '!';

/** The binary operators in the order kube lists them in "expected: …" messages. */
export const BINARY_OPERATORS: readonly LabelOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const UNARY_OPERATORS: readonly LabelOperator[] = ['exists', '!'];
const VALID_OPERATORS: readonly string[] = [...BINARY_OPERATORS, ...UNARY_OPERATORS];

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** In the order given (the parser gives them sorted and de-duplicated, as kube's sets.String does). */
  readonly values: readonly string[];
}

/** A label set: a plain object (metadata.labels) or a Map. Absent labels are an empty set. */
export type Labels = Readonly<Record<string, string>> | ReadonlyMap<string, string> | null | undefined;

export function lookupLabel(labels: Labels, key: string): string | undefined {
  if (!labels) return undefined;
  if (labels instanceof Map) return labels.get(key);
  const record = labels as Readonly<Record<string, string>>;
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** strconv.ParseInt(s, 10, 64): optional sign, decimal digits, within int64. */
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n) return undefined;
  return n;
}

/** validateLabelKey: the key as a qualified name, reported at `path` ("<nil>" inside the parser). */
export function labelKeyError(key: string, path: string): string | undefined {
  const errs = isQualifiedName(key);
  return errs.length ? `${path}: Invalid value: ${goQuote(key)}: ${errs.join('; ')}` : undefined;
}

/**
 * labels.NewRequirement: validates and builds a requirement, or throws a
 * SelectorError whose message is kube's aggregate of every problem. `path` is
 * the field path option (absent for the query-parameter parser).
 */
export function newRequirement(key: string, operator: string, values: readonly string[] | null, path?: string): LabelRequirement {
  const errs: string[] = [];
  const keyErr = labelKeyError(key, childPath(path, 'key'));
  if (keyErr) errs.push(keyErr);
  const valuesPath = childPath(path, 'values');
  const count = values?.length ?? 0;
  switch (operator) {
    case 'in':
    case 'notin':
      if (count === 0) errs.push(`${valuesPath}: Invalid value: ${goStringSlice(values)}: for 'in', 'notin' operators, values set can't be empty`);
      break;
    case '=':
    case '==':
    case '!=':
      if (count !== 1) errs.push(`${valuesPath}: Invalid value: ${goStringSlice(values)}: exact-match compatibility requires one single value`);
      break;
    case 'exists':
    case '!':
      if (count !== 0) errs.push(`${valuesPath}: Invalid value: ${goStringSlice(values)}: values set must be empty for exists and does not exist`);
      break;
    case 'gt':
    case 'lt':
      if (count !== 1) errs.push(`${valuesPath}: Invalid value: ${goStringSlice(values)}: for 'Gt', 'Lt' operators, exactly one value is required`);
      (values ?? []).forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(`${valuesPath}[${i}]: Invalid value: ${goQuote(v)}: for 'Gt', 'Lt' operators, the value must be an integer`);
      });
      break;
    default:
      errs.push(
        `${childPath(path, 'operator')}: Unsupported value: ${goQuote(operator)}: supported values: ${VALID_OPERATORS.map((o) => goQuote(o)).join(', ')}`,
      );
  }
  (values ?? []).forEach((v, i) => {
    const valueErrs = isValidLabelValue(v);
    if (valueErrs.length) errs.push(`${valuesPath}[${i}][${key}]: Invalid value: ${goQuote(v)}: ${valueErrs.join('; ')}`);
  });
  if (errs.length) throw new SelectorError(aggregateMessages(errs));
  return { key, operator: operator as LabelOperator, values: [...(values ?? [])] };
}

/** Requirement.Matches. */
export function requirementMatches(r: LabelRequirement, labels: Labels): boolean {
  const value = lookupLabel(labels, r.key);
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return value !== undefined && r.values.includes(value);
    case 'notin':
    case '!=':
      return value === undefined || !r.values.includes(value);
    case 'exists':
      return value !== undefined;
    case '!':
      return value === undefined;
    case 'gt':
    case 'lt': {
      if (value === undefined || r.values.length !== 1) return false;
      const have = parseInt64(value);
      const want = parseInt64(r.values[0]!);
      if (have === undefined || want === undefined) return false;
      return r.operator === 'gt' ? have > want : have < want;
    }
  }
}

/** Requirement.String: `!key`, `key`, `key=v`, `key in (a,b)` (values sorted for the text only). */
export function requirementString(r: LabelRequirement): string {
  if (r.operator === '!') return `!${r.key}`;
  if (r.operator === 'exists') return r.key;
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort().join(',');
  switch (r.operator) {
    case 'in':
      return `${r.key} in (${values})`;
    case 'notin':
      return `${r.key} notin (${values})`;
    case 'gt':
      return `${r.key}>${values}`;
    case 'lt':
      return `${r.key}<${values}`;
    default:
      return `${r.key}${r.operator}${values}`;
  }
}
