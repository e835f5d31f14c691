// JSON string literals as Go's writers produce them: encoding/json (kube's
// json.Marshal, patch error texts) and json-iterator (managedFields' k:/v:).

import { describe, expect, it } from 'vitest';
import { goJsonString } from './json-string';

describe('goJsonString', () => {
  it('encoding/json: short escapes incl. \\b and \\f, other controls as \\u00XX, HTML-safe', () => {
    expect(goJsonString('\b\f\n\r\t\x01\x1f"\\')).toBe('"\\b\\f\\n\\r\\t\\u0001\\u001f\\"\\\\"');
    expect(goJsonString('<a&b>\u2028\u2029')).toBe('"\\u003ca\\u0026b\\u003e\\u2028\\u2029"');
  });

  it('json-iterator: \\b and \\f as \\u0008 and \\u000c, otherwise as encoding/json', () => {
    expect(goJsonString('\b\f\n<&>', 'json-iterator')).toBe('"\\u0008\\u000c\\n\\u003c\\u0026\\u003e"');
  });

  it('json-iterator-plain: no HTML escaping, separators kept as they are', () => {
    expect(goJsonString('<&>\u2028', 'json-iterator-plain')).toBe('"<&>\u2028"');
    expect(goJsonString('\b"', 'json-iterator-plain')).toBe('"\\u0008\\""');
  });

  it('keeps surrogate pairs; writes a lone surrogate as U+FFFD (escaped by the HTML-safe writers)', () => {
    expect(goJsonString('😀')).toBe('"😀"');
    expect(goJsonString('a\ud800b')).toBe('"a\\ufffdb"');
    expect(goJsonString('\udc00', 'json-iterator')).toBe('"\\ufffd"');
    expect(goJsonString('\udc00', 'json-iterator-plain')).toBe('"\ufffd"');
  });
});
