// request.RequestInfoFactory: what a URL and HTTP method ask for, before any
// user is known. The rules are kube-apiserver's:
// - paths under /api/<version>/… and /apis/<group>/<version>/… are resource
//   requests; everything else (and anything shorter) is a non-resource request
//   whose verb is the lower-case HTTP method;
// - POST create, GET/HEAD get (list or watch without a name), PUT update,
//   PATCH patch, DELETE delete (deletecollection without a name);
// - the legacy /watch/ and /proxy/ path verbs;
// - namespaces/<ns>/<resource>/… names a namespaced resource, while
//   namespaces/<ns> and namespaces/<ns>/status|finalize are the namespace itself;
// - a list whose fieldSelector pins metadata.name is authorized as that name.

import { parseFieldSelectorRequirements, parseLabelSelectorRequirements } from './selector-requirements';
import type { RequestInfo } from './types';

const API_PREFIXES = new Set(['api', 'apis']);
const GROUPLESS_API_PREFIXES = new Set(['api']);
/** Verbs written into the path by old clients (/api/v1/watch/pods). */
const SPECIAL_VERBS = new Set(['proxy', 'watch']);
/** For proxy the rest of the path is the proxied path, not a subresource. */
const SPECIAL_VERBS_NO_SUBRESOURCES = new Set(['proxy']);
/** Subresources of a namespace that keep namespaces/<ns>/… about the namespace. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

export type QueryInput = URLSearchParams | string | Readonly<Record<string, string>> | undefined;

function toParams(query: QueryInput): URLSearchParams {
  if (query === undefined) return new URLSearchParams();
  if (typeof query === 'string') return new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  if (query instanceof URLSearchParams) return query;
  return new URLSearchParams(query as Record<string, string>);
}

function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

/** path.IsValidPathSegmentName: a name usable as one URL segment. */
export function isValidPathSegmentName(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}

/** Go's strconv.ParseBool, which query parameter decoding uses. */
function parseGoBool(value: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

/** The metadata.name a field selector requires exactly (fields.Selector.RequiresExactMatch). */
function exactNameFromFieldSelector(selector: string): string | undefined {
  const parsed = parseFieldSelectorRequirements(selector);
  if (!parsed.requirements) return undefined;
  for (const r of parsed.requirements) {
    if (r.key === 'metadata.name' && r.operator === 'In') return r.values?.[0];
  }
  return undefined;
}

export function requestInfoFor(method: string, path: string, query?: QueryInput): RequestInfo {
  const upper = method.toUpperCase();
  const nonResource: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };

  let parts = splitPath(path);
  if (parts.length < 3 || !API_PREFIXES.has(parts[0]!)) return nonResource;
  const apiPrefix = parts[0]!;
  parts = parts.slice(1);

  let apiGroup = '';
  if (!GROUPLESS_API_PREFIXES.has(apiPrefix)) {
    // /apis/<group>/<version>/<resource> needs one more segment than /api.
    if (parts.length < 3) return nonResource;
    apiGroup = parts[0]!;
    parts = parts.slice(1);
  }
  const apiVersion = parts[0]!;
  parts = parts.slice(1);

  let verb: string;
  let verbViaHttpMethod = false;
  if (SPECIAL_VERBS.has(parts[0]!)) {
    if (parts.length < 2) {
      // kube reports "unable to determine kind and namespace from url"; the
      // request is then treated as the non-resource request it cannot parse.
      return nonResource;
    }
    verb = parts[0]!;
    parts = parts.slice(1);
  } else {
    verbViaHttpMethod = true;
    switch (upper) {
      case 'POST':
        verb = 'create';
        break;
      case 'GET':
      case 'HEAD':
        verb = 'get';
        break;
      case 'PUT':
        verb = 'update';
        break;
      case 'PATCH':
        verb = 'patch';
        break;
      case 'DELETE':
        verb = 'delete';
        break;
      default:
        verb = '';
    }
  }

  let namespace = '';
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      namespace = parts[1]!;
      // namespaces/<ns>/<resource>… is about <resource>; namespaces/<ns>[/status|/finalize] about the namespace.
      if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
    }
  }

  let resource = '';
  let name = '';
  let subresource = '';
  if (parts.length >= 3 && !SPECIAL_VERBS_NO_SUBRESOURCES.has(verb)) subresource = parts[2]!;
  if (parts.length >= 2) name = parts[1]!;
  if (parts.length >= 1) resource = parts[0]!;

  const params = toParams(query);
  if (name === '' && verb === 'get') {
    const watchValues = params.getAll('watch');
    let watch = false;
    let parseFailed = false;
    if (watchValues.length > 0) {
      const parsed = parseGoBool(watchValues[0]!);
      if (parsed === undefined) {
        // kube falls back to "anything but false/0 is a watch" when decoding fails.
        parseFailed = true;
        const lower = watchValues[0]!.toLowerCase();
        watch = lower !== 'false' && lower !== '0';
      } else {
        watch = parsed;
      }
    }
    verb = watch ? 'watch' : 'list';
    const fieldSelector = params.get('fieldSelector');
    if (!parseFailed && fieldSelector) {
      const exact = exactNameFromFieldSelector(fieldSelector);
      if (exact !== undefined && isValidPathSegmentName(exact)) name = exact;
    }
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';

  const info: {
    -readonly [K in keyof RequestInfo]: RequestInfo[K];
  } = {
    isResourceRequest: true,
    path,
    verb,
    apiPrefix,
    apiGroup,
    apiVersion,
    namespace,
    resource,
    subresource,
    name,
    parts,
  };

  // Selectors reach authorizers only for collection verbs chosen by the HTTP
  // method: the legacy /watch/ paths do not support them consistently.
  if (verbViaHttpMethod && (verb === 'list' || verb === 'watch' || verb === 'deletecollection')) {
    const fieldSelector = params.get('fieldSelector');
    if (fieldSelector) {
      const parsed = parseFieldSelectorRequirements(fieldSelector);
      if (parsed.requirements) info.fieldSelectorRequirements = parsed.requirements;
      if (parsed.error) info.fieldSelectorParsingError = parsed.error;
    }
    const labelSelector = params.get('labelSelector');
    if (labelSelector) {
      const parsed = parseLabelSelectorRequirements(labelSelector);
      if (parsed.requirements) info.labelSelectorRequirements = parsed.requirements;
      if (parsed.error) info.labelSelectorParsingError = parsed.error;
    }
  }
  return info;
}
