// The served OpenAPI v3 documents.
//
// GET /openapi/v3 is the discovery index: one entry per group-version path
// with a server-relative URL carrying the document's hash. GET
// /openapi/v3/<path> is an OpenAPI 3.0 document of that group-version: the
// operations of every served resource (kubectl's query-param verifier reads
// the PATCH operations' parameters to decide whether the server supports
// server-side field validation, dry run, …) and the schemas they reach
// (`kubectl explain` reads components.schemas). Descriptions are omitted; the
// structure, the x-kubernetes-* extensions and the parameters are a 1.32
// server's.

import type { ResourceDefinition, ResourceVersionDefinition, SubresourceDefinition } from '../kinds/types';
import { builtinDeleteReturnsObject, getBuiltinSchemaTable, groupVersionKindsOf, inlineCopyOf, publishedFormOf, unionsOf } from './builtin-table';
import { toOpenAPISchema } from './crd-schema';
import { CONNECT_SUBRESOURCES, GETTER_WITH_OPTIONS, type QueryParameterType } from './openapi-subresource-facts';
import { isRef, type SchemaNode, type SchemaTable } from './types';

const REF = '#/components/schemas/';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const OBJECT_META = `${META}ObjectMeta`;
const LIST_META = `${META}ListMeta`;
const DELETE_OPTIONS = `${META}DeleteOptions`;
const STATUS = `${META}Status`;
const WATCH_EVENT = `${META}WatchEvent`;
const PATCH = `${META}Patch`;
const API_RESOURCE_LIST = `${META}APIResourceList`;

/** Definitions whose published schema is not what their SchemaNode would render to. */
const PUBLISHED_AS: Readonly<Record<string, unknown>> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': { type: 'object' },
  [`${META}FieldsV1`]: { type: 'object' },
  [PATCH]: { type: 'object' },
};

export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

/** "api/v1" for the core group, "apis/<group>/<version>" otherwise. */
export function openAPIPath(gv: GroupVersion): string {
  return gv.group ? `apis/${gv.group}/${gv.version}` : `api/${gv.version}`;
}

/** Upper-case hex SHA-512 of a document's JSON, as kube-apiserver's ETag/hash. */
export async function documentHash(document: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(document));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-512', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join('');
}

/**
 * The /openapi/v3 discovery document for the given documents (path →
 * document). Extra paths (e.g. "api", "apis", "version") may be listed with
 * their own documents.
 */
export async function renderOpenAPIDiscovery(documents: ReadonlyMap<string, unknown>): Promise<{ paths: Record<string, { serverRelativeURL: string }> }> {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const path of [...documents.keys()].sort()) {
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${await documentHash(documents.get(path))}` };
  }
  return { paths };
}

/** Pascal-case name of a group in operation ids ("" → "Core", "rbac.authorization.k8s.io" → "RbacAuthorization"). */
function groupWords(group: string): string[] {
  if (!group) return ['core'];
  return group
    .replace(/\.k8s\.io$/, '')
    .split(/[.-]/)
    .filter(Boolean);
}
const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
function groupPascal(group: string): string {
  return groupWords(group).map(upper).join('');
}
function groupTag(group: string, version: string): string {
  const words = groupWords(group);
  return `${words[0]}${words.slice(1).map(upper).join('')}_${version}`;
}

/** Component name of a custom resource's schema, as the CRD OpenAPI builder names it: reversed group, version, kind. */
export function customResourceDefinitionName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

function param(name: string, type: QueryParameterType, where: 'query' | 'path' = 'query'): Record<string, unknown> {
  const p: Record<string, unknown> = { in: where, name, schema: { type, uniqueItems: true } };
  if (where === 'path') p.required = true;
  return p;
}

const LIST_PARAMS = [
  param('allowWatchBookmarks', 'boolean'),
  param('continue', 'string'),
  param('fieldSelector', 'string'),
  param('labelSelector', 'string'),
  param('limit', 'integer'),
  param('resourceVersion', 'string'),
  param('resourceVersionMatch', 'string'),
  param('sendInitialEvents', 'boolean'),
  param('timeoutSeconds', 'integer'),
  param('watch', 'boolean'),
];
const DELETE_COLLECTION_PARAMS = [
  param('continue', 'string'),
  param('dryRun', 'string'),
  param('fieldSelector', 'string'),
  param('gracePeriodSeconds', 'integer'),
  param('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean'),
  param('labelSelector', 'string'),
  param('limit', 'integer'),
  param('orphanDependents', 'boolean'),
  param('propagationPolicy', 'string'),
  param('resourceVersion', 'string'),
  param('resourceVersionMatch', 'string'),
  param('sendInitialEvents', 'boolean'),
  param('timeoutSeconds', 'integer'),
];
const DELETE_PARAMS = [
  param('dryRun', 'string'),
  param('gracePeriodSeconds', 'integer'),
  param('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean'),
  param('orphanDependents', 'boolean'),
  param('propagationPolicy', 'string'),
];
const WRITE_PARAMS = [param('dryRun', 'string'), param('fieldManager', 'string'), param('fieldValidation', 'string')];
const PATCH_PARAMS = [...WRITE_PARAMS, param('force', 'boolean')];
const PRETTY = param('pretty', 'string');

interface Flavor {
  /** Media types of object responses. */
  readonly objectTypes: readonly string[];
  /** Media types of list and watch responses. */
  readonly streamTypes: readonly string[];
  readonly patchTypes: readonly string[];
}

const BUILTIN_FLAVOR: Flavor = {
  objectTypes: ['application/cbor', 'application/json', 'application/vnd.kubernetes.protobuf', 'application/yaml'],
  streamTypes: [
    'application/cbor',
    'application/cbor-seq',
    'application/json',
    'application/json;stream=watch',
    'application/vnd.kubernetes.protobuf',
    'application/vnd.kubernetes.protobuf;stream=watch',
    'application/yaml',
  ],
  patchTypes: [
    'application/apply-patch+cbor',
    'application/apply-patch+yaml',
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
  ],
};

const CUSTOM_FLAVOR: Flavor = {
  objectTypes: ['application/json', 'application/yaml'],
  streamTypes: ['application/json', 'application/json;stream=watch', 'application/yaml'],
  patchTypes: ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json'],
};

function content(types: readonly string[], definition: string): Record<string, unknown> {
  return Object.fromEntries(types.map((t) => [t, { schema: { $ref: REF + definition } }]));
}

interface Gvk {
  group: string;
  kind: string;
  version: string;
}

export interface RenderOptions {
  /** The table the built-in refs resolve in (defaults to the built-in table). */
  readonly table?: SchemaTable;
}

/**
 * The OpenAPI v3 document of one group-version: `resources` are the served
 * resources having a served version `version` in `group`. Built-in resources
 * carry a ref schema; custom resources an inline schema (their CRD's).
 */
export function renderGroupVersionDocument(gv: GroupVersion, resources: readonly ResourceDefinition[], options: RenderOptions = {}): Record<string, unknown> {
  const table = options.table ?? getBuiltinSchemaTable();
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, unknown> = {};
  const customSchemas: Record<string, unknown> = {};
  const prefix = `/${openAPIPath(gv)}`;
  const tag = groupTag(gv.group, gv.version);
  const idBase = `${groupPascal(gv.group)}${upper(gv.version)}`;

  paths[`${prefix}/`] = {
    get: { operationId: `get${idBase}APIResources`, responses: { '200': { content: content(BUILTIN_FLAVOR.objectTypes, API_RESOURCE_LIST) }, '401': {} }, tags: [tag] },
  };

  for (const resource of resources) {
    const version = resource.versions.find((v) => v.name === gv.version && v.served);
    if (!version) continue;
    const custom = !isRef(version.schema);
    const flavor = custom ? CUSTOM_FLAVOR : resource.noStrategicMerge ? { ...BUILTIN_FLAVOR, patchTypes: BUILTIN_FLAVOR.patchTypes.filter((t) => !t.includes('strategic')) } : BUILTIN_FLAVOR;
    const { objectDef, listDef } = resourceDefinitions(gv, resource, version, table, customSchemas);
    // Built-in kinds publish 1.32's delete response; custom resources their definition's.
    const deleteReturnsObject = custom ? resource.returnDeletedObject === true : builtinDeleteReturnsObject(resource.group, resource.plural);
    addResourcePaths(paths, prefix, gv, resource, { objectDef, listDef, tag, idBase, flavor, deleteReturnsObject });
    for (const sub of resource.subresources ?? []) {
      const ctx = { tag, idBase, flavor };
      const connect = sub.type === 'custom' ? CONNECT_SUBRESOURCES[sub.kind] : undefined;
      const getter = GETTER_WITH_OPTIONS[`${resource.group}/${resource.plural}/${sub.name}`];
      if (connect) addConnectPaths(paths, prefix, gv, resource, sub, connect, ctx);
      else if (getter) addGetterWithOptionsPath(paths, prefix, gv, resource, sub, getter, ctx);
      else {
        const subDef = subresourceDefinition(gv, resource, sub, objectDef, table);
        if (subDef) addSubresourcePaths(paths, prefix, resource, sub, subDef, ctx);
      }
    }
  }
  for (const item of Object.values(paths)) hoistCommonParameters(item);

  // Every definition the operations reach, transitively (kube publishes no other).
  const queue: string[] = [];
  collectRefs(paths, queue);
  const seen = new Set<string>();
  while (queue.length) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    if (customSchemas[name]) {
      schemas[name] = customSchemas[name];
      collectRefs(customSchemas[name], queue);
      continue;
    }
    const node = table.definitions[name];
    if (!node) continue;
    const rendered = { ...((PUBLISHED_AS[name] ?? toOpenAPISchema(node, REF, publishedFormOf)) as Record<string, unknown>) };
    const gvks = groupVersionKindsOf(name);
    if (gvks.length) rendered['x-kubernetes-group-version-kind'] = gvks;
    const unions = unionsOf(name);
    if (unions) rendered['x-kubernetes-unions'] = unions;
    schemas[name] = rendered;
    collectRefs(node, queue, true);
    // An inline copy of a definition (field-level marker) still publishes that definition.
    collectInlineCopies(node, queue, inlineCopyOf);
  }

  return sortKeys({
    components: {
      schemas,
      securitySchemes: { BearerToken: { in: 'header', name: 'authorization', type: 'apiKey' } },
    },
    info: { title: 'Kubernetes', version: 'unversioned' },
    openapi: '3.0.0',
    paths,
  }) as Record<string, unknown>;
}

/** The component names of a resource's object and list schemas, registering inline (CRD) schemas. */
function resourceDefinitions(
  gv: GroupVersion,
  resource: ResourceDefinition,
  version: ResourceVersionDefinition,
  table: SchemaTable,
  customSchemas: Record<string, unknown>,
): { objectDef: string; listDef: string } {
  if (isRef(version.schema)) {
    const objectDef = version.schema.ref;
    const listCandidate = objectDef.slice(0, objectDef.lastIndexOf('.') + 1) + resource.listKind;
    const listDef = table.definitions[listCandidate] ? listCandidate : `${objectDef}List`;
    return { objectDef, listDef };
  }
  const objectDef = customResourceDefinitionName(gv.group, gv.version, resource.kind);
  const listDef = customResourceDefinitionName(gv.group, gv.version, resource.listKind);
  const gvk = (kind: string) => [{ group: gv.group, kind, version: gv.version }];
  const rendered = toOpenAPISchema(version.schema, REF) as Record<string, unknown>;
  const properties = { ...((rendered.properties as Record<string, unknown>) ?? {}) };
  properties.apiVersion = { type: 'string' };
  properties.kind = { type: 'string' };
  properties.metadata = { allOf: [{ $ref: REF + OBJECT_META }] };
  customSchemas[objectDef] = { ...rendered, type: 'object', properties, 'x-kubernetes-group-version-kind': gvk(resource.kind) };
  customSchemas[listDef] = {
    properties: {
      apiVersion: { type: 'string' },
      items: { items: { $ref: REF + objectDef }, type: 'array' },
      kind: { type: 'string' },
      metadata: { allOf: [{ $ref: REF + LIST_META }] },
    },
    required: ['items'],
    type: 'object',
    'x-kubernetes-group-version-kind': gvk(resource.listKind),
  };
  return { objectDef, listDef };
}

function subresourceDefinition(
  gv: GroupVersion,
  resource: ResourceDefinition,
  sub: SubresourceDefinition,
  objectDef: string,
  table: SchemaTable,
): { definition: string; gvk: Gvk } | undefined {
  if (sub.type === 'status') return { definition: objectDef, gvk: { group: gv.group, kind: resource.kind, version: gv.version } };
  const group = sub.group ?? gv.group;
  const version = sub.version ?? gv.version;
  const candidates = Object.keys(table.definitions).filter((name) =>
    groupVersionKindsOf(name).some((g) => g.group === group && g.version === version && g.kind === sub.kind),
  );
  if (candidates.length === 0) return undefined;
  return { definition: candidates[0]!, gvk: { group, kind: sub.kind, version } };
}

interface PathContext {
  readonly tag: string;
  readonly idBase: string;
  readonly flavor: Flavor;
}

function operation(
  action: string,
  operationId: string,
  gvk: Gvk,
  ctx: PathContext,
  responses: Record<string, unknown>,
  extra: { parameters?: unknown[]; requestBody?: unknown } = {},
): Record<string, unknown> {
  const op: Record<string, unknown> = { operationId };
  if (extra.parameters?.length) op.parameters = extra.parameters;
  if (extra.requestBody) op.requestBody = extra.requestBody;
  op.responses = { ...responses, '401': {} };
  op.tags = [ctx.tag];
  op['x-kubernetes-action'] = action;
  op['x-kubernetes-group-version-kind'] = gvk;
  return op;
}

/** Path parameters and `pretty`, which every operation of an object path takes. */
function scopeParams(resource: ResourceDefinition, named: boolean): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (named) out.push(param('name', 'string', 'path'));
  if (resource.namespaced) out.push(param('namespace', 'string', 'path'));
  return out;
}

function addResourcePaths(
  paths: Record<string, Record<string, unknown>>,
  prefix: string,
  gv: GroupVersion,
  resource: ResourceDefinition,
  opts: PathContext & { objectDef: string; listDef: string; deleteReturnsObject: boolean },
): void {
  const { objectDef, listDef, flavor, idBase } = opts;
  const verbs = new Set(resource.verbs);
  const gvk: Gvk = { group: gv.group, kind: resource.kind, version: gv.version };
  const scope = resource.namespaced ? 'Namespaced' : '';
  const nsSegment = resource.namespaced ? '/namespaces/{namespace}' : '';
  const collection = `${prefix}${nsSegment}/${resource.plural}`;
  const item = `${collection}/{name}`;
  const onCollection = [...scopeParams(resource, false), PRETTY];
  const onItem = [...scopeParams(resource, true), PRETTY];
  const objectResponse = (codes: string[]) => Object.fromEntries(codes.map((c) => [c, { content: content(flavor.objectTypes, objectDef) }]));
  const statusResponse = (codes: string[]) => Object.fromEntries(codes.map((c) => [c, { content: content(flavor.objectTypes, STATUS) }]));
  // A delete answers with the deleted object for some kinds (the registry's ReturnDeletedObject), a Status for the rest.
  const deleteResponse = (codes: string[]) => (opts.deleteReturnsObject ? objectResponse(codes) : statusResponse(codes));
  const body = (definition: string, required: boolean) => {
    const b: Record<string, unknown> = { content: { '*/*': { schema: { $ref: REF + definition } } } };
    if (required) b.required = true;
    return b;
  };

  const collectionOps: Record<string, unknown> = {};
  if (verbs.has('deletecollection')) {
    collectionOps.delete = operation('deletecollection', `delete${idBase}Collection${scope}${resource.kind}`, gvk, opts, statusResponse(['200']), {
      parameters: [...DELETE_COLLECTION_PARAMS, ...onCollection],
      requestBody: body(DELETE_OPTIONS, false),
    });
  }
  if (verbs.has('list')) {
    collectionOps.get = operation('list', `list${idBase}${scope}${resource.kind}`, gvk, opts, { '200': { content: content(flavor.streamTypes, listDef) } }, {
      parameters: [...LIST_PARAMS, ...onCollection],
    });
  }
  if (verbs.has('create')) {
    collectionOps.post = operation('post', `create${idBase}${scope}${resource.kind}`, gvk, opts, objectResponse(['200', '201', '202']), {
      parameters: [...WRITE_PARAMS, ...onCollection],
      requestBody: body(objectDef, true),
    });
  }
  if (Object.keys(collectionOps).length) paths[collection] = collectionOps;

  const itemOps: Record<string, unknown> = {};
  if (verbs.has('delete')) {
    itemOps.delete = operation('delete', `delete${idBase}${scope}${resource.kind}`, gvk, opts, deleteResponse(['200', '202']), {
      parameters: [...DELETE_PARAMS, ...onItem],
      requestBody: body(DELETE_OPTIONS, false),
    });
  }
  if (verbs.has('get')) itemOps.get = operation('get', `read${idBase}${scope}${resource.kind}`, gvk, opts, objectResponse(['200']), { parameters: onItem });
  if (verbs.has('patch')) {
    itemOps.patch = operation('patch', `patch${idBase}${scope}${resource.kind}`, gvk, opts, objectResponse(['200', '201']), {
      parameters: [...PATCH_PARAMS, ...onItem],
      requestBody: { content: Object.fromEntries(flavor.patchTypes.map((t) => [t, { schema: { $ref: REF + PATCH } }])), required: true },
    });
  }
  if (verbs.has('update')) {
    itemOps.put = operation('put', `replace${idBase}${scope}${resource.kind}`, gvk, opts, objectResponse(['200', '201']), {
      parameters: [...WRITE_PARAMS, ...onItem],
      requestBody: body(objectDef, true),
    });
  }
  if (Object.keys(itemOps).length) paths[item] = itemOps;

  if (verbs.has('list') && resource.namespaced) {
    paths[`${prefix}/${resource.plural}`] = {
      get: operation('list', `list${idBase}${resource.kind}ForAllNamespaces`, gvk, opts, { '200': { content: content(flavor.streamTypes, listDef) } }, {
        parameters: [...LIST_PARAMS, PRETTY],
      }),
    };
  }
  if (verbs.has('watch')) {
    const watchResponse = { '200': { content: content(flavor.streamTypes, WATCH_EVENT) } };
    const watch = (action: string, id: string, scoped: Record<string, unknown>[]) => ({
      get: operation(action, id, gvk, opts, watchResponse, { parameters: [...LIST_PARAMS, ...scoped, PRETTY] }),
    });
    paths[`${prefix}/watch${nsSegment}/${resource.plural}`] = watch('watchlist', `watch${idBase}${scope}${resource.kind}List`, scopeParams(resource, false));
    paths[`${prefix}/watch${nsSegment}/${resource.plural}/{name}`] = watch('watch', `watch${idBase}${scope}${resource.kind}`, scopeParams(resource, true));
    if (resource.namespaced) {
      paths[`${prefix}/watch/${resource.plural}`] = watch('watchlist', `watch${idBase}${resource.kind}ListForAllNamespaces`, []);
    }
  }
}

function addSubresourcePaths(
  paths: Record<string, Record<string, unknown>>,
  prefix: string,
  resource: ResourceDefinition,
  sub: SubresourceDefinition,
  subDef: { definition: string; gvk: Gvk },
  ctx: PathContext,
): void {
  const scope = resource.namespaced ? 'Namespaced' : '';
  const nsSegment = resource.namespaced ? '/namespaces/{namespace}' : '';
  const onItem = [...scopeParams(resource, true), PRETTY];
  const suffix = upper(sub.name);
  const id = (verb: string) => `${verb}${ctx.idBase}${scope}${resource.kind}${suffix}`;
  const objectResponse = (codes: string[]) => Object.fromEntries(codes.map((c) => [c, { content: content(ctx.flavor.objectTypes, subDef.definition) }]));
  const verbs = new Set(sub.verbs);
  const ops: Record<string, unknown> = {};
  if (verbs.has('get')) ops.get = operation('get', id('read'), subDef.gvk, ctx, objectResponse(['200']), { parameters: onItem });
  if (verbs.has('patch')) {
    ops.patch = operation('patch', id('patch'), subDef.gvk, ctx, objectResponse(['200', '201']), {
      parameters: [...PATCH_PARAMS, ...onItem],
      requestBody: { content: Object.fromEntries(ctx.flavor.patchTypes.map((t) => [t, { schema: { $ref: REF + PATCH } }])), required: true },
    });
  }
  if (verbs.has('create')) {
    ops.post = operation('post', id('create'), subDef.gvk, ctx, objectResponse(['200', '201', '202']), {
      parameters: [...WRITE_PARAMS, ...onItem],
      requestBody: { content: { '*/*': { schema: { $ref: REF + subDef.definition } } }, required: true },
    });
  }
  if (verbs.has('update')) {
    ops.put = operation('put', id('replace'), subDef.gvk, ctx, objectResponse(['200', '201']), {
      parameters: [...WRITE_PARAMS, ...onItem],
      requestBody: { content: { '*/*': { schema: { $ref: REF + subDef.definition } } }, required: true },
    });
  }
  if (Object.keys(ops).length) paths[`${prefix}${nsSegment}/${resource.plural}/{name}/${sub.name}`] = ops;
}

/**
 * A connect subresource (exec, attach, portforward, proxy): one `connect`
 * operation per method, the options kind's fields as query parameters, a
 * string of any media type as the response; a proxy also at `/{path}`.
 */
function addConnectPaths(
  paths: Record<string, Record<string, unknown>>,
  prefix: string,
  gv: GroupVersion,
  resource: ResourceDefinition,
  sub: SubresourceDefinition,
  facts: (typeof CONNECT_SUBRESOURCES)[string],
  ctx: PathContext,
): void {
  const scope = resource.namespaced ? 'Namespaced' : '';
  const nsSegment = resource.namespaced ? '/namespaces/{namespace}' : '';
  const gvk: Gvk = { group: sub.group ?? gv.group, kind: sub.kind, version: sub.version ?? gv.version };
  const query = facts.query.map(([name, type]) => param(name, type));
  const base = `${prefix}${nsSegment}/${resource.plural}/{name}/${sub.name}`;
  const variants: [string, string, Record<string, unknown>[]][] = [[base, '', []]];
  if (facts.withPath) variants.push([`${base}/{path}`, 'WithPath', [param('path', 'string', 'path')]]);
  for (const [path, idSuffix, extraPath] of variants) {
    const ops: Record<string, unknown> = {};
    for (const method of facts.methods) {
      const id = `connect${ctx.idBase}${upper(method)}${scope}${resource.kind}${upper(sub.name)}${idSuffix}`;
      ops[method] = operation('connect', id, gvk, ctx, { '200': { content: { '*/*': { schema: { type: 'string' } } } } }, {
        parameters: [...scopeParams(resource, true), ...extraPath, ...query],
      });
    }
    paths[path] = ops;
  }
}

/** A GET with options (pods/log): its options' query parameters, a string response. */
function addGetterWithOptionsPath(
  paths: Record<string, Record<string, unknown>>,
  prefix: string,
  gv: GroupVersion,
  resource: ResourceDefinition,
  sub: SubresourceDefinition,
  facts: (typeof GETTER_WITH_OPTIONS)[string],
  ctx: PathContext,
): void {
  const scope = resource.namespaced ? 'Namespaced' : '';
  const nsSegment = resource.namespaced ? '/namespaces/{namespace}' : '';
  const gvk: Gvk = { group: gv.group, kind: resource.kind, version: gv.version };
  const types = [...ctx.flavor.objectTypes, ...facts.extraMediaTypes];
  const response = { '200': { content: Object.fromEntries(types.map((t) => [t, { schema: { type: 'string' } }])) } };
  paths[`${prefix}${nsSegment}/${resource.plural}/{name}/${sub.name}`] = {
    get: operation('get', `read${ctx.idBase}${scope}${resource.kind}${upper(sub.name)}`, gvk, ctx, response, {
      parameters: [...scopeParams(resource, true), PRETTY, ...facts.query.map(([name, type]) => param(name, type))],
    }),
  };
}

const byNameThenIn = (a: Record<string, unknown>, b: Record<string, unknown>) => {
  const x = `${String(a.name)}\u0000${String(a.in)}`;
  const y = `${String(b.name)}\u0000${String(b.in)}`;
  return x < y ? -1 : x > y ? 1 : 0;
};
const paramKey = (p: Record<string, unknown>) => `${String(p.in)}\u0000${String(p.name)}`;

/**
 * kube-openapi's findCommonParameters: a parameter every operation of a path
 * takes is the path item's (so a create-only path carries dryRun,
 * fieldManager and fieldValidation itself); both lists sorted by name.
 */
function hoistCommonParameters(item: Record<string, unknown>): void {
  const ops = Object.entries(item).filter(([key]) => key !== 'parameters') as [string, Record<string, unknown>][];
  if (!ops.length) return;
  const listOf = (op: Record<string, unknown>) => (op.parameters as Record<string, unknown>[] | undefined) ?? [];
  const common = new Map<string, Record<string, unknown>>(listOf(ops[0]![1]).map((p) => [paramKey(p), p]));
  for (const [, op] of ops.slice(1)) {
    const keys = new Set(listOf(op).map(paramKey));
    for (const key of [...common.keys()]) if (!keys.has(key)) common.delete(key);
  }
  for (const [, op] of ops) {
    const own = listOf(op).filter((p) => !common.has(paramKey(p)));
    if (own.length) op.parameters = [...own].sort(byNameThenIn);
    else delete op.parameters;
  }
  if (common.size) item.parameters = [...common.values()].sort(byNameThenIn);
}

/** Adds every definition a schema (SchemaNode or rendered OpenAPI) refers to. */
function collectRefs(node: unknown, out: string[], schemaNode = false): void {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, out, schemaNode);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const n = node as Record<string, unknown>;
  if (schemaNode && typeof n.ref === 'string') out.push(n.ref);
  if (!schemaNode && typeof n.$ref === 'string' && n.$ref.startsWith(REF)) out.push(n.$ref.slice(REF.length));
  for (const [key, value] of Object.entries(n)) {
    if (key === 'default' || key === 'enum') continue;
    collectRefs(value, out, schemaNode);
  }
}

/** Objects with keys in sorted order, as the Go server marshals its maps. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

function collectInlineCopies(node: SchemaNode, out: string[], inlineCopyOf: (node: SchemaNode) => string | undefined): void {
  if (isRef(node)) return;
  if (node.type === 'object') {
    for (const child of Object.values(node.properties ?? {})) {
      const copied = inlineCopyOf(child);
      if (copied) out.push(copied);
      collectInlineCopies(child, out, inlineCopyOf);
    }
    if (node.additionalProperties) collectInlineCopies(node.additionalProperties, out, inlineCopyOf);
  } else if (node.type === 'array') {
    collectInlineCopies(node.items, out, inlineCopyOf);
  }
}
