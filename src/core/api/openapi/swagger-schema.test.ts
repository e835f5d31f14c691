// The v3 → v2 schema conversion rules (decision 0230): kube's v2 document has
// plain $refs and no defaults; CRD schemas go through apiextensions'
// ToStructuralOpenAPIV2 (value validations dropped, nullable and
// preserve-unknown-fields schemas emptied, an array without items untyped,
// nullable fields no longer required).

import { describe, expect, it } from 'vitest';
import { crdSchemaToV2, toSwaggerDefinition, toSwaggerSchema } from './swagger-schema';

describe('toSwaggerSchema', () => {
  it('turns an allOf-wrapped reference into a plain v2 $ref, keeping the markers beside it and dropping the default', () => {
    expect(
      toSwaggerSchema({ allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.ObjectReference' }], default: {}, 'x-kubernetes-map-type': 'granular' }),
    ).toEqual({ $ref: '#/definitions/io.k8s.api.core.v1.ObjectReference', 'x-kubernetes-map-type': 'granular' });
  });

  it('drops defaults at every depth but keeps a property named "default"', () => {
    expect(
      toSwaggerSchema({ type: 'object', properties: { default: { type: 'string', default: 'x' }, n: { type: 'array', items: { type: 'integer', default: 1 } } } }),
    ).toEqual({ type: 'object', properties: { default: { type: 'string' }, n: { type: 'array', items: { type: 'integer' } } } });
  });

  it('publishes IntOrString and Quantity as their Go types\' v2 form', () => {
    expect(toSwaggerDefinition('io.k8s.apimachinery.pkg.util.intstr.IntOrString', { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] })).toEqual({
      format: 'int-or-string',
      type: 'string',
    });
    expect(toSwaggerDefinition('io.k8s.apimachinery.pkg.api.resource.Quantity', { oneOf: [{ type: 'string' }, { type: 'number' }] })).toEqual({ type: 'string' });
  });
});

describe('crdSchemaToV2 (ToStructuralOpenAPIV2)', () => {
  it('drops value validations but keeps the metadata reference', () => {
    expect(
      crdSchemaToV2({
        type: 'object',
        properties: {
          metadata: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] },
          a: { type: 'string', anyOf: [{ minLength: 1 }], oneOf: [{ pattern: 'x' }], not: { maxLength: 0 }, allOf: [{ minLength: 2 }, { maxLength: 9 }] },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: { metadata: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] }, a: { type: 'string' } },
    });
  });

  it('empties nullable and preserve-unknown-fields schemas and unrequires nullable fields', () => {
    expect(
      crdSchemaToV2({
        type: 'object',
        required: ['n', 'k'],
        properties: {
          n: { type: 'object', nullable: true, properties: { x: { type: 'string' } } },
          k: { type: 'string' },
          p: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { y: { type: 'string' } } },
          l: { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string' } },
        },
      }),
    ).toEqual({
      type: 'object',
      required: ['k'],
      properties: {
        n: {},
        k: { type: 'string' },
        p: { 'x-kubernetes-preserve-unknown-fields': true },
        // Its items dropped, an array is left untyped (kubectl cannot read an array without items).
        l: { 'x-kubernetes-preserve-unknown-fields': true },
      },
    });
  });

  it('requires nothing of a map whose values are nullable', () => {
    expect(crdSchemaToV2({ type: 'object', required: ['a'], additionalProperties: { type: 'string', nullable: true } })).toEqual({ type: 'object', additionalProperties: {} });
  });
});
