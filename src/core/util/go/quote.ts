// strconv.Quote and strconv.IsPrint: how Go's %q prints a string. Kubernetes
// puts %q texts into error messages (field paths `[name="x"]`, selector and
// patch errors), so the escapes must be Go's, not JSON's.

const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;

/** strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function isGoPrint(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x20 && cp < 0x7f;
  return PRINTABLE.test(String.fromCodePoint(cp));
}

/**
 * One rune as strconv.Quote writes it between the quotes. A surrogate code
 * point (only a lone one reaches here) is not valid UTF-8: it is written as
 * the escape of U+FFFD, the rune Go decodes it to.
 */
export function goQuoteRune(cp: number): string {
  switch (cp) {
    case 0x07:
      return '\\a';
    case 0x08:
      return '\\b';
    case 0x0c:
      return '\\f';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    case 0x0b:
      return '\\v';
    case 0x5c:
      return '\\\\';
    case 0x22:
      return '\\"';
  }
  if (cp >= 0xd800 && cp <= 0xdfff) return '\\ufffd';
  if (isGoPrint(cp)) return String.fromCodePoint(cp);
  if (cp < 0x80) return `\\x${cp.toString(16).padStart(2, '0')}`;
  return cp < 0x10000 ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\U${cp.toString(16).padStart(8, '0')}`;
}

/** strconv.Quote (fmt's %q of a string). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) out += goQuoteRune(ch.codePointAt(0)!);
  return out + '"';
}
