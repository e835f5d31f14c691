// REST paths of the API (/api/v1/... for the core group, /apis/<group>/<version>/...
// otherwise), as client-go's request builder forms them.

/** A resource of one group and version, as discovery names it. */
export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

export interface ObjectLocation {
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
}

export function groupVersionPath(group: string, version: string): string {
  return group ? `/apis/${group}/${version}` : `/api/${version}`;
}

export function resourcePath(gvr: GroupVersionResource, where: ObjectLocation = {}): string {
  let path = groupVersionPath(gvr.group, gvr.version);
  if (where.namespace) path += `/namespaces/${encodeURIComponent(where.namespace)}`;
  path += `/${gvr.resource}`;
  if (where.name !== undefined) path += `/${encodeURIComponent(where.name)}`;
  if (where.subresource) path += `/${where.subresource}`;
  return path;
}

/** "apps/v1" → {group: 'apps', version: 'v1'}; "v1" → core. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** client-go's GroupVersionResource.String(): "apps/v1, Resource=deployments", "/v1, Resource=pods". */
export function gvrString(gvr: GroupVersionResource): string {
  return `${gvr.group}/${gvr.version}, Resource=${gvr.resource}`;
}
