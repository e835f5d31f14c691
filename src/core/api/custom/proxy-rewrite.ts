// What kube-apiserver's proxy transport (k8s.io/apimachinery util/proxy)
// does to a proxied exchange so that a page served behind
// /api/v1/namespaces/<ns>/services/<svc>/proxy/ still works: the request
// carries X-Forwarded-Uri; a redirect's Location and the URLs in an HTML
// page that point at the backend's own absolute paths are moved under the
// proxy's path (links to other hosts and relative links are left alone);
// CORS headers of the backend are dropped. HTML is re-serialized tag by tag
// as Go's x/net/html tokenizer writes start tags.

/** The URL attributes rewritten, by element (atomsToAttrs). */
const URL_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ['href'],
  applet: ['codebase'],
  area: ['href'],
  audio: ['src'],
  base: ['href'],
  blockquote: ['cite'],
  body: ['background'],
  button: ['formaction'],
  command: ['icon'],
  del: ['cite'],
  embed: ['src'],
  form: ['action'],
  frame: ['longdesc', 'src'],
  head: ['profile'],
  html: ['manifest'],
  iframe: ['longdesc', 'src'],
  img: ['longdesc', 'src', 'usemap'],
  input: ['src', 'usemap', 'formaction'],
  ins: ['cite'],
  link: ['href'],
  object: ['classid', 'codebase', 'data', 'usemap'],
  q: ['cite'],
  script: ['src'],
  source: ['src'],
  video: ['poster', 'src'],
};

/** Elements whose content is raw text up to their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

const CORS_HEADERS = ['Access-Control-Allow-Credentials', 'Access-Control-Allow-Headers', 'Access-Control-Allow-Methods', 'Access-Control-Allow-Origin'];

export interface ProxyPaths {
  /** The part of the request's path in front of the backend's path (…/proxy). */
  readonly pathPrepend: string;
  /** The request's host, as the client named it (a URL to this host is the backend's own). */
  readonly requestHost: string;
}

/** Go's path.Join of two absolute paths (cleaned, no trailing slash). */
function joinPath(a: string, b: string): string {
  const parts: string[] = [];
  for (const seg of `${a}/${b}`.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return `/${parts.join('/')}`;
}

/**
 * rewriteURL: an absolute path (or a URL to this same host) moves under the
 * proxy path; anything else is kept. The scheme and host of the server-side
 * request are empty in kube, so the result is a bare path.
 */
export function rewriteUrl(raw: string, paths: ProxyPaths, backendHost: string): string {
  const m = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(\?[^#]*)?(#.*)?$/.exec(raw);
  if (!m) return raw;
  const [, scheme, host, path = '', query = '', fragment = ''] = m;
  const differentHost = host !== undefined && host !== '' && host !== backendHost && host !== paths.requestHost;
  if (differentHost || !path.startsWith('/') || (scheme !== undefined && host === undefined)) return raw;
  let joined = joinPath(paths.pathPrepend, path);
  if (path.endsWith('/') && !joined.endsWith('/')) joined += '/';
  return `${joined}${query}${fragment}`;
}

function unescapeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos|#39);/g, (all, e: string) => {
    if (e === 'amp') return '&';
    if (e === 'lt') return '<';
    if (e === 'gt') return '>';
    if (e === 'quot') return '"';
    if (e === 'apos' || e === '#39') return "'";
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number(e.slice(1)));
    return all;
  });
}

/** x/net/html's escape of attribute values. */
function escapeAttr(s: string): string {
  return s.replace(/[&'<>"\r]/g, (c) => ({ '&': '&amp;', "'": '&#39;', '<': '&lt;', '>': '&gt;', '"': '&#34;', '\r': '&#13;' })[c]!);
}

interface Attr {
  key: string;
  val: string;
}

function parseAttributes(text: string): Attr[] {
  const attrs: Attr[] = [];
  const re = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) attrs.push({ key: m[1]!.toLowerCase(), val: unescapeEntities(m[2] ?? m[3] ?? m[4] ?? '') });
  return attrs;
}

/** rewriteHTML: every start tag re-serialized, URL attributes rewritten; everything else as it came. */
export function rewriteHtml(html: string, rewrite: (url: string) => string): string {
  let out = '';
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out += html.slice(i);
      break;
    }
    out += html.slice(i, lt);
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      const stop = end < 0 ? html.length : end + 3;
      out += html.slice(lt, stop);
      i = stop;
      continue;
    }
    const tag = /^<([a-zA-Z][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/.exec(html.slice(lt));
    if (!tag) {
      // An end tag, a doctype, or a stray '<': written as it is.
      const gt = html.indexOf('>', lt);
      const stop = gt < 0 ? html.length : gt + 1;
      out += html.slice(lt, stop);
      i = stop;
      continue;
    }
    const name = tag[1]!.toLowerCase();
    const attrs = parseAttributes(tag[2] ?? '');
    const urlAttrs = URL_ATTRIBUTES[name];
    if (urlAttrs) for (const a of attrs) if (urlAttrs.includes(a.key)) a.val = rewrite(a.val);
    out += `<${name}${attrs.map((a) => ` ${a.key}="${escapeAttr(a.val)}"`).join('')}${tag[3] ? '/' : ''}>`;
    i = lt + tag[0].length;
    if (RAW_TEXT.has(name) && !tag[3]) {
      const close = html.toLowerCase().indexOf(`</${name}`, i);
      const stop = close < 0 ? html.length : close;
      out += html.slice(i, stop);
      i = stop;
    }
  }
  return out;
}

/** The request headers the backend gets: the client's, less credentials and hop-by-hop ones, plus X-Forwarded-Uri. */
export function forwardedHeaders(incoming: Headers, forwardedUri: string, hopByHop: readonly string[]): Headers {
  const headers = new Headers();
  const connectionTokens = (incoming.get('connection') ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  incoming.forEach((value, name) => {
    const n = name.toLowerCase();
    // kube-apiserver's authentication filter removes the Authorization header once the request is authenticated.
    if (n === 'authorization' || hopByHop.includes(n) || connectionTokens.includes(n)) return;
    headers.append(name, value);
  });
  headers.set('X-Forwarded-Uri', forwardedUri);
  return headers;
}

/** The backend's response headers as the client gets them: CORS headers dropped, a Location moved under the proxy. */
export function responseHeaders(backend: Headers, paths: ProxyPaths, backendHost: string): Headers {
  const headers = new Headers(backend);
  for (const h of CORS_HEADERS) headers.delete(h);
  const location = headers.get('location');
  if (location) headers.set('Location', rewriteUrl(location, paths, backendHost));
  return headers;
}

/** Whether the response is HTML (the only content the transport rewrites). */
export function isHtml(headers: Headers): boolean {
  return (headers.get('content-type') ?? '').split(';')[0]!.trim() === 'text/html';
}
