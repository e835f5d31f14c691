import { describe, expect, it } from 'vitest';
import { buildManifestSchema, findKindSchema, openApiPathFor, toJsonSchema, type OpenApiDocument } from './openapi-schema';

// The shape /openapi/v3/api/v1 serves (x-kubernetes-group-version-kind on top-level kinds).
const CORE: OpenApiDocument = {
  components: {
    schemas: {
      'io.k8s.api.core.v1.ConfigMap': {
        type: 'object',
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          data: { type: 'object', additionalProperties: { type: 'string' } },
          metadata: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] },
        },
        'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'ConfigMap' }],
      },
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { type: 'object', properties: { name: { type: 'string' } } },
      'io.k8s.apimachinery.pkg.runtime.RawExtension': { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: {} } },
    },
  },
};

describe('editor schemas from /openapi/v3', () => {
  it('maps apiVersion to the OpenAPI v3 path', () => {
    expect(openApiPathFor('v1')).toBe('api/v1');
    expect(openApiPathFor('apps/v1')).toBe('apis/apps/v1');
  });

  it('points refs into definitions and refuses unknown fields where kube does (not where it preserves them)', () => {
    const converted = toJsonSchema(CORE.components!.schemas!['io.k8s.api.core.v1.ConfigMap']) as any;
    expect(converted.additionalProperties).toBe(false);
    expect(converted.properties.metadata.allOf[0].$ref).toBe('#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    // data's map schema stays a map.
    expect(converted.properties.data.additionalProperties).toEqual({ type: 'string' });
    const raw = toJsonSchema(CORE.components!.schemas!['io.k8s.apimachinery.pkg.runtime.RawExtension']) as any;
    expect(raw.additionalProperties).toBeUndefined();
  });

  it('finds a kind by x-kubernetes-group-version-kind and branches on apiVersion and kind', () => {
    expect(findKindSchema(CORE, { group: '', version: 'v1', kind: 'ConfigMap' })).toBe('io.k8s.api.core.v1.ConfigMap');
    expect(findKindSchema(CORE, { group: 'apps', version: 'v1', kind: 'ConfigMap' })).toBeNull();
    const schema = buildManifestSchema({
      served: [{ apiVersion: 'v1', kind: 'ConfigMap' }, { apiVersion: 'apps/v1', kind: 'Deployment' }],
      kinds: [{ apiVersion: 'v1', kind: 'ConfigMap', document: CORE }],
    }) as any;
    expect(schema.properties.kind.enum).toEqual(['ConfigMap', 'Deployment']);
    expect(schema.allOf).toEqual([
      { if: { properties: { apiVersion: { const: 'v1' }, kind: { const: 'ConfigMap' } }, required: ['apiVersion', 'kind'] }, then: { $ref: '#/definitions/io.k8s.api.core.v1.ConfigMap' } },
    ]);
    expect(Object.keys(schema.definitions)).toContain('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
  });
});

describe('what the editor tells about a field (issue 16 item 27: no upstream descriptions, so the facts)', () => {
  const APPS: OpenApiDocument = {
    components: {
      schemas: {
        'io.k8s.api.core.v1.Container': {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string' },
            imagePullPolicy: { type: 'string' },
            ports: { type: 'array', items: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.ContainerPort' }] } },
            resources: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.ResourceRequirements' }] },
          },
        },
        'io.k8s.api.apps.v1.DeploymentSpec': {
          type: 'object',
          required: ['selector', 'template'],
          properties: { replicas: { type: 'integer', format: 'int32' }, selector: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' }] } },
        },
        'example.com.v1.Widget': { type: 'object', properties: { size: { type: 'string', enum: ['S', 'M'], description: 'How big.' } } },
      },
    },
  };

  it('describes type, required and values; adds the values of built-in enumerations', () => {
    const schema = buildManifestSchema({ served: [], kinds: [{ apiVersion: 'apps/v1', kind: 'Deployment', document: { components: { schemas: { ...APPS.components!.schemas!, 'io.k8s.api.apps.v1.Deployment': { type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: 'Deployment' }] } } } } }] }) as any;
    const container = schema.definitions['io.k8s.api.core.v1.Container'].properties;
    expect(container.name.description).toBe('name: string, required.');
    expect(container.imagePullPolicy.enum).toEqual(['Always', 'IfNotPresent', 'Never']);
    expect(container.imagePullPolicy.description).toBe('imagePullPolicy: string, optional. One of: Always, IfNotPresent, Never.');
    expect(container.ports.description).toBe('ports: array of ContainerPort, optional.');
    expect(container.resources.description).toBe('resources: object (ResourceRequirements), optional.');
    const spec = schema.definitions['io.k8s.api.apps.v1.DeploymentSpec'].properties;
    expect(spec.replicas.description).toBe('replicas: integer (int32), optional.');
    expect(spec.selector.description).toBe('selector: object (LabelSelector), required.');
  });

  it("keeps a schema's own enum and puts its author's description after the facts", () => {
    const widget = (toJsonSchema(APPS.components!.schemas!['example.com.v1.Widget']) as any).properties.size;
    expect(widget.enum).toEqual(['S', 'M']);
    expect(widget.description).toBe('size: string, optional. One of: S, M.\n\nHow big.');
  });
});
