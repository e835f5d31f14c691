// Indents compact JSON text as JSON.stringify(value, null, 2) lays the value
// out (and so as encodeJson's pretty output, Go's json.MarshalIndent with two
// spaces): one member or element per line, `": "` after keys, `{}` and `[]`
// kept on one line. It works on the text, not on a parsed value, so key order
// (Go's map order for integer-like keys, which a JS object cannot hold) and
// string escapes stay exactly as they were. Every line after the first starts
// with `prefix` — the depth at which the value sits in an enclosing document.

const INDENT = '  ';

export function indentJson(compact: string, prefix = ''): string {
  let out = '';
  let depth = 0;
  let inString = false;
  let start = 0;
  const newline = (d: number) => `\n${prefix}${INDENT.repeat(d)}`;
  for (let i = 0; i < compact.length; i++) {
    const c = compact.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    switch (c) {
      case 0x22: // "
        inString = true;
        break;
      case 0x7b: // {
      case 0x5b: {
        // [
        const close = c === 0x7b ? 0x7d : 0x5d;
        if (compact.charCodeAt(i + 1) === close) {
          i++; // empty: stays `{}` / `[]`
          break;
        }
        out += compact.slice(start, i + 1) + newline(++depth);
        start = i + 1;
        break;
      }
      case 0x7d: // }
      case 0x5d: // ]
        out += compact.slice(start, i) + newline(--depth) + compact[i];
        start = i + 1;
        break;
      case 0x2c: // ,
        out += compact.slice(start, i + 1) + newline(depth);
        start = i + 1;
        break;
      case 0x3a: // :
        out += compact.slice(start, i + 1) + ' ';
        start = i + 1;
        break;
      default:
        break;
    }
  }
  return out + compact.slice(start);
}
