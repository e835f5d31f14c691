// The labelSelector query parameter as kube-apiserver 1.32 parses and
// matches it (k8s.io/apimachinery labels.Parse). Expected messages are the
// Go parser's texts, which kube puts unchanged into a 400 BadRequest Status.

import { describe, expect, it } from 'vitest';
import { messageThrownBy } from '../util/testing/thrown';
import { StatusError } from '../errors/status';
import {
  LabelSelector,
  labelRequirementsForAuthorization,
  newRequirement,
  parseLabelRequirements,
  parseLabelSelector,
  tryParseLabelSelector,
} from './index';

const QUALIFIED_NAME_REGEX =
  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const NAME_PART = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${QUALIFIED_NAME_REGEX}`;
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function errorOf(text: string): string {
  const r = tryParseLabelSelector(text);
  if (!r.error) throw new Error(`expected ${JSON.stringify(text)} to be rejected, got ${r.selector?.toString()}`);
  return r.error;
}

function reqs(text: string) {
  return parseLabelRequirements(text).map((r) => [r.key, r.operator, r.values]);
}

describe('label selector parsing: operators', () => {
  it('parses every operator kube knows (=, ==, !=, in, notin, exists, !, >, <)', () => {
    expect(reqs('a=1')).toEqual([['a', '=', ['1']]]);
    expect(reqs('a==1')).toEqual([['a', '==', ['1']]]);
    expect(reqs('a!=1')).toEqual([['a', '!=', ['1']]]);
    expect(reqs('a in (x,y)')).toEqual([['a', 'in', ['x', 'y']]]);
    expect(reqs('a notin (x)')).toEqual([['a', 'notin', ['x']]]);
    expect(reqs('a')).toEqual([['a', 'exists', []]]);
    expect(reqs('!a')).toEqual([['a', '!', []]]);
    expect(reqs('a>5')).toEqual([['a', 'gt', ['5']]]);
    expect(reqs('a<5')).toEqual([['a', 'lt', ['5']]]);
  });

  it('an empty selector (or only whitespace) selects everything', () => {
    for (const text of ['', '   ', '\t\n']) {
      const s = parseLabelSelector(text);
      expect(s.empty()).toBe(true);
      expect(s.matches({ anything: 'x' })).toBe(true);
    }
  });

  it('spaces, tabs and newlines separate tokens anywhere', () => {
    expect(reqs(' a = 1 , b != 2 ,\tc in ( x , y ) , ! d ')).toEqual([
      ['a', '=', ['1']],
      ['b', '!=', ['2']],
      ['c', 'in', ['x', 'y']],
      ['d', '!', []],
    ]);
  });

  it('requirements come out sorted by key (labels.Parse sorts ByKey)', () => {
    expect(reqs('z=1,a=2,m')).toEqual([
      ['a', '=', ['2']],
      ['m', 'exists', []],
      ['z', '=', ['1']],
    ]);
    expect(parseLabelSelector('z=1,a=2,m').toString()).toBe('a=2,m,z=1');
  });

  it('set values are sorted and de-duplicated (sets.String)', () => {
    expect(reqs('a in (c,b,c,a)')).toEqual([['a', 'in', ['a', 'b', 'c']]]);
  });

  it('empty values: `=` with nothing after it, `()` and missing values between commas are ""', () => {
    expect(reqs('a=')).toEqual([['a', '=', ['']]]);
    expect(reqs('a=,b')).toEqual([
      ['a', '=', ['']],
      ['b', 'exists', []],
    ]);
    expect(reqs('a in ()')).toEqual([['a', 'in', ['']]]);
    expect(reqs('a in (,x)')).toEqual([['a', 'in', ['', 'x']]]);
    expect(reqs('a in (x,)')).toEqual([['a', 'in', ['', 'x']]]);
    expect(reqs('a in (x,,y)')).toEqual([['a', 'in', ['', 'x', 'y']]]);
  });

  it('"in" and "notin" are plain words where a key or value is expected', () => {
    expect(reqs('in in (in,notin)')).toEqual([['in', 'in', ['in', 'notin']]]);
    expect(reqs('notin=in')).toEqual([['notin', '=', ['in']]]);
    expect(reqs('in')).toEqual([['in', 'exists', []]]);
  });

  it('symbol runs are cut at the longest operator: "!==" is "!=" then "="', () => {
    // "!==" lexes as "!=" followed by "=", and "=" is not a value.
    expect(errorOf('a!==b')).toBe("unable to parse requirement: found '=', expected: identifier");
    expect(errorOf('a<=1')).toBe("unable to parse requirement: found '=', expected: identifier");
  });

  it('keys may carry a DNS subdomain prefix', () => {
    expect(reqs('app.kubernetes.io/name=web')).toEqual([['app.kubernetes.io/name', '=', ['web']]]);
  });
});

describe('label selector parsing: kube error texts', () => {
  it('foo=bar=baz: a second "=" after a complete requirement', () => {
    expect(errorOf('foo=bar=baz')).toBe("found '=', expected: ',' or 'end of string'");
  });

  it('a value followed by another word', () => {
    expect(errorOf('a=b c')).toBe("found 'c', expected: ',' or 'end of string'");
  });

  it('a key followed by a word that is not an operator', () => {
    expect(errorOf('a b')).toBe("unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
  });

  it('a selector starting with an operator', () => {
    expect(errorOf('=a')).toBe("found '=', expected: !, identifier, or 'end of string'");
    expect(errorOf(',a')).toBe("found ',', expected: !, identifier, or 'end of string'");
  });

  it('a trailing or doubled comma', () => {
    expect(errorOf('a=b,')).toBe("found '', expected: identifier after ','");
    expect(errorOf('a,,b')).toBe("found ',', expected: identifier after ','");
  });

  it('"!" must be followed by a key, and "!key" takes no value', () => {
    expect(errorOf('!')).toBe("unable to parse requirement: found '', expected: identifier");
    expect(errorOf('!=a')).toBe("found '!=', expected: !, identifier, or 'end of string'");
    // kube returns the DoesNotExist requirement, then meets "=" where a comma belongs.
    expect(errorOf('!a=b')).toBe("found '=', expected: ',' or 'end of string'");
  });

  it('set syntax errors', () => {
    expect(errorOf('a in x')).toBe("unable to parse requirement: found 'x' expected: '('");
    expect(errorOf('a in (x')).toBe("unable to parse requirement: found '', expected: ',' or ')'");
    expect(errorOf('a in (x y)')).toBe("unable to parse requirement: found 'y', expected: ',' or ')'");
    expect(errorOf('a in (=)')).toBe("unable to parse requirement: found '=', expected: ',', ')' or identifier");
    expect(errorOf('a in (x,=)')).toBe("unable to parse requirement: found '=', expected: ',', or identifier");
    expect(errorOf('a in')).toBe("unable to parse requirement: found '' expected: '('");
  });

  it('an operator where the exact value belongs', () => {
    expect(errorOf('a=(b)')).toBe("unable to parse requirement: found '(', expected: identifier");
  });

  it('an invalid key is reported at the nil field path "<nil>"', () => {
    expect(errorOf('app:monolith')).toBe(`unable to parse requirement: <nil>: Invalid value: "app:monolith": ${NAME_PART}`);
    expect(errorOf('*bar=1')).toBe(`unable to parse requirement: <nil>: Invalid value: "*bar": ${NAME_PART}`);
    expect(errorOf('a/b/c=1')).toBe(
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${QUALIFIED_NAME_REGEX} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    );
  });

  it('an invalid prefix joins the problems with "; "', () => {
    expect(errorOf('Foo_/x')).toBe(
      `unable to parse requirement: <nil>: Invalid value: "Foo_/x": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    );
    expect(errorOf('/x')).toBe('unable to parse requirement: <nil>: Invalid value: "/x": prefix part must be non-empty');
  });

  it('a key longer than 63 characters', () => {
    const key = 'k'.repeat(64);
    expect(errorOf(key)).toBe(`unable to parse requirement: <nil>: Invalid value: "${key}": name part must be no more than 63 characters`);
  });

  it('an invalid value is reported at values[i][key] (after sorting)', () => {
    expect(errorOf('a=-x')).toBe(`unable to parse requirement: values[0][a]: Invalid value: "-x": ${LABEL_VALUE}`);
    expect(errorOf('a in (ok,-x)')).toBe(`unable to parse requirement: values[0][a]: Invalid value: "-x": ${LABEL_VALUE}`);
  });

  it('several invalid values are aggregated in brackets', () => {
    expect(errorOf('a in (-x,-y)')).toBe(
      `unable to parse requirement: [values[0][a]: Invalid value: "-x": ${LABEL_VALUE}, values[1][a]: Invalid value: "-y": ${LABEL_VALUE}]`,
    );
  });

  it('a value longer than 63 characters (length and charset problems joined with "; ")', () => {
    const v = 'v'.repeat(64);
    expect(errorOf(`a=${v}`)).toBe(`unable to parse requirement: values[0][a]: Invalid value: "${v}": must be no more than 63 characters`);
    const bad = `${'v'.repeat(63)}-`;
    expect(errorOf(`a=${bad}`)).toBe(`unable to parse requirement: values[0][a]: Invalid value: "${bad}": must be no more than 63 characters; ${LABEL_VALUE}`);
  });

  it('gt/lt need an integer', () => {
    expect(errorOf('a>b')).toBe(`unable to parse requirement: values[0]: Invalid value: "b": for 'Gt', 'Lt' operators, the value must be an integer`);
    expect(errorOf('a<1.5')).toBe(`unable to parse requirement: values[0]: Invalid value: "1.5": for 'Gt', 'Lt' operators, the value must be an integer`);
    // A negative bound is an integer but not a valid label value, so kube refuses it too.
    expect(errorOf('a>-3')).toBe(`unable to parse requirement: values[0][a]: Invalid value: "-3": ${LABEL_VALUE}`);
    expect(reqs('a>03')).toEqual([['a', 'gt', ['03']]]);
  });

  it('parseLabelSelector throws kube-apiserver\'s 400 BadRequest Status', () => {
    let caught: unknown;
    try {
      parseLabelSelector('foo=bar=baz');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StatusError);
    expect((caught as StatusError).status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "found '=', expected: ',' or 'end of string'",
      reason: 'BadRequest',
      code: 400,
    });
  });
});

describe('label selector matching', () => {
  const labels = { app: 'web', tier: 'frontend', replicas: '3', empty: '' };
  const m = (text: string, l: Record<string, string> = labels) => parseLabelSelector(text).matches(l);

  it('= and == need the key with that value', () => {
    expect(m('app=web')).toBe(true);
    expect(m('app==web')).toBe(true);
    expect(m('app=db')).toBe(false);
    expect(m('missing=web')).toBe(false);
    expect(m('empty=')).toBe(true);
    expect(m('missing=')).toBe(false);
  });

  it('!= and notin also match when the key is absent', () => {
    expect(m('app!=db')).toBe(true);
    expect(m('app!=web')).toBe(false);
    expect(m('missing!=web')).toBe(true);
    expect(m('app notin (db,cache)')).toBe(true);
    expect(m('app notin (web)')).toBe(false);
    expect(m('missing notin (web)')).toBe(true);
  });

  it('in needs the key with one of the values', () => {
    expect(m('tier in (backend,frontend)')).toBe(true);
    expect(m('tier in (backend)')).toBe(false);
    expect(m('missing in (x)')).toBe(false);
    expect(m('empty in ()')).toBe(true);
  });

  it('exists and ! look only at the key', () => {
    expect(m('app')).toBe(true);
    expect(m('empty')).toBe(true);
    expect(m('missing')).toBe(false);
    expect(m('!missing')).toBe(true);
    expect(m('!app')).toBe(false);
  });

  it('gt/lt compare the label as a 64-bit integer; a non-integer label never matches', () => {
    expect(m('replicas>2')).toBe(true);
    expect(m('replicas>3')).toBe(false);
    expect(m('replicas<4')).toBe(true);
    expect(m('app>1')).toBe(false);
    expect(m('missing<100')).toBe(false);
    expect(m('n>9223372036854775806', { n: '9223372036854775807' })).toBe(true);
    expect(m('n>0', { n: '9223372036854775808' })).toBe(false);
  });

  it('all requirements must hold (AND)', () => {
    expect(m('app=web,tier=frontend')).toBe(true);
    expect(m('app=web,tier=backend')).toBe(false);
  });

  it('objects without labels match only negative requirements', () => {
    const s = parseLabelSelector('!a,b!=c,d notin (e)');
    expect(s.matches(undefined)).toBe(true);
    expect(s.matches(null)).toBe(true);
    expect(parseLabelSelector('a').matches(undefined)).toBe(false);
  });

  it('inherited object properties are not labels', () => {
    expect(m('constructor', {})).toBe(false);
    expect(m('toString', {})).toBe(false);
  });

  it('accepts a Map as the label set', () => {
    expect(parseLabelSelector('a=1').matches(new Map([['a', '1']]))).toBe(true);
  });

  it('nothing() matches no label set and is not empty', () => {
    expect(LabelSelector.nothing().matches({})).toBe(false);
    expect(LabelSelector.nothing().empty()).toBe(false);
  });
});

describe('label selector helpers', () => {
  it('toString prints the canonical form (labels.Selector.String)', () => {
    expect(parseLabelSelector('b in (z,y), !c, a==1, d notin (x), e>5, f<6, g!=2, h').toString()).toBe(
      'a==1,b in (y,z),!c,d notin (x),e>5,f<6,g!=2,h',
    );
  });

  it('requiresExactMatch reports the one value =, == or a one-value in pins', () => {
    const s = parseLabelSelector('a=1,b in (2),c in (3,4),d!=5');
    expect(s.requiresExactMatch('a')).toBe('1');
    expect(s.requiresExactMatch('b')).toBe('2');
    expect(s.requiresExactMatch('c')).toBeUndefined();
    expect(s.requiresExactMatch('d')).toBeUndefined();
    expect(s.requiresExactMatch('x')).toBeUndefined();
  });

  it('add keeps the requirements sorted by key', () => {
    const s = parseLabelSelector('m=1').add(newRequirement('a', 'exists', []));
    expect(s.toString()).toBe('a,m=1');
  });

  it('authorization requirements (AuthorizeWithSelectors): In/NotIn/Exists/DoesNotExist, gt/lt left out', () => {
    const s = parseLabelSelector('a=1,b==2,c!=3,d in (x,y),e notin (z),f,!g,h>1,i<2');
    expect(labelRequirementsForAuthorization(s)).toEqual([
      { key: 'a', operator: 'In', values: ['1'] },
      { key: 'b', operator: 'In', values: ['2'] },
      { key: 'c', operator: 'NotIn', values: ['3'] },
      { key: 'd', operator: 'In', values: ['x', 'y'] },
      { key: 'e', operator: 'NotIn', values: ['z'] },
      { key: 'f', operator: 'Exists', values: [] },
      { key: 'g', operator: 'DoesNotExist', values: [] },
    ]);
  });
});

describe('newRequirement (labels.NewRequirement)', () => {
  it('reports bad value counts with the []string printed Go-style', () => {
    expect(messageThrownBy(() => newRequirement('a', 'in', null))).toBe("values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty");
    expect(messageThrownBy(() => newRequirement('a', '=', ['x', 'y']))).toBe(
      'values: Invalid value: []string{"x", "y"}: exact-match compatibility requires one single value',
    );
    expect(messageThrownBy(() => newRequirement('a', 'exists', ['x']))).toBe('values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist');
    expect(messageThrownBy(() => newRequirement('a', 'gt', []))).toBe("values: Invalid value: []string{}: for 'Gt', 'Lt' operators, exactly one value is required");
  });

  it('reports an unknown operator as Unsupported value with the supported list', () => {
    expect(messageThrownBy(() => newRequirement('a', 'like', ['x']))).toBe(
      'operator: Unsupported value: "like": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"',
    );
  });

  it('reports the key at "key" and prefixes a given field path', () => {
    expect(messageThrownBy(() => newRequirement('-a', 'exists', [], 'spec.selector'))).toBe(`spec.selector.key: Invalid value: "-a": ${NAME_PART}`);
  });
});
