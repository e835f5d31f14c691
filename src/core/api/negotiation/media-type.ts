// Parsing a Content-Type the way Go's mime.ParseMediaType does, which is
// what kube-apiserver uses to pick the decoder for a request body: the type
// is lower-cased and trimmed, parameters are `; name=value` with token or
// quoted-string values, parameter names are lower-cased, and anything
// malformed is an error (which kube turns into 415).

export interface MediaType {
  /** type/subtype, lower case, e.g. "application/json". */
  readonly mediaType: string;
  readonly params: Readonly<Record<string, string>>;
}

const TSPECIALS = new Set('()<>@,;:\\"/[]?=');
const isTokenChar = (c: string) => {
  const code = c.charCodeAt(0);
  return code > 0x20 && code < 0x7f && !TSPECIALS.has(c);
};
// unicode.IsSpace over the characters that can appear in a header.
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f' || c === '\u0085' || c === '\u00a0';

function trimLeftSpace(s: string): string {
  let i = 0;
  while (i < s.length && isSpace(s[i]!)) i++;
  return s.slice(i);
}

function trimSpace(s: string): string {
  let end = s.length;
  while (end > 0 && isSpace(s[end - 1]!)) end--;
  return trimLeftSpace(s.slice(0, end));
}

function consumeToken(v: string): [token: string, rest: string] {
  let i = 0;
  while (i < v.length && isTokenChar(v[i]!)) i++;
  return [v.slice(0, i), v.slice(i)];
}

/** A token, or a quoted-string with backslash escapes; ["", v] when neither. */
function consumeValue(v: string): [value: string, rest: string] {
  if (v === '') return ['', v];
  if (v[0] !== '"') return consumeToken(v);
  let out = '';
  for (let i = 1; i < v.length; i++) {
    const c = v[i]!;
    if (c === '"') return [out, v.slice(i + 1)];
    // Go honours a backslash only before a tspecial (a lone one is kept, as MSIE sends paths).
    if (c === '\\' && i + 1 < v.length && TSPECIALS.has(v[i + 1]!)) {
      out += v[i + 1];
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') return ['', v];
    out += c;
  }
  return ['', v];
}

function consumeParam(v: string): [name: string, value: string, rest: string] {
  let rest = trimLeftSpace(v);
  if (!rest.startsWith(';')) return ['', '', v];
  rest = trimLeftSpace(rest.slice(1));
  let name: string;
  [name, rest] = consumeToken(rest);
  name = name.toLowerCase();
  if (name === '') return ['', '', v];
  rest = trimLeftSpace(rest);
  if (!rest.startsWith('=')) return ['', '', v];
  rest = trimLeftSpace(rest.slice(1));
  const [value, rest2] = consumeValue(rest);
  if (value === '' && rest2 === rest) return ['', '', v];
  return [name, value, rest2];
}

function checkType(s: string): boolean {
  const [type, rest] = consumeToken(s);
  if (type === '') return false;
  if (rest === '') return true;
  if (!rest.startsWith('/')) return false;
  const [subtype, rest2] = consumeToken(rest.slice(1));
  return subtype !== '' && rest2 === '';
}

/** mime.ParseMediaType; undefined when Go would return an error. */
export function parseMediaType(header: string): MediaType | undefined {
  const semi = header.indexOf(';');
  const base = semi === -1 ? header : header.slice(0, semi);
  const mediaType = trimSpace(base.toLowerCase());
  if (!checkType(mediaType)) return undefined;
  const params: Record<string, string> = {};
  let v = header.slice(base.length);
  while (v.length > 0) {
    v = trimLeftSpace(v);
    if (v === '') break;
    const [name, value, rest] = consumeParam(v);
    if (name === '') {
      // A lone trailing ";" is tolerated.
      if (trimSpace(rest) === ';') break;
      return undefined;
    }
    if (Object.prototype.hasOwnProperty.call(params, name) && params[name] !== value) return undefined;
    params[name] = value;
    v = rest;
  }
  return { mediaType, params };
}
