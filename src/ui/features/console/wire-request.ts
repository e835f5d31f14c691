// What the console's request is on the wire, whichever way the user wrote it:
// query parameters typed into the path count as the fields do (a
// `?watch=true` typed there streams like the checkbox), and a request with a
// body carries the Content-Type its body needs when none was chosen (a JSON
// body posted as application/json, a JSON patch body as a merge patch, a YAML
// body as YAML or, for PATCH, as an apply patch), so that a learner's first
// write is not a 415.

import type { ConsoleRequest } from '../../lib/store/console-slice';
import { hasBody } from './query-fields';

/** The path without its query, and the parameters typed after its `?`. */
export function splitPath(path: string): { pathname: string; params: URLSearchParams } {
  const at = path.indexOf('?');
  if (at < 0) return { pathname: path, params: new URLSearchParams() };
  return { pathname: path.slice(0, at), params: new URLSearchParams(path.slice(at + 1)) };
}

/** Every query parameter that is sent: the path's own, then the fields (a field that is set wins). */
export function effectiveQuery(request: Pick<ConsoleRequest, 'path' | 'query'>): Record<string, string> {
  const out: Record<string, string> = {};
  splitPath(request.path).params.forEach((value, name) => {
    if (!(name in out)) out[name] = value;
  });
  for (const [name, value] of Object.entries(request.query)) if (value !== '') out[name] = value;
  return out;
}

/**
 * A boolean query parameter as kube-apiserver reads it: present and neither
 * "0" nor "false" (any case) is true, even an empty value.
 */
export function queryFlag(value: string | undefined): boolean {
  return value !== undefined && value !== '0' && value.toLowerCase() !== 'false';
}

/** A GET the server answers with a stream of watch events. */
export function isWatch(request: Pick<ConsoleRequest, 'method' | 'path' | 'query'>): boolean {
  return request.method === 'GET' && queryFlag(effectiveQuery(request).watch);
}

function headerValue(request: Pick<ConsoleRequest, 'headers'>, name: string): string {
  return request.headers.find((h) => h.name.trim().toLowerCase() === name)?.value.trim() ?? '';
}

/** The Content-Type the console sends when none is chosen, from the method and what the body looks like. */
export function automaticContentType(method: string, body: string): string {
  const text = body.trimStart();
  const json = text === '' || text.startsWith('{') || text.startsWith('[');
  if (method === 'PATCH') {
    if (!json) return 'application/apply-patch+yaml';
    return text.startsWith('[') ? 'application/json-patch+json' : 'application/merge-patch+json';
  }
  return json ? 'application/json' : 'application/yaml';
}

/** The Content-Type the request goes out with: the one chosen, else the automatic one; none without a body. */
export function effectiveContentType(request: Pick<ConsoleRequest, 'method' | 'headers' | 'body'>): string {
  if (!hasBody(request.method)) return '';
  return headerValue(request, 'content-type') || automaticContentType(request.method, request.body);
}

/** The request's headers as sent (the identity's come from the API client): the rows, plus the automatic Content-Type. */
export function wireHeaders(request: Pick<ConsoleRequest, 'method' | 'headers' | 'body'>): Array<[string, string]> {
  const rows: Array<[string, string]> = request.headers.filter((h) => h.name.trim()).map((h) => [h.name.trim(), h.value]);
  if (hasBody(request.method) && !headerValue(request, 'content-type')) rows.push(['Content-Type', effectiveContentType(request)]);
  return rows;
}
