// Parses a request path into what kube-apiserver's RequestInfoFactory would
// see: a resource request (group, version, namespace, resource, name,
// subresource) or a non-resource path, and the verb the request maps to.

import { queryBool } from './query-bool';
import { errors } from '../errors/status';

export type RouteVerb =
  | 'get'
  | 'list'
  | 'watch'
  | 'create'
  | 'update'
  | 'patch'
  | 'delete'
  | 'deletecollection';

export interface ResourceRoute {
  readonly kind: 'resource';
  /** '/api' or '/apis' */
  readonly prefix: '/api' | '/apis';
  readonly group: string;
  readonly version: string;
  readonly namespace: string;
  readonly resource: string;
  readonly name: string;
  readonly subresource: string;
  /**
   * What follows the subresource: the proxied path of `…/proxy/<path>` (kube's
   * proxy routes take `{path:*}`); no other subresource has one.
   */
  readonly subpath: string;
  readonly verb: RouteVerb;
  /** True when the path used the deprecated /watch/ segment. */
  readonly legacyWatchPath: boolean;
}

export interface NonResourceRoute {
  readonly kind: 'nonresource';
  readonly path: string;
  readonly verb: string;
}

export type Route = ResourceRoute | NonResourceRoute;

/** Subresources of namespaces that must not be read as a namespaced resource name. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

function splitPath(path: string): string[] {
  return path.split('/').filter((part) => part.length > 0);
}

/** A path segment's percent-escapes decoded; a malformed one is the client's error, as Go's URL parser says. */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    const bad = /%(?![0-9a-fA-F]{2}).{0,2}/.exec(segment)?.[0] ?? segment;
    throw errors.badRequest(`invalid URL escape ${JSON.stringify(bad)}`);
  }
}

function isWatchParam(value: string | null): boolean {
  return queryBool(value) === true;
}

/**
 * Builds the route for a request. Returns a non-resource route for anything
 * that is not /api/<v>/... or /apis/<g>/<v>/... with a resource segment.
 */
export function parseRoute(method: string, pathname: string, query: URLSearchParams): Route {
  const parts = splitPath(pathname).map(decodePathSegment);
  const httpVerb = method.toLowerCase();
  const nonResource = (): NonResourceRoute => ({ kind: 'nonresource', path: pathname, verb: httpVerb === 'head' ? 'get' : httpVerb });

  let prefix: '/api' | '/apis';
  let group = '';
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    prefix = '/api';
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    prefix = '/apis';
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return nonResource();
  }

  let legacyWatchPath = false;
  if (rest[0] === 'watch') {
    legacyWatchPath = true;
    rest = rest.slice(1);
    if (rest.length === 0) return nonResource();
  }

  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length >= 2) {
    namespace = rest[1]!;
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) rest = rest.slice(2);
  }
  const resource = rest[0] ?? '';
  const name = rest[1] ?? '';
  const subresource = rest[2] ?? '';
  const subpath = rest.slice(3).join('/');
  if (!resource) return nonResource();

  let verb: RouteVerb;
  switch (method.toUpperCase()) {
    case 'GET':
    case 'HEAD':
      if (legacyWatchPath || isWatchParam(query.get('watch'))) verb = 'watch';
      else verb = name ? 'get' : 'list';
      break;
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = name ? 'delete' : 'deletecollection';
      break;
    default:
      return nonResource();
  }
  return { kind: 'resource', prefix, group, version, namespace, resource, name, subresource, subpath, verb, legacyWatchPath };
}

/** The object or collection path of a resource route (used for selfLink-free messages and logs). */
export function routeCollectionPath(route: ResourceRoute): string {
  const base = route.prefix === '/api' ? `/api/${route.version}` : `/apis/${route.group}/${route.version}`;
  const ns = route.namespace && route.resource !== 'namespaces' ? `/namespaces/${route.namespace}` : '';
  return `${base}${ns}/${route.resource}`;
}
