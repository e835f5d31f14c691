// metav1.LabelSelector (spec.selector of Deployments, ReplicaSets, …):
// kube's field errors for it (ValidateLabelSelector) and its conversion to a
// selector (LabelSelectorAsSelector).

import { describe, expect, it } from 'vitest';
import { messageThrownBy } from '../util/testing/thrown';
import { aggregateFieldErrors } from '../errors/field-errors';
import { isEmptyLabelSelector, labelSelectorAsSelector, validateLabelSelector } from './index';

const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const messages = (sel: Parameters<typeof validateLabelSelector>[0], opts = {}) => validateLabelSelector(sel, opts, 'spec.selector').map((e) => aggregateFieldErrors([e]));

describe('ValidateLabelSelector field errors', () => {
  it('a valid selector has none; a missing selector has none', () => {
    expect(messages({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }] })).toEqual([]);
    expect(messages(undefined)).toEqual([]);
  });

  it('matchLabels problems are reported at spec.selector.matchLabels itself', () => {
    expect(messages({ matchLabels: { '-bad': 'ok', good: '-bad' } })).toEqual([
      `spec.selector.matchLabels: Invalid value: "-bad": ${NAME_PART}`,
      `spec.selector.matchLabels: Invalid value: "-bad": ${LABEL_VALUE}`,
    ]);
  });

  it('In/NotIn need values; Exists/DoesNotExist forbid them', () => {
    expect(messages({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toEqual([
      'spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is \'In\' or \'NotIn\'',
    ]);
    expect(messages({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] })).toEqual([
      "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ]);
  });

  it('an unknown operator is invalid unless the caller allows it (SubjectAccessReview)', () => {
    expect(messages({ matchExpressions: [{ key: 'a', operator: 'Like', values: ['x'] }] })).toEqual([
      'spec.selector.matchExpressions[0].operator: Invalid value: "Like": not a valid selector operator',
    ]);
    expect(messages({ matchExpressions: [{ key: 'a', operator: 'Like', values: ['x'] }] }, { allowUnknownOperatorInRequirement: true })).toEqual([]);
  });

  it('keys and values of expressions are checked, values unless allowed', () => {
    const sel = { matchExpressions: [{ key: 'a b', operator: 'In', values: ['ok', 'not ok'] }] };
    expect(messages(sel)).toEqual([
      `spec.selector.matchExpressions[0].key: Invalid value: "a b": ${NAME_PART}`,
      `spec.selector.matchExpressions[0].values[1]: Invalid value: "not ok": ${LABEL_VALUE}`,
    ]);
    expect(messages(sel, { allowInvalidLabelValueInSelector: true })).toHaveLength(1);
  });
});

describe('LabelSelectorAsSelector', () => {
  it('null selects nothing, {} selects everything', () => {
    expect(labelSelectorAsSelector(null).matches({ a: 'b' })).toBe(false);
    expect(labelSelectorAsSelector({}).matches({ a: 'b' })).toBe(true);
    expect(labelSelectorAsSelector({}).empty()).toBe(true);
    expect(isEmptyLabelSelector({})).toBe(true);
    expect(isEmptyLabelSelector(null)).toBe(false);
  });

  it('matchLabels and matchExpressions are ANDed', () => {
    const s = labelSelectorAsSelector({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['fe', 'be'] },
        { key: 'legacy', operator: 'DoesNotExist' },
        { key: 'env', operator: 'NotIn', values: ['prod'] },
        { key: 'team', operator: 'Exists' },
      ],
    });
    expect(s.matches({ app: 'web', tier: 'fe', team: 'x' })).toBe(true);
    expect(s.matches({ app: 'web', tier: 'fe', team: 'x', env: 'prod' })).toBe(false);
    expect(s.matches({ app: 'web', tier: 'fe', team: 'x', legacy: '1' })).toBe(false);
    expect(s.matches({ app: 'web', tier: 'other', team: 'x' })).toBe(false);
    expect(s.toString()).toBe('app=web,env notin (prod),!legacy,team,tier in (be,fe)');
  });

  it('kube error texts for what cannot be converted', () => {
    expect(messageThrownBy(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Like' }] }))).toBe('"Like" is not a valid label selector operator');
    expect(messageThrownBy(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In' }] }))).toBe(
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    );
    expect(messageThrownBy(() => labelSelectorAsSelector({ matchLabels: { a: 'bad value' } }))).toBe(`values[0][a]: Invalid value: "bad value": ${LABEL_VALUE}`);
  });
});
