// Go strings are UTF-8 bytes: their order (sort.Strings, sorted map keys in
// json.Marshal and fmt) and their len() are those of the bytes, not of
// JavaScript's UTF-16 code units.

/**
 * strings.Compare on the UTF-8 bytes: -1, 0 or 1. UTF-16 code units order
 * like code points except that a surrogate (a character above U+FFFF) must
 * sort after U+E000–U+FFFF, as its UTF-8 lead byte does.
 */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys) return xs ? 1 : -1;
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** An object's keys in Go's map order. */
export function goSortedKeys(obj: Record<string, unknown>): string[] {
  return Object.keys(obj).sort(compareGoStrings);
}

/**
 * len() of the string's UTF-8 encoding. A lone surrogate counts as the three
 * bytes of U+FFFD, which is what Go's decoders (and TextEncoder) turn it into.
 */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
