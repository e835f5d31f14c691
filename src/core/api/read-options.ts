// Query options of get, list and watch, validated as kube-apiserver validates
// ListOptions (422 "ListOptions.meta.k8s.io "" is invalid: …").

import { errors } from '../errors/status';
import { fieldErrors, type FieldError } from '../errors/field-errors';
import { queryBool } from './query-bool';

export interface ListOptions {
  readonly resourceVersion: string | undefined;
  readonly resourceVersionMatch: string | undefined;
  readonly limit: number;
  readonly continueToken: string | undefined;
  readonly labelSelector: string;
  readonly fieldSelector: string;
  readonly watch: boolean;
  readonly allowWatchBookmarks: boolean;
  readonly sendInitialEvents: boolean | undefined;
  readonly timeoutSeconds: number | undefined;
}


function parseIntParam(name: string, value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  if (!/^-?\d+$/.test(value)) throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  void name;
  return Number(value);
}

export function parseListOptions(query: URLSearchParams, isWatch: boolean): ListOptions {
  const rv = query.get('resourceVersion');
  const match = query.get('resourceVersionMatch');
  const cont = query.get('continue');
  return {
    resourceVersion: rv === null || rv === '' ? undefined : rv,
    resourceVersionMatch: match === null || match === '' ? undefined : match,
    limit: Math.max(0, parseIntParam('limit', query.get('limit')) ?? 0),
    continueToken: cont === null || cont === '' ? undefined : cont,
    labelSelector: query.get('labelSelector') ?? '',
    fieldSelector: query.get('fieldSelector') ?? '',
    watch: isWatch,
    allowWatchBookmarks: queryBool(query.get('allowWatchBookmarks')) ?? false,
    sendInitialEvents: queryBool(query.get('sendInitialEvents')),
    timeoutSeconds: parseIntParam('timeoutSeconds', query.get('timeoutSeconds')),
  };
}

/** kube's metainternalversion/validation.ValidateListOptions, as the list and watch handlers run it. */
export function validateListOptions(options: ListOptions, watchListEnabled: boolean): void {
  const errs: FieldError[] = [];
  const match = options.resourceVersionMatch;
  if (options.watch) {
    if (options.sendInitialEvents !== undefined) {
      if (match !== 'NotOlderThan') {
        errs.push(fieldErrors.forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
      }
      if (!watchListEnabled) {
        errs.push(fieldErrors.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
      }
    }
    if (match !== undefined) {
      if (options.sendInitialEvents === undefined) {
        errs.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      }
      if (match !== 'NotOlderThan') errs.push(fieldErrors.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
      if (options.continueToken !== undefined) {
        errs.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
      }
    }
  } else {
    if (match !== undefined) {
      if (options.resourceVersion === undefined) {
        errs.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
      }
      if (options.continueToken !== undefined) {
        errs.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
      }
      if (match !== 'Exact' && match !== 'NotOlderThan') {
        errs.push(fieldErrors.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
      }
      if (match === 'Exact' && options.resourceVersion === '0') {
        errs.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
      }
    }
    if (options.sendInitialEvents !== undefined) {
      errs.push(fieldErrors.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
    }
  }
  if (errs.length) throw errors.invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errs);
}

/**
 * Parses a resourceVersion parameter. kube-apiserver answers a non-numeric
 * one with 400 "invalid resource version: …" (storage's ParseResourceVersion).
 */
export function parseResourceVersion(value: string): number {
  if (!/^\d+$/.test(value)) {
    throw errors.badRequest(`invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(value)}: invalid syntax`);
  }
  return Number(value);
}
