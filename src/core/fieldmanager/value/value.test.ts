// The value order and printing smd uses for set members, list-map keys and
// field paths.

import { describe, expect, it } from 'vitest';
import { compareValues, equalValues } from './compare';
import { goJsonValue, goPlain, goSyntax, valueToString, smdValueSyntax, smdValuePlain } from './go-format';

describe('compareValues (value.Compare)', () => {
  it('ranks numbers < strings < booleans < lists < maps < null', () => {
    const ordered = [-1, 2.5, 10, '', 'a', 'b', false, true, [], [1], {}, { a: 1 }, null];
    const shuffled = [...ordered].reverse();
    expect(shuffled.sort(compareValues)).toEqual(ordered);
  });

  it('compares lists element by element, shorter first', () => {
    expect(compareValues([1, 2], [1, 3])).toBe(-1);
    expect(compareValues([1], [1, 0])).toBe(-1);
    expect(compareValues([2], [1, 9])).toBe(1);
  });

  it('compares strings as Go does (UTF-8 bytes), not as UTF-16 units', () => {
    // U+FF61 is one UTF-16 unit, U+1F600 two surrogates; in UTF-8 the emoji sorts after.
    expect(compareValues('\uff61', '\u{1f600}')).toBe(-1);
    expect('\uff61' < '\u{1f600}').toBe(false);
  });

  it('equalValues ignores map key order and compares numbers numerically', () => {
    expect(equalValues({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1.0 })).toBe(true);
    expect(equalValues({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(equalValues([], {})).toBe(false);
    expect(equalValues(null, null)).toBe(true);
  });
});

describe('Go printing', () => {
  it('valueToString renders keys and set members as in field paths', () => {
    expect(valueToString('web')).toBe('"web"');
    expect(valueToString(80)).toBe('80');
    expect(valueToString(1.5)).toBe('1.5');
    expect(valueToString(true)).toBe('true');
    expect(valueToString(null)).toBe('null');
    expect(valueToString([1, 'a'])).toBe('[1,"a"]');
    expect(valueToString('tab\t"')).toBe('"tab\\t\\""');
    expect(valueToString({ b: 2, a: 'x' })).toBe('a="x"b=2');
    expect(valueToString(1234567.5)).toBe('1.2345675e+06');
  });

  it('goPlain and goSyntax are fmt\'s %v and %#v of unstructured values', () => {
    expect(goPlain(null)).toBe('<nil>');
    expect(goPlain([1, 'a b', 0.00001, { z: true, a: null }])).toBe('[1 a b 1e-05 map[a:<nil> z:true]]');
    expect(goSyntax(null)).toBe('interface {}(nil)');
    expect(goSyntax({ 'k"': ['x', 2.5], a: {} })).toBe('map[string]interface {}{"a":map[string]interface {}{}, "k\\"":[]interface {}{"x", 2.5}}');
  });

  it('JSON in k: and v: escapes HTML in values, not in key names; control characters as \\u00XX', () => {
    expect(goJsonValue('<&>')).toBe('"\\u003c\\u0026\\u003e"');
    expect(goJsonValue('\b\f\n')).toBe('"\\u0008\\u000c\\n"');
    expect(goJsonValue({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}');
  });

  it('prints smd values in validation errors as Go’s %v and %#v do', () => {
    expect(smdValuePlain({ b: 1, a: 'x' })).toBe('&{map[a:x b:1]}');
    expect(smdValueSyntax('x')).toBe('&value.valueUnstructured{Value:"x"}');
    expect(smdValueSyntax([1, 2])).toBe('&value.valueUnstructured{Value:[]interface {}{1, 2}}');
  });
});
