// A string as a JSON literal, escaped the way the Go JSON writer that
// produced kube's bytes escapes it. Two writers matter:
// - encoding/json (json.Marshal, Go 1.22 and later): \b \f \n \r \t, other
//   controls as \u00XX, <, > and & as \u003c \u003e \u0026 (HTML-safe), the
//   line and paragraph separators as \u2028 \u2029;
// - json-iterator (structured-merge-diff's field paths): the same but \b and
//   \f as \u0008 and \u000c; its plain writer (no HTML escaping) leaves <, >,
//   &, U+2028 and U+2029 as they are.
// Invalid UTF-8 (a lone surrogate here) is written as U+FFFD: escaped by the
// HTML-safe writers, as the character itself by json-iterator's plain one.

export type GoJsonWriter = 'encoding/json' | 'json-iterator' | 'json-iterator-plain';

const HEX = '0123456789abcdef';

/** The JSON string literal (with its quotes) for s. */
export function goJsonString(s: string, writer: GoJsonWriter = 'encoding/json'): string {
  const shortBF = writer === 'encoding/json';
  const escapeHTML = writer !== 'json-iterator-plain';
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x20) {
      if (c === 0x0a) esc = '\\n';
      else if (c === 0x0d) esc = '\\r';
      else if (c === 0x09) esc = '\\t';
      else if (shortBF && c === 0x08) esc = '\\b';
      else if (shortBF && c === 0x0c) esc = '\\f';
      else esc = '\\u00' + HEX[c >> 4] + HEX[c & 0xf];
    } else if (c === 0x22) esc = '\\"';
    else if (c === 0x5c) esc = '\\\\';
    else if (escapeHTML && (c === 0x3c || c === 0x3e || c === 0x26)) esc = '\\u00' + HEX[c >> 4] + HEX[c & 0xf];
    else if (escapeHTML && (c === 0x2028 || c === 0x2029)) esc = c === 0x2028 ? '\\u2028' : '\\u2029';
    else if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      esc = escapeHTML ? '\\ufffd' : '\ufffd';
    }
    if (esc !== undefined) {
      out += s.slice(start, i) + esc;
      start = i + 1;
    }
  }
  return out + s.slice(start) + '"';
}
