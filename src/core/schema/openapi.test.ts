import { describe, expect, it } from 'vitest';
import type { ResourceDefinition } from '../kinds/types';
import { builtinSchemaRef } from './builtin-table';
import { fromJSONSchemaProps } from './crd-schema';
import { customResourceDefinitionName, documentHash, openAPIPath, renderGroupVersionDocument, renderOpenAPIDiscovery } from './openapi';

const deployments: ResourceDefinition = {
  group: 'apps',
  plural: 'deployments',
  singular: 'deployment',
  kind: 'Deployment',
  listKind: 'DeploymentList',
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  versions: [{ name: 'v1', served: true, storage: true, schema: builtinSchemaRef('apps', 'v1', 'Deployment') }],
  subresources: [
    { name: 'status', kind: 'Deployment', verbs: ['get', 'patch', 'update'], type: 'status' },
    { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'], type: 'custom', handler: 'scale' },
  ],
  strategy: {},
};

const crontabs: ResourceDefinition = {
  group: 'stable.example.com',
  plural: 'crontabs',
  singular: 'crontab',
  kind: 'CronTab',
  listKind: 'CronTabList',
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  versions: [
    {
      name: 'v1',
      served: true,
      storage: true,
      schema: fromJSONSchemaProps({ type: 'object', properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' } } } } }),
    },
  ],
  strategy: {},
  noStrategicMerge: true,
};

type Doc = {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; 'x-kubernetes-group-version-kind'?: unknown; requestBody?: { content: Record<string, unknown> } }>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

describe('/openapi/v3/apis/apps/v1 document', () => {
  const doc = renderGroupVersionDocument({ group: 'apps', version: 'v1' }, [deployments]) as unknown as Doc;

  it('is OpenAPI 3.0 with the GVK extension on the root schema and its merge markers', () => {
    expect((doc as unknown as { openapi: string }).openapi).toBe('3.0.0');
    const deployment = doc.components.schemas['io.k8s.api.apps.v1.Deployment']!;
    expect(deployment['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    expect(deployment).not.toHaveProperty('description');
    const podSpec = doc.components.schemas['io.k8s.api.core.v1.PodSpec']! as { properties: Record<string, Record<string, unknown>> };
    expect(podSpec.properties.containers).toMatchObject({
      'x-kubernetes-list-map-keys': ['name'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
      items: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.Container' }], default: {} },
    });
    expect(doc.components.schemas['io.k8s.api.core.v1.ObjectReference']).toBeUndefined();
    expect(doc.components.schemas['io.k8s.api.autoscaling.v1.Scale']).toBeDefined();
    expect(doc.components.schemas['io.k8s.apimachinery.pkg.api.resource.Quantity']).toEqual({ oneOf: [{ type: 'string' }, { type: 'number' }] });
  });

  it('every PATCH operation of the kind lists fieldValidation (kubectl query param verifier v3)', () => {
    const patches = Object.entries(doc.paths).filter(([, item]) => item.patch);
    expect(patches.map(([p]) => p).sort()).toEqual([
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}',
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale',
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status',
    ]);
    for (const [, item] of patches) {
      const names = item.patch!.parameters!.filter((p) => p.in === 'query').map((p) => p.name);
      expect(names).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    }
    expect(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']!.patch!['x-kubernetes-group-version-kind']).toEqual({
      group: 'apps',
      kind: 'Deployment',
      version: 'v1',
    });
    expect(Object.keys(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']!.patch!.requestBody!.content)).toContain(
      'application/strategic-merge-patch+json',
    );
  });

  it('has the create, list, watch and all-namespaces paths with their operation ids', () => {
    const ops = doc.paths as unknown as Record<string, Record<string, { operationId: string }>>;
    expect(ops['/apis/apps/v1/namespaces/{namespace}/deployments']!.post!.operationId).toBe('createAppsV1NamespacedDeployment');
    expect(ops['/apis/apps/v1/namespaces/{namespace}/deployments']!.delete!.operationId).toBe('deleteAppsV1CollectionNamespacedDeployment');
    expect(ops['/apis/apps/v1/deployments']!.get!.operationId).toBe('listAppsV1DeploymentForAllNamespaces');
    expect(ops['/apis/apps/v1/watch/namespaces/{namespace}/deployments']!.get!.operationId).toBe('watchAppsV1NamespacedDeploymentList');
    expect(ops['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status']!.put!.operationId).toBe('replaceAppsV1NamespacedDeploymentStatus');
    expect(ops['/apis/apps/v1/']!.get!.operationId).toBe('getAppsV1APIResources');
    const post = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments']!.post!;
    expect(post.parameters!.map((p) => p.name)).toEqual(['dryRun', 'fieldManager', 'fieldValidation']);
  });
});

describe('custom resource documents', () => {
  const doc = renderGroupVersionDocument({ group: 'stable.example.com', version: 'v1' }, [crontabs]) as unknown as Doc;

  it('names schemas by reversed group and carries the GVK; metadata refers to ObjectMeta', () => {
    const name = customResourceDefinitionName('stable.example.com', 'v1', 'CronTab');
    expect(name).toBe('com.example.stable.v1.CronTab');
    const schema = doc.components.schemas[name]! as { properties: Record<string, unknown> } & Record<string, unknown>;
    expect(schema['x-kubernetes-group-version-kind']).toEqual([{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
    expect(schema.properties.metadata).toEqual({ allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] });
    expect(schema.properties.spec).toEqual({ properties: { cronSpec: { type: 'string' } }, type: 'object' });
    expect(doc.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']).toBeDefined();
    expect(doc.components.schemas['com.example.stable.v1.CronTabList']).toBeDefined();
  });

  it('PATCH lists fieldValidation and no strategic merge patch', () => {
    const patch = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}']!.patch!;
    expect(patch.parameters!.map((p) => p.name)).toContain('fieldValidation');
    expect(Object.keys(patch.requestBody!.content)).not.toContain('application/strategic-merge-patch+json');
  });
});

describe('/openapi/v3 discovery', () => {
  it('lists every group-version path with a hash that changes with the content', async () => {
    const apps = renderGroupVersionDocument({ group: 'apps', version: 'v1' }, [deployments]);
    const crd = renderGroupVersionDocument({ group: 'stable.example.com', version: 'v1' }, [crontabs]);
    const docs = new Map<string, unknown>([
      [openAPIPath({ group: 'apps', version: 'v1' }), apps],
      [openAPIPath({ group: 'stable.example.com', version: 'v1' }), crd],
    ]);
    const discovery = await renderOpenAPIDiscovery(docs);
    expect(Object.keys(discovery.paths)).toEqual(['apis/apps/v1', 'apis/stable.example.com/v1']);
    expect(discovery.paths['apis/apps/v1']!.serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
    const changed = renderGroupVersionDocument({ group: 'apps', version: 'v1' }, [{ ...deployments, verbs: ['get'] }]);
    expect(await documentHash(changed)).not.toBe(await documentHash(apps));
    expect(await documentHash(renderGroupVersionDocument({ group: 'apps', version: 'v1' }, [deployments]))).toBe(await documentHash(apps));
    expect(openAPIPath({ group: '', version: 'v1' })).toBe('api/v1');
  });
});

describe('published shapes of special definitions', () => {
  const doc = renderGroupVersionDocument({ group: 'apps', version: 'v1' }, [deployments]) as unknown as Doc;
  it('a field-level marker is published as allOf + marker over the named definition', () => {
    const spec = doc.components.schemas['io.k8s.api.apps.v1.DeploymentSpec'] as { properties: Record<string, unknown> };
    expect(spec.properties.strategy).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentStrategy' }],
      default: {},
      'x-kubernetes-patch-strategy': 'retainKeys',
    });
    expect(doc.components.schemas['io.k8s.api.apps.v1.DeploymentStrategy']).toBeDefined();
  });
  it('IntOrString, RawExtension and unions as upstream publishes them', () => {
    expect(doc.components.schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toEqual({
      format: 'int-or-string',
      oneOf: [{ type: 'integer' }, { type: 'string' }],
    });
    expect(doc.components.schemas['io.k8s.apimachinery.pkg.runtime.RawExtension']).toEqual({ type: 'object' });
    expect(doc.components.schemas['io.k8s.api.core.v1.AppArmorProfile']!['x-kubernetes-unions']).toBeDefined();
  });
  it('delete answers with Status unless the kind returns the deleted object', () => {
    const del = (doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']!.delete as unknown as { responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> }).responses;
    expect(del['200']!.content['application/json']!.schema.$ref).toBe('#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status');
  });
});

/** A minimal built-in resource definition for rendering. */
function builtin(group: string, version: string, kind: string, plural: string, namespaced: boolean, verbs: ResourceDefinition['verbs'], extra: Partial<ResourceDefinition> = {}): ResourceDefinition {
  return {
    group,
    plural,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced,
    verbs,
    versions: [{ name: version, served: true, storage: true, schema: builtinSchemaRef(group, version, kind) }],
    strategy: {},
    ...extra,
  };
}

type Item = Record<string, { parameters?: { name: string; in: string }[]; responses?: Record<string, { content: Record<string, { schema: Record<string, unknown> }> }> }> & {
  parameters?: { name: string; in: string }[];
};
const ALL_VERBS: ResourceDefinition['verbs'] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

describe('parameters shared by every operation of a path belong to the path (kube-openapi findCommonParameters)', () => {
  const reviews = builtin('authorization.k8s.io', 'v1', 'SelfSubjectAccessReview', 'selfsubjectaccessreviews', false, ['create']);
  const doc = renderGroupVersionDocument({ group: 'authorization.k8s.io', version: 'v1' }, [reviews]) as unknown as { paths: Record<string, Item> } & Doc;

  it('a create-only path carries dryRun, fieldManager, fieldValidation and pretty itself; its POST none', () => {
    const item = doc.paths['/apis/authorization.k8s.io/v1/selfsubjectaccessreviews']!;
    expect(item.parameters!.map((p) => p.name)).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'pretty']);
    expect(item.post!.parameters).toBeUndefined();
  });

  it('a path with several operations keeps each one\'s own parameters, sorted by name', () => {
    const apps = renderGroupVersionDocument({ group: 'apps', version: 'v1' }, [deployments]) as unknown as { paths: Record<string, Item> };
    const collection = apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments']!;
    expect(collection.parameters!.map((p) => p.name)).toEqual(['namespace', 'pretty']);
    expect(collection.get!.parameters!.map((p) => p.name)).toEqual([
      'allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch',
    ]);
    const all = apps.paths['/apis/apps/v1/deployments']!;
    expect(all.parameters!.map((p) => p.name)).toContain('pretty');
    expect(all.get!.parameters).toBeUndefined();
  });

  it('publishes only the definitions the operations reach (a create-only group has no Status, WatchEvent or DeleteOptions)', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names).toContain('io.k8s.api.authorization.v1.SelfSubjectAccessReview');
    for (const absent of ['Status', 'WatchEvent', 'DeleteOptions', 'Patch', 'ListMeta']) expect(names).not.toContain(`io.k8s.apimachinery.pkg.apis.meta.v1.${absent}`);
  });
});

describe('delete responses as 1.32 publishes them', () => {
  const refOf = (doc: { paths: Record<string, Item> }, path: string, code: string) =>
    doc.paths[path]!.delete!.responses![code]!.content['application/json']!.schema.$ref;
  it('PersistentVolumeClaim and PersistentVolume answer with the object (200 and 202)', () => {
    const doc = renderGroupVersionDocument({ group: '', version: 'v1' }, [
      builtin('', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true, ALL_VERBS),
      builtin('', 'v1', 'PersistentVolume', 'persistentvolumes', false, ALL_VERBS),
    ]) as unknown as { paths: Record<string, Item> };
    for (const code of ['200', '202']) {
      expect(refOf(doc, '/api/v1/namespaces/{namespace}/persistentvolumeclaims/{name}', code)).toBe('#/components/schemas/io.k8s.api.core.v1.PersistentVolumeClaim');
      expect(refOf(doc, '/api/v1/persistentvolumes/{name}', code)).toBe('#/components/schemas/io.k8s.api.core.v1.PersistentVolume');
    }
  });
  it('PriorityClass answers with a Status even when its definition says returnDeletedObject', () => {
    const doc = renderGroupVersionDocument({ group: 'scheduling.k8s.io', version: 'v1' }, [
      builtin('scheduling.k8s.io', 'v1', 'PriorityClass', 'priorityclasses', false, ALL_VERBS, { returnDeletedObject: true }),
    ]) as unknown as { paths: Record<string, Item> };
    expect(refOf(doc, '/apis/scheduling.k8s.io/v1/priorityclasses/{name}', '200')).toBe('#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status');
  });
});

describe('schema details the SchemaNode alone does not carry (generated published forms)', () => {
  const schemasOf = (gv: { group: string; version: string }, resources: ResourceDefinition[]) =>
    (renderGroupVersionDocument(gv, resources) as unknown as Doc).components.schemas as Record<string, { properties: Record<string, unknown> }>;

  it('byte strings and Status.details carry x-kubernetes-list-type atomic where 1.32 has it', () => {
    const schemas = schemasOf({ group: 'certificates.k8s.io', version: 'v1' }, [
      builtin('certificates.k8s.io', 'v1', 'CertificateSigningRequest', 'certificatesigningrequests', false, ALL_VERBS),
    ]);
    expect(schemas['io.k8s.api.certificates.v1.CertificateSigningRequestSpec']!.properties.request).toEqual({ format: 'byte', type: 'string', 'x-kubernetes-list-type': 'atomic' });
    expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.Status']!.properties.details).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails' }],
      'x-kubernetes-list-type': 'atomic',
    });
    // Not every byte string: ConfigMap.binaryData's values have none in 1.32.
    const core = schemasOf({ group: '', version: 'v1' }, [builtin('', 'v1', 'ConfigMap', 'configmaps', true, ALL_VERBS)]);
    expect(core['io.k8s.api.core.v1.ConfigMap']!.properties.binaryData).toEqual({ additionalProperties: { format: 'byte', type: 'string' }, type: 'object' });
  });

  it('PodDisruptionBudgetSpec.selector has only its field-level patch strategy, no map-type', () => {
    const schemas = schemasOf({ group: 'policy', version: 'v1' }, [builtin('policy', 'v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true, ALL_VERBS)]);
    expect(schemas['io.k8s.api.policy.v1.PodDisruptionBudgetSpec']!.properties.selector).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' }],
      'x-kubernetes-patch-strategy': 'replace',
    });
    expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector']!['x-kubernetes-map-type' as 'properties']).toBe('atomic');
  });

  it('a ref with nothing beside it is a bare $ref (Quantity map values, IngressRule.http)', () => {
    const core = schemasOf({ group: '', version: 'v1' }, [builtin('', 'v1', 'ResourceQuota', 'resourcequotas', true, ALL_VERBS)]);
    expect(core['io.k8s.api.core.v1.ResourceQuotaSpec']!.properties.hard).toEqual({
      additionalProperties: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' },
      type: 'object',
    });
    const net = schemasOf({ group: 'networking.k8s.io', version: 'v1' }, [builtin('networking.k8s.io', 'v1', 'Ingress', 'ingresses', true, ALL_VERBS)]);
    expect(net['io.k8s.api.networking.v1.IngressRule']!.properties.http).toEqual({ $ref: '#/components/schemas/io.k8s.api.networking.v1.HTTPIngressRuleValue' });
  });
});
