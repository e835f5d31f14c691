// Go strings are UTF-8 bytes: sort.Strings / sorted map keys and len().

import { describe, expect, it } from 'vitest';
import { compareGoStrings, goSortedKeys, utf8Length } from './strings';

describe('compareGoStrings (byte order of UTF-8)', () => {
  it('orders a character above U+FFFF after U+E000–U+FFFF, unlike UTF-16 order', () => {
    expect(compareGoStrings('\uff61', '\u{1f600}')).toBe(-1);
    expect(compareGoStrings('\u{1f600}', '\uffff')).toBe(1);
    expect('\uff61' < '\u{1f600}').toBe(false);
  });

  it('returns -1, 0 or 1 and puts a prefix first', () => {
    expect(compareGoStrings('a', 'ab')).toBe(-1);
    expect(compareGoStrings('ab', 'a')).toBe(1);
    expect(compareGoStrings('é', 'é')).toBe(0);
    expect(compareGoStrings('B', 'a')).toBe(-1);
  });

  it('goSortedKeys lists integer-like keys in byte order too (JS objects list them first)', () => {
    expect(goSortedKeys({ b: 1, '10': 2, '9': 3, A: 4 })).toEqual(['10', '9', 'A', 'b']);
  });
});

describe('utf8Length (len of the UTF-8 bytes)', () => {
  it('counts 1, 2, 3 and 4 bytes per character', () => {
    expect(utf8Length('a')).toBe(1);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('✓')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
    expect(utf8Length('aé✓😀')).toBe(10);
  });

  it('counts a lone surrogate as U+FFFD (3 bytes), as TextEncoder and Go decoders do', () => {
    for (const s of ['\ud800', '\udc00x', 'x\ud800\u00e9']) expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
  });
});
