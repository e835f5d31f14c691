// --cors-allowed-origins, as kube-apiserver's WithCORS filter (k8s.io/apiserver
// server/filters/cors.go, 1.32) and the flag's check (server_run_options.go):
//
// - The flag is a comma-separated list of regular expressions; an empty
//   list leaves CORS off. Each must be non-empty, compile, and pin the host:
//   contain "^" or "//" and "$" or ":" (CVE-2022-1996), else the server does
//   not start.
// - A request whose Origin header matches one of them (anywhere in the
//   header: the expressions are not anchored for you) gets
//   Access-Control-Allow-Origin (the Origin, echoed), -Allow-Methods,
//   -Allow-Headers, -Expose-Headers and -Allow-Credentials: true; an OPTIONS
//   request is then answered 204 at once, before authentication, which is
//   the preflight. Every other request goes on unchanged: a foreign origin
//   gets no CORS header at all (its preflight gets the server's 405), and
//   the browser refuses the answer.
// - The filter sets no Vary header, and neither does this.
//
// The filter sits outside authentication in kube's handler chain, so a 401 or
// 403 carries the CORS headers too (a browser app can read it). The chain's
// outer filters still run for the preflight: it has an Audit-Id and
// Cache-Control: no-cache, private, as here.

import { newAuditId } from '../../core/api/access';

/** The defaults WithCORS uses when given nil (kube-apiserver passes nil). */
export const CORS_ALLOWED_METHODS = 'POST, GET, OPTIONS, PUT, DELETE, PATCH';
export const CORS_ALLOWED_HEADERS = 'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since';
export const CORS_EXPOSED_HEADERS = 'Date';

const HELP =
  'List of allowed origins for CORS, comma separated. An allowed origin can be a regular expression to support subdomain matching. ' +
  'If this list is empty CORS will not be enabled. Please ensure each expression matches the entire hostname by anchoring to the start with ' +
  "'^' or including the '//' prefix, and by anchoring to the end with '$' or including the ':' port separator suffix. " +
  "Examples of valid expressions are '//example\\.com(:|$)' and '^https://example\\.com(:|$)'";

/** The flag's value as pflag's StringSlice reads it: comma-separated, each item trimmed of nothing (kube keeps spaces). */
export function splitCorsFlag(value: string | undefined): string[] {
  if (value === undefined || value === '') return [];
  return value.split(',');
}

/**
 * Checks and compiles the expressions, with kube-apiserver's messages.
 * Throws one Error listing every problem. Go's RE2 syntax and JavaScript's
 * agree on what origin patterns use (classes, groups, alternation, anchors);
 * an expression using what only one of them knows is reported as invalid.
 */
export function compileCorsOrigins(patterns: readonly string[]): RegExp[] {
  const problems: string[] = [];
  const compiled: RegExp[] = [];
  for (const pattern of patterns) {
    if (pattern.length === 0) {
      problems.push(`empty value in --cors-allowed-origins, help: ${HELP}`);
      continue;
    }
    let re: RegExp;
    try {
      // RE2 has no lookaround or backreferences: refuse them as Go's regexp.Compile would.
      if (/\(\?[=!<]|\\[1-9]/.test(pattern)) throw new Error(`invalid or unsupported Perl syntax in ${JSON.stringify(pattern)}`);
      re = new RegExp(pattern);
    } catch (error) {
      problems.push(`--cors-allowed-origins has an invalid regular expression: error parsing regexp: ${(error as Error).message}, help: ${HELP}`);
      continue;
    }
    const pinStart = pattern.includes('^') || pattern.includes('//');
    const pinEnd = pattern.includes('$') || pattern.includes(':');
    if (!pinStart || !pinEnd) {
      problems.push(`--cors-allowed-origins has an invalid regular expression: regular expression does not pin to start/end of host in the origin header, help: ${HELP}`);
      continue;
    }
    compiled.push(re);
  }
  if (problems.length === 1) throw new Error(problems[0]);
  if (problems.length > 1) throw new Error(`[${problems.join(', ')}]`);
  return compiled;
}

export type FetchLikeHandler<A extends unknown[]> = (request: Request, ...rest: A) => Promise<Response>;

/** The CORS headers for an allowed origin. */
function corsHeaders(origin: string): [string, string][] {
  return [
    ['Access-Control-Allow-Origin', origin],
    ['Access-Control-Allow-Methods', CORS_ALLOWED_METHODS],
    ['Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS],
    ['Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS],
    ['Access-Control-Allow-Credentials', 'true'],
  ];
}

/** The Origin header when one of the expressions matches it. */
export function allowedOrigin(origins: readonly RegExp[], origin: string | null): string | undefined {
  if (!origin) return undefined;
  return origins.some((re) => re.test(origin)) ? origin : undefined;
}

/**
 * Wraps a request handler with the filter. With no expressions the handler
 * is returned as it is (CORS off), as WithCORS does.
 */
export function withCors<A extends unknown[]>(handler: FetchLikeHandler<A>, origins: readonly RegExp[]): FetchLikeHandler<A> {
  if (origins.length === 0) return handler;
  return async (request, ...rest) => {
    const origin = allowedOrigin(origins, request.headers.get('origin'));
    if (origin === undefined) return handler(request, ...rest);
    if (request.method.toUpperCase() === 'OPTIONS') {
      // The preflight: answered here, before authentication.
      return new Response(null, { status: 204, headers: [...corsHeaders(origin), ['Audit-Id', newAuditId()], ['Cache-Control', 'no-cache, private']] });
    }
    const response = await handler(request, ...rest);
    try {
      for (const [name, value] of corsHeaders(origin)) response.headers.set(name, value);
      return response;
    } catch {
      // A response with immutable headers: the same response, headers copied.
      const headers = new Headers(response.headers);
      for (const [name, value] of corsHeaders(origin)) headers.set(name, value);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
  };
}
