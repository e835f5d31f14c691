// What the /openapi/v2 document holds beyond the group-versions' documents:
// the root and group discovery endpoints (/api/, /apis/, /apis/<group>/,
// /version/) and the schemas they answer with. Facts of a 1.32 server's
// document (names, types, required fields, list markers); no descriptions.

type Json = Record<string, unknown>;

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
const str = { type: 'string' };
const atomicList = (items: Json) => ({ items, type: 'array', 'x-kubernetes-list-type': 'atomic' });
const gvk = (kind: string) => [{ group: '', kind, version: 'v1' }];

export const DISCOVERY_DEFINITIONS: Readonly<Record<string, Json>> = {
  [`${META}APIGroup`]: {
    properties: {
      apiVersion: str,
      kind: str,
      name: str,
      preferredVersion: ref(`${META}GroupVersionForDiscovery`),
      serverAddressByClientCIDRs: atomicList(ref(`${META}ServerAddressByClientCIDR`)),
      versions: atomicList(ref(`${META}GroupVersionForDiscovery`)),
    },
    required: ['name', 'versions'],
    type: 'object',
    'x-kubernetes-group-version-kind': gvk('APIGroup'),
  },
  [`${META}APIGroupList`]: {
    properties: { apiVersion: str, groups: atomicList(ref(`${META}APIGroup`)), kind: str },
    required: ['groups'],
    type: 'object',
    'x-kubernetes-group-version-kind': gvk('APIGroupList'),
  },
  [`${META}APIVersions`]: {
    properties: {
      apiVersion: str,
      kind: str,
      serverAddressByClientCIDRs: atomicList(ref(`${META}ServerAddressByClientCIDR`)),
      versions: atomicList(str),
    },
    required: ['versions', 'serverAddressByClientCIDRs'],
    type: 'object',
    'x-kubernetes-group-version-kind': gvk('APIVersions'),
  },
  [`${META}GroupVersionForDiscovery`]: {
    properties: { groupVersion: str, version: str },
    required: ['groupVersion', 'version'],
    type: 'object',
  },
  [`${META}ServerAddressByClientCIDR`]: {
    properties: { clientCIDR: str, serverAddress: str },
    required: ['clientCIDR', 'serverAddress'],
    type: 'object',
  },
  'io.k8s.apimachinery.pkg.version.Info': {
    properties: Object.fromEntries(['buildDate', 'compiler', 'gitCommit', 'gitTreeState', 'gitVersion', 'goVersion', 'major', 'minor', 'platform'].map((k) => [k, str])),
    required: ['major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform'],
    type: 'object',
  },
};

const DISCOVERY_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

function discoveryGet(operationId: string, tag: string, definition: string, types: string[] = DISCOVERY_TYPES): Json {
  return {
    get: {
      consumes: types,
      operationId,
      produces: types,
      responses: { '200': { description: 'OK', schema: ref(definition) }, '401': { description: 'Unauthorized' } },
      schemes: ['https'],
      tags: [tag],
    },
  };
}

/**
 * The discovery paths: `groups` maps each served built-in group's path
 * ("/apis/apps/") to its tag word ("apps", "rbacAuthorization").
 */
export function discoveryPaths(groups: ReadonlyMap<string, string>): Record<string, Json> {
  const paths: Record<string, Json> = {
    '/api/': discoveryGet('getCoreAPIVersions', 'core', `${META}APIVersions`),
    '/apis/': discoveryGet('getAPIVersions', 'apis', `${META}APIGroupList`),
    '/version/': discoveryGet('getCodeVersion', 'version', 'io.k8s.apimachinery.pkg.version.Info', ['application/json']),
  };
  for (const [path, tag] of groups) {
    paths[path] = discoveryGet(`get${tag.charAt(0).toUpperCase()}${tag.slice(1)}APIGroup`, tag, `${META}APIGroup`);
  }
  return paths;
}
