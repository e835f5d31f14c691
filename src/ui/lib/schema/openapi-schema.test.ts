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
