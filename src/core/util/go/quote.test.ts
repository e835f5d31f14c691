// strconv.Quote / strconv.IsPrint as Go 1.23 (kube-apiserver 1.32) prints
// them into error messages such as `Invalid value: "a\x01"` and `[name="x"]`.

import { describe, expect, it } from 'vitest';
import { goQuote, goQuoteRune, isGoPrint } from './quote';

describe('goQuote (strconv.Quote)', () => {
  it('escapes the quote and the backslash, keeps printable text', () => {
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goQuote('héllo ✓ 😀')).toBe('"héllo ✓ 😀"');
    expect(goQuote('')).toBe('""');
  });

  it('writes the C escapes \\a \\b \\f \\n \\r \\t \\v for those controls', () => {
    expect(goQuote('\x07\b\f\n\r\t\v')).toBe('"\\a\\b\\f\\n\\r\\t\\v"');
  });

  it('writes other non-printable runes as \\xHH below 0x80, \\uHHHH in the BMP, \\UHHHHHHHH above', () => {
    expect(goQuote('\x01\x7f')).toBe('"\\x01\\x7f"');
    expect(goQuote('\u0085\u00a0\u2028\ue000')).toBe('"\\u0085\\u00a0\\u2028\\ue000"');
    expect(goQuote('\u{10ffff}')).toBe('"\\U0010ffff"');
  });

  it('writes a lone surrogate (invalid UTF-8 to Go) as the escape of U+FFFD', () => {
    expect(goQuote('a\ud800b')).toBe('"a\\ufffdb"');
    expect(goQuoteRune(0xdc00)).toBe('\\ufffd');
  });
});

describe('isGoPrint (strconv.IsPrint)', () => {
  it('accepts letters, marks, numbers, punctuation, symbols and the ASCII space only', () => {
    expect([0x20, 0x41, 0x7e, 0xe9, 0x301, 0x2713, 0x1f600].every(isGoPrint)).toBe(true);
    expect([0x00, 0x09, 0x7f, 0x85, 0xa0, 0x2028, 0x3000, 0xfeff, 0xd800].some(isGoPrint)).toBe(false);
  });
});
