// The fieldSelector query parameter as kube-apiserver 1.32 parses it
// (fields.ParseSelector), the field labels each kind accepts
// (ConvertFieldLabel) and the 400 BadRequest texts a client sees.

import { describe, expect, it } from 'vitest';
import { thrownBy } from '../util/testing/thrown';
import { StatusError } from '../errors/status';
import {
  DEFAULT_FIELD_LABELS,
  FieldSelector,
  customResourceFieldLabels,
  escapeFieldValue,
  fieldRequirementsForAuthorization,
  parseFieldSelector,
  registeredFieldLabels,
  selectorForNamedRequest,
  tryParseFieldSelector,
  unescapeFieldValue,
  validateFieldSelector,
} from './index';

function errorOf(text: string): string {
  const r = tryParseFieldSelector(text);
  if (!r.error) throw new Error(`expected ${JSON.stringify(text)} to be rejected, got ${r.selector?.toString()}`);
  return r.error;
}

const statusOf = (f: () => unknown): StatusError => thrownBy(f, StatusError);

const terms = (text: string) => parseFieldSelector(text).requirements().map((r) => [r.field, r.operator, r.value]);

const POD_FIELDS = registeredFieldLabels(
  ['metadata.name', 'metadata.namespace', 'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  { 'spec.host': 'spec.nodeName' },
);

describe('field selector parsing', () => {
  it('=, == and != (== is kept as =, like kube\'s hasTerm)', () => {
    expect(terms('a=1')).toEqual([['a', '=', '1']]);
    expect(terms('a==1')).toEqual([['a', '=', '1']]);
    expect(terms('a!=1')).toEqual([['a', '!=', '1']]);
  });

  it('terms are comma-joined and sorted by their text before use', () => {
    expect(terms('status.phase=Running,metadata.name=x')).toEqual([
      ['metadata.name', '=', 'x'],
      ['status.phase', '=', 'Running'],
    ]);
  });

  it('empty selectors and empty terms select everything', () => {
    expect(parseFieldSelector('').empty()).toBe(true);
    expect(parseFieldSelector(',').empty()).toBe(true);
    expect(terms('a=1,,b=2,')).toEqual([
      ['a', '=', '1'],
      ['b', '=', '2'],
    ]);
  });

  it('an empty value is allowed', () => {
    expect(terms('spec.nodeName=')).toEqual([['spec.nodeName', '=', '']]);
  });

  it('whitespace is not trimmed: it belongs to the field or value', () => {
    expect(terms('a = 1')).toEqual([['a ', '=', ' 1']]);
  });

  it('the field is cut at the first operator; != wins over = at the same place', () => {
    expect(terms('a!=b')).toEqual([['a', '!=', 'b']]);
    expect(terms('a!b=c')).toEqual([['a!b', '=', 'c']]);
    expect(terms('a==b')).toEqual([['a', '=', 'b']]);
    // "!==" is "!=" followed by a value starting with a bare "=".
    expect(errorOf('a!==b')).toBe('invalid field selector: unescaped character in value: 61');
  });

  it('a backslash escapes \\, , and = in values', () => {
    expect(terms('a=x\\,y')).toEqual([['a', '=', 'x,y']]);
    expect(terms('a=x\\=y')).toEqual([['a', '=', 'x=y']]);
    expect(terms('a=x\\\\y')).toEqual([['a', '=', 'x\\y']]);
    expect(terms('a=x\\,y,b=2')).toEqual([
      ['a', '=', 'x,y'],
      ['b', '=', '2'],
    ]);
  });

  it('kube error texts for malformed terms', () => {
    expect(errorOf('a')).toBe("invalid selector: 'a'; can't understand 'a'");
    expect(errorOf('a=1,b')).toBe("invalid selector: 'a=1,b'; can't understand 'b'");
    expect(errorOf(' ')).toBe("invalid selector: ' '; can't understand ' '");
  });

  it('kube error texts for bad escapes; an unescaped = or , is printed as its rune number', () => {
    expect(errorOf('a=b=c')).toBe('invalid field selector: unescaped character in value: 61');
    expect(errorOf('a=x\\y')).toBe('invalid field selector: invalid escape sequence: \\y');
    expect(errorOf('a=x\\')).toBe('invalid field selector: invalid escape sequence: \\');
  });

  it('parseFieldSelector throws a 400 BadRequest Status with the parser text', () => {
    const err = statusOf(() => parseFieldSelector('foo'));
    expect(err.code).toBe(400);
    expect(err.status.reason).toBe('BadRequest');
    expect(err.status.message).toBe("invalid selector: 'foo'; can't understand 'foo'");
  });

  it('toString escapes values again', () => {
    expect(parseFieldSelector('b!=x\\,y,a==1').toString()).toBe('a=1,b!=x\\,y');
    expect(escapeFieldValue('a\\b,c=d')).toBe('a\\\\b\\,c\\=d');
    expect(unescapeFieldValue(escapeFieldValue('a\\b,c=d'))).toBe('a\\b,c=d');
  });
});

describe('field selector matching', () => {
  const pod = { 'metadata.name': 'web-1', 'metadata.namespace': 'default', 'spec.nodeName': 'node-a', 'status.phase': 'Running' };

  it('= needs equality, != inequality; every term must hold', () => {
    expect(parseFieldSelector('status.phase=Running').matches(pod)).toBe(true);
    expect(parseFieldSelector('status.phase!=Running').matches(pod)).toBe(false);
    expect(parseFieldSelector('status.phase=Running,spec.nodeName=node-b').matches(pod)).toBe(false);
  });

  it('an absent field reads as the empty string', () => {
    expect(parseFieldSelector('spec.schedulerName=').matches(pod)).toBe(true);
    expect(parseFieldSelector('spec.schedulerName!=').matches(pod)).toBe(false);
    expect(parseFieldSelector('spec.schedulerName!=x').matches(pod)).toBe(true);
  });

  it('matches through a getter', () => {
    const get = (f: string) => (f === 'metadata.name' ? 'web-1' : undefined);
    expect(parseFieldSelector('metadata.name=web-1').matches(get)).toBe(true);
    expect(parseFieldSelector('metadata.name=web-2').matches(get)).toBe(false);
  });

  it('requiresExactMatch finds a field=value term', () => {
    const s = parseFieldSelector('metadata.name=a,spec.nodeName!=b');
    expect(s.requiresExactMatch('metadata.name')).toBe('a');
    expect(s.requiresExactMatch('spec.nodeName')).toBeUndefined();
  });

  it('authorization requirements: = is In, != is NotIn, one value each', () => {
    expect(fieldRequirementsForAuthorization(parseFieldSelector('spec.nodeName=n1,metadata.name!=x'))).toEqual([
      { key: 'metadata.name', operator: 'NotIn', values: ['x'] },
      { key: 'spec.nodeName', operator: 'In', values: ['n1'] },
    ]);
  });
});

describe('field labels (ConvertFieldLabel) and the 400 for an unsupported one', () => {
  it('a registered conversion func: "field label not supported: <label>"', () => {
    const err = statusOf(() => validateFieldSelector(parseFieldSelector('spec.foo=1'), POD_FIELDS));
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'field label not supported: spec.foo',
      reason: 'BadRequest',
      code: 400,
    });
  });

  it('supported labels pass; aliases are converted (pods: spec.host → spec.nodeName)', () => {
    const s = validateFieldSelector(parseFieldSelector('spec.host=n1,status.phase=Running'), POD_FIELDS);
    expect(s.requirements()).toEqual([
      { field: 'spec.nodeName', operator: '=', value: 'n1' },
      { field: 'status.phase', operator: '=', value: 'Running' },
    ]);
  });

  it('the first unsupported term in sorted order is the one reported', () => {
    const err = statusOf(() => validateFieldSelector(parseFieldSelector('spec.zzz=1,spec.aaa=2'), POD_FIELDS));
    expect(err.status.message).toBe('field label not supported: spec.aaa');
  });

  it('a label with stray whitespace is not the same label', () => {
    const err = statusOf(() => validateFieldSelector(parseFieldSelector('status.phase =Running'), POD_FIELDS));
    expect(err.status.message).toBe('field label not supported: status.phase ');
  });

  it('a kind without a conversion func: metadata.name and metadata.namespace only, with the metav1 text', () => {
    expect(validateFieldSelector(parseFieldSelector('metadata.namespace=a,metadata.name=b'), DEFAULT_FIELD_LABELS).empty()).toBe(false);
    const err = statusOf(() => validateFieldSelector(parseFieldSelector('spec.replicas=1'), DEFAULT_FIELD_LABELS));
    expect(err.status.message).toBe('"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"');
    expect(err.code).toBe(400);
  });

  it('custom resources: metadata.namespace only when namespaced, plus selectableFields', () => {
    const namespaced = customResourceFieldLabels(false, ['spec.color']);
    expect(validateFieldSelector(parseFieldSelector('metadata.namespace=a,spec.color=red'), namespaced).requirements()).toHaveLength(2);
    const cluster = customResourceFieldLabels(true);
    expect(statusOf(() => validateFieldSelector(parseFieldSelector('metadata.namespace=a'), cluster)).status.message).toBe(
      'field label not supported: metadata.namespace',
    );
  });

  it('a watch on one object: the name is a metadata.name term; a different fieldSelector name is a 400', () => {
    expect(selectorForNamedRequest(FieldSelector.everything(), 'web-1').toString()).toBe('metadata.name=web-1');
    expect(selectorForNamedRequest(parseFieldSelector('metadata.name=web-1'), 'web-1').toString()).toBe('metadata.name=web-1');
    const err = statusOf(() => selectorForNamedRequest(parseFieldSelector('metadata.name=web-2'), 'web-1'));
    expect(err.status.message).toBe("fieldSelector metadata.name doesn't match requested name");
    expect(err.code).toBe(400);
  });
});

describe('validateFieldSelector with a plain list', () => {
  it('a list is a registered conversion func accepting those labels', () => {
    expect(validateFieldSelector(parseFieldSelector('type=Opaque'), ['metadata.name', 'metadata.namespace', 'type']).toString()).toBe('type=Opaque');
    expect(statusOf(() => validateFieldSelector(parseFieldSelector('data=x'), ['metadata.name', 'type'])).status.message).toBe('field label not supported: data');
  });
});
