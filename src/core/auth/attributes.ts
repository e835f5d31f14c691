// Builds authorizer attributes from the request info and the authenticated
// user (filters.GetAuthorizerAttributes).

import type { Attributes, RequestInfo, UserInfo } from './types';

export function attributesFor(user: UserInfo, info: RequestInfo): Attributes {
  const attrs: Attributes = {
    user,
    verb: info.verb,
    resourceRequest: info.isResourceRequest,
    namespace: info.namespace,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
    path: info.path,
  };
  const extra: { -readonly [K in keyof Attributes]?: Attributes[K] } = {};
  if (info.fieldSelectorRequirements) extra.fieldSelectorRequirements = info.fieldSelectorRequirements;
  if (info.fieldSelectorParsingError) extra.fieldSelectorParsingError = info.fieldSelectorParsingError;
  if (info.labelSelectorRequirements) extra.labelSelectorRequirements = info.labelSelectorRequirements;
  if (info.labelSelectorParsingError) extra.labelSelectorParsingError = info.labelSelectorParsingError;
  return { ...attrs, ...extra };
}

/** Attributes for a resource check made by the server itself (impersonation, escalate, bind, reviews). */
export function resourceAttributes(
  user: UserInfo,
  a: { verb: string; apiGroup?: string; apiVersion?: string; resource: string; subresource?: string; namespace?: string; name?: string },
): Attributes {
  return {
    user,
    verb: a.verb,
    resourceRequest: true,
    namespace: a.namespace ?? '',
    apiGroup: a.apiGroup ?? '',
    apiVersion: a.apiVersion ?? '',
    resource: a.resource,
    subresource: a.subresource ?? '',
    name: a.name ?? '',
    path: '',
  };
}

export function nonResourceAttributes(user: UserInfo, verb: string, path: string): Attributes {
  return {
    user,
    verb,
    resourceRequest: false,
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
    path,
  };
}
