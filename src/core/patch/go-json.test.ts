// Rule checked: a patch body that is not JSON is rejected with encoding/json's
// own error text, which kube-apiserver returns verbatim (400 BadRequest).

import { describe, expect, it } from 'vitest';
import { GoJsonSyntaxError, objectEntries, parseGoJson, RawScalar, unwrapRaw } from './go-json';
import { decodeIntoEvanphxPatch, decodeIntoJsonPatchOps, decodeIntoMapOfInterface } from './go-json-decode';

function syntaxError(text: string): string {
  try {
    parseGoJson(text);
  } catch (e) {
    if (e instanceof GoJsonSyntaxError) return e.message;
    throw e;
  }
  throw new Error(`parsed: ${text}`);
}

describe('syntax errors worded as encoding/json', () => {
  it.each([
    ['', 'unexpected end of JSON input'],
    ['   \n', 'unexpected end of JSON input'],
    ['{"a":', 'unexpected end of JSON input'],
    ['"abc', 'unexpected end of JSON input'],
    ['tru', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ['{a:1}', "invalid character 'a' looking for beginning of object key string"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', 'invalid character \'"\' after object key:value pair'],
    ['[1 2]', "invalid character '2' after array element"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['01', "invalid character '1' after top-level value"],
    ['[01]', "invalid character '1' after array element"],
    ['-x', "invalid character 'x' in numeric literal"],
    ['1.x', "invalid character 'x' after decimal point in numeric literal"],
    ['1ex', "invalid character 'x' in exponent of numeric literal"],
    ['trux', "invalid character 'x' in literal true (expecting 'e')"],
    ['fals', 'unexpected end of JSON input'],
    ['fAlse', "invalid character 'A' in literal false (expecting 'a')"],
    ['nulL', "invalid character 'L' in literal null (expecting 'l')"],
    ['"\\x"', "invalid character 'x' in string escape code"],
    ['"\\u12G4"', "invalid character 'G' in \\u hexadecimal character escape"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['"a\u0001"', "invalid character '\\x01' in string literal"],
    // The scanner reports bytes: é is C3 A9, a BOM is EF BB BF.
    ['é', "invalid character 'Ã' looking for beginning of value"],
    ['\ufeff{}', "invalid character 'ï' looking for beginning of value"],
    ['apiVersion: v1', "invalid character 'a' looking for beginning of value"],
  ])('%j → %s', (text, message) => {
    expect(syntaxError(text)).toBe(message);
  });

  it('refuses nesting deeper than 1000 levels (KubeTab\'s bound; Go\'s is 10000) with Go\'s message', () => {
    expect(syntaxError('['.repeat(1001) + ']'.repeat(1001))).toBe("invalid character '[' exceeded max depth");
    expect(parseGoJson('['.repeat(1000) + ']'.repeat(1000))).toBeInstanceOf(Array);
  });
});

describe('values', () => {
  it('decodes escapes as Go does (lone surrogates become U+FFFD)', () => {
    expect(parseGoJson('"\\ud83d\\ude00 \\u00e9\\/\\b"')).toBe('😀 é/\b');
    expect(parseGoJson('"\\ud83d"')).toBe('\ufffd');
    expect(parseGoJson('"\\ude00x"')).toBe('\ufffdx');
    expect(parseGoJson('"\\ud83dx"')).toBe('\ufffdx');
  });

  it('keeps a "__proto__" member as data', () => {
    const v = parseGoJson('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('last repeated key wins, and every occurrence is remembered for strict checks', () => {
    const v = parseGoJson('{"a":1,"b":2,"a":3}') as Record<string, unknown>;
    expect(v).toEqual({ a: 3, b: 2 });
    expect(objectEntries(v)).toEqual([
      ['a', 1],
      ['b', 2],
      ['a', 3],
    ]);
  });

  it('keepRaw keeps the source text of scalars', () => {
    const v = parseGoJson('[1.0, "\\u0061", true]', { keepRaw: true }) as RawScalar[];
    expect(v.map((s) => s.raw)).toEqual(['1.0', '"\\u0061"', 'true']);
    expect(unwrapRaw(v)).toEqual([1, 'a', true]);
  });
});

describe('type errors worded as encoding/json', () => {
  const typeError = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  };

  it('map[string]interface {} (merge and strategic merge patches)', () => {
    expect(typeError(() => decodeIntoMapOfInterface(parseGoJson('[1]'), true))).toBe(
      'json: cannot unmarshal array into Go value of type map[string]interface {}',
    );
    expect(typeError(() => decodeIntoMapOfInterface(parseGoJson('"x"'), false))).toBe(
      'json: cannot unmarshal string into Go value of type map[string]interface {}',
    );
    expect(typeError(() => decodeIntoMapOfInterface(parseGoJson('{"a":[1e999]}'), true))).toBe(
      'json: cannot unmarshal number 1e999 into Go value of type float64',
    );
    expect(decodeIntoMapOfInterface(parseGoJson('null'), true)).toEqual([]);
  });

  it('strict decoding reports repeated keys at any depth, each text once', () => {
    expect(decodeIntoMapOfInterface(parseGoJson('{"a":1,"a":2,"b":{"c":1,"c":2},"d":[{"a":1,"a":1}]}'), true)).toEqual([
      'duplicate field "a"',
      'duplicate field "c"',
    ]);
    expect(decodeIntoMapOfInterface(parseGoJson('{"a":1,"a":2}'), false)).toEqual([]);
  });

  it('[]handlers.jsonPatchOp (JSON patch under Warn/Strict)', () => {
    expect(typeError(() => decodeIntoJsonPatchOps(parseGoJson('{"op":"add"}')))).toBe(
      'json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    );
    expect(typeError(() => decodeIntoJsonPatchOps(parseGoJson('["add"]')))).toBe(
      'json: cannot unmarshal string into Go value of type handlers.jsonPatchOp',
    );
    expect(typeError(() => decodeIntoJsonPatchOps(parseGoJson('[{"op":1}]')))).toBe(
      'json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string',
    );
    expect(typeError(() => decodeIntoJsonPatchOps(parseGoJson('[{"op":"add","path":["a"]}]')))).toBe(
      'json: cannot unmarshal array into Go struct field jsonPatchOp.path of type string',
    );
    expect(decodeIntoJsonPatchOps(parseGoJson('[{"op":"add","op":"remove","Path":"/a","x":{"y":1,"y":2},"value":{"k":1,"k":2}}]'))).toEqual([
      'duplicate field "op"',
      'unknown field "Path"',
      'unknown field "x"',
      'duplicate field "k"',
    ]);
  });

  it('jsonpatch.Patch (JSON patch under Ignore)', () => {
    expect(typeError(() => decodeIntoEvanphxPatch(parseGoJson('{}')))).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    expect(typeError(() => decodeIntoEvanphxPatch(parseGoJson('[1]')))).toBe('json: cannot unmarshal number into Go value of type jsonpatch.Operation');
    expect(typeError(() => decodeIntoEvanphxPatch(parseGoJson('[null, {"op": 5}]')))).toBe('no error');
  });
});
