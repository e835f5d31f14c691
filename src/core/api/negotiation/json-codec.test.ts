// JSON in and out as kube-apiserver's Go code does it: encoding/json's
// syntax error texts for request bodies, and its escaping and layout for
// responses (compact + newline, or MarshalIndent for ?pretty).

import { describe, expect, it } from 'vitest';
import { compareGoStrings, decodeJson, encodeJson, JsonSyntaxError } from './index';

function syntaxError(text: string): string {
  try {
    decodeJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return err.message;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('JSON syntax errors (encoding/json texts)', () => {
  it('empty or cut-off input', () => {
    expect(syntaxError('')).toBe('unexpected end of JSON input');
    expect(syntaxError('   ')).toBe('unexpected end of JSON input');
    expect(syntaxError('{"apiVersion":"v1","kind":"Pod"')).toBe('unexpected end of JSON input');
    expect(syntaxError('{"a":')).toBe('unexpected end of JSON input');
    expect(syntaxError('["a"')).toBe('unexpected end of JSON input');
    expect(syntaxError('"abc')).toBe('unexpected end of JSON input');
  });

  it('a value cannot start with that character', () => {
    expect(syntaxError('x')).toBe("invalid character 'x' looking for beginning of value");
    expect(syntaxError('{"a": }')).toBe("invalid character '}' looking for beginning of value");
    expect(syntaxError('[1,]')).toBe("invalid character ']' looking for beginning of value");
    expect(syntaxError("{'a': 1}")).toBe("invalid character '\\'' looking for beginning of object key string");
  });

  it('object punctuation', () => {
    expect(syntaxError('{"a" 1}')).toBe("invalid character '1' after object key");
    expect(syntaxError('{"a": 1 "b": 2}')).toBe("invalid character '\"' after object key:value pair");
    expect(syntaxError('{"a": 1,}')).toBe("invalid character '}' looking for beginning of object key string");
    expect(syntaxError('{a: 1}')).toBe("invalid character 'a' looking for beginning of object key string");
  });

  it('array punctuation and trailing text', () => {
    expect(syntaxError('[1 2]')).toBe("invalid character '2' after array element");
    expect(syntaxError('{} {}')).toBe("invalid character '{' after top-level value");
    expect(syntaxError('01')).toBe("invalid character '1' after top-level value");
  });

  it('numbers', () => {
    expect(syntaxError('-x')).toBe("invalid character 'x' in numeric literal");
    expect(syntaxError('1.x')).toBe("invalid character 'x' after decimal point in numeric literal");
    expect(syntaxError('1ex')).toBe("invalid character 'x' in exponent of numeric literal");
    // An unfinished number at the end is reported as a space, as Go's scanner does.
    expect(syntaxError('-')).toBe("invalid character ' ' in numeric literal");
    expect(syntaxError('[1.')).toBe("invalid character ' ' after decimal point in numeric literal");
  });

  it('literals', () => {
    expect(syntaxError('tru')).toBe("invalid character ' ' in literal true (expecting 'e')");
    expect(syntaxError('nul1')).toBe("invalid character '1' in literal null (expecting 'l')");
    expect(syntaxError('{"a": fals}')).toBe("invalid character '}' in literal false (expecting 'e')");
    expect(syntaxError('True')).toBe("invalid character 'T' looking for beginning of value");
  });

  it('strings', () => {
    expect(syntaxError('"a\tb"')).toBe("invalid character '\\t' in string literal");
    expect(syntaxError('"a\nb"')).toBe("invalid character '\\n' in string literal");
    expect(syntaxError('"\\x"')).toBe("invalid character 'x' in string escape code");
    expect(syntaxError('"\\u12g4"')).toBe("invalid character 'g' in \\u hexadecimal character escape");
  });

  it('the offending byte is shown as Go shows a byte: a BOM starts with \'ï\'', () => {
    expect(syntaxError('\ufeff{}')).toBe("invalid character 'ï' looking for beginning of value");
    expect(syntaxError('\u0001')).toBe("invalid character '\\x01' looking for beginning of value");
  });
});

describe('JSON decoding', () => {
  it('gives the value', () => {
    expect(decodeJson('{"a":[1,2.5,true,null,"x"]}').value).toEqual({ a: [1, 2.5, true, null, 'x'] });
  });

  it('reports duplicate keys with strict-decoding paths, keeping the last value', () => {
    const d = decodeJson('{"metadata":{"name":"a","name":"b"},"spec":{"containers":[{"name":"c","image":"x","name":"d"}]},"kind":"Pod","kind":"Pod"}');
    expect(d.duplicateFields).toEqual(['metadata.name', 'spec.containers[0].name', 'kind']);
    expect((d.value as { metadata: { name: string } }).metadata.name).toBe('b');
  });

  it('an unpaired surrogate escape becomes U+FFFD, as in Go', () => {
    expect(decodeJson('"\\ud800x"').value).toBe('\ufffdx');
    expect(decodeJson('"\\ud83d\\ude00"').value).toBe('😀');
  });

  it('accepts bytes, replacing invalid UTF-8 like Go', () => {
    expect(decodeJson(new Uint8Array([0x22, 0xff, 0x22])).value).toBe('\ufffd');
  });
});

describe('JSON encoding (encoding/json output)', () => {
  it('compact output ends with a newline; pretty output is indented by two spaces with none', () => {
    expect(encodeJson({ a: 1, b: [1, 2], c: {} })).toBe('{"a":1,"b":[1,2],"c":{}}\n');
    expect(encodeJson({ a: 1, b: [1, 2], c: {}, d: [] }, { pretty: true })).toBe('{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ],\n  "c": {},\n  "d": []\n}');
    expect(encodeJson({ a: 1 }, true)).toBe('{\n  "a": 1\n}');
  });

  it('escapes <, >, & and U+2028/U+2029 as Go does', () => {
    expect(encodeJson({ html: '<a href="x">&</a>', ls: '\u2028\u2029' })).toBe('{"html":"\\u003ca href=\\"x\\"\\u003e\\u0026\\u003c/a\\u003e","ls":"\\u2028\\u2029"}\n');
  });

  it('control characters: \\b \\f \\n \\r \\t short, others \\u00xx', () => {
    expect(encodeJson('\b\f\n\r\t\u0001\u001f')).toBe('"\\b\\f\\n\\r\\t\\u0001\\u001f"\n');
  });

  it('an unpaired surrogate is written as \\ufffd, but an escaped backslash before "ud800" is text', () => {
    expect(encodeJson('a\ud800b')).toBe('"a\\ufffdb"\n');
    expect(encodeJson('\\ud800')).toBe('"\\\\ud800"\n');
  });

  it('numbers as Go prints float64: exponents below 1e-6 and from 1e21', () => {
    expect(encodeJson([1, 0.5, 1e-7, 1e21, 123456789])).toBe('[1,0.5,1e-7,1e+21,123456789]\n');
  });

  it('sortKeys sorts every object\'s keys by bytes, including integer-like keys JavaScript would put first', () => {
    expect(encodeJson({ b: 1, a: { z: 1, y: 2 }, '10': 0, '9': 0 }, { sortKeys: true })).toBe('{"10":0,"9":0,"a":{"y":2,"z":1},"b":1}\n');
    expect(encodeJson({ b: [{ d: 1, c: 2 }], a: 1 }, { sortKeys: true, pretty: true })).toBe(
      '{\n  "a": 1,\n  "b": [\n    {\n      "c": 2,\n      "d": 1\n    }\n  ]\n}',
    );
  });

  it('without sortKeys, insertion order is kept (struct field order is the producer\'s)', () => {
    expect(encodeJson({ kind: 'Pod', apiVersion: 'v1' })).toBe('{"kind":"Pod","apiVersion":"v1"}\n');
  });

  it('compareGoStrings orders by code point (UTF-8 byte order)', () => {
    expect(['b', 'B', 'a', '\u{1F600}', '\uffff'].sort(compareGoStrings)).toEqual(['B', 'a', 'b', '\uffff', '\u{1F600}']);
  });
});
