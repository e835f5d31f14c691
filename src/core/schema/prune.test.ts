import { describe, expect, it } from 'vitest';
import { getBuiltinSchemaTable } from './builtin-table';
import { fromJSONSchemaProps } from './crd-schema';
import { applyDefaults, pruneNonNullableNullsWithoutDefaults } from './defaults';
import { pruneBuiltin, pruneCustomResource, pruneStructural } from './prune';

const table = getBuiltinSchemaTable();

describe('pruning of built-in objects (Go decoding keeps known fields only)', () => {
  it('drops unknown fields at any depth and reports their paths', () => {
    const pod: Record<string, unknown> = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', bogus: 1 },
      spec: { containers: [{ name: 'c', image: 'x', extra: true }], whatever: {} },
    };
    expect(pruneBuiltin(pod, { ref: 'io.k8s.api.core.v1.Pod' }, table)).toEqual([
      'metadata.bogus',
      'spec.containers[0].extra',
      'spec.whatever',
    ]);
    expect(pod).toEqual({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }] } });
  });

  it('keeps map entries and RawExtension contents', () => {
    const obj = { metadata: { labels: { anything: 'goes' } }, data: { k: 'v' } };
    expect(pruneBuiltin(obj, { ref: 'io.k8s.api.core.v1.ConfigMap' }, table)).toEqual([]);
    const event = { object: { kind: 'Whatever', unknown: 1 } };
    expect(pruneBuiltin(event, { ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent' }, table)).toEqual([]);
    expect(event.object.unknown).toBe(1);
  });
});

const schema = fromJSONSchemaProps({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        known: { type: 'string' },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { typed: { type: 'object', properties: { a: { type: 'string' } } } } },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        list: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } },
      },
    },
  },
});

describe('structural pruning of custom resources', () => {
  it('keeps apiVersion/kind/metadata at the root, prunes unknown fields, sorted paths', () => {
    const obj: Record<string, unknown> = {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 't' },
      status: { x: 1 },
      spec: { known: 'k', zz: 1, aa: 2, list: [{ n: 1, m: 2 }], labels: { a: 'b' } },
    };
    expect(pruneStructural(obj, schema)).toEqual(['spec.aa', 'spec.list[0].m', 'spec.zz', 'status']);
    expect(obj).toEqual({
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 't' },
      spec: { known: 'k', list: [{ n: 1 }], labels: { a: 'b' } },
    });
  });

  it('x-kubernetes-preserve-unknown-fields keeps unknown fields but still prunes known subtrees', () => {
    const obj = { spec: { free: { anything: { deep: 1 }, typed: { a: 'x', b: 'y' } } } };
    expect(pruneStructural(obj, schema)).toEqual(['spec.free.typed.b']);
    expect(obj.spec.free).toEqual({ anything: { deep: 1 }, typed: { a: 'x' } });
  });

  it('embedded resources keep apiVersion/kind/metadata', () => {
    const obj = { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { x: 'a', y: 'b' }, other: 1 } } };
    expect(pruneStructural(obj, schema)).toEqual(['spec.template.other', 'spec.template.spec.y']);
    expect(obj.spec.template).toEqual({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { x: 'a' } });
  });

  it('pruneCustomResource: unknown metadata fields first, then pruned paths, then embedded metadata', () => {
    const obj: Record<string, unknown> = {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 't', zfoo: 1, afoo: 2 },
      spec: { bar: 1, template: { metadata: { name: 'x', nope: true } } },
    };
    expect(pruneCustomResource(obj, schema)).toEqual(['metadata.afoo', 'metadata.zfoo', 'spec.bar', 'spec.template.metadata.nope']);
    expect(obj.metadata).toEqual({ name: 't' });
  });
});

describe('structural defaulting', () => {
  const withDefaults = fromJSONSchemaProps({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        default: {},
        properties: {
          replicas: { type: 'integer', default: 1 },
          mode: { type: 'string', default: 'auto' },
          nullableWithDefault: { type: 'string', nullable: true, default: 'd' },
          items: { type: 'array', items: { type: 'object', properties: { weight: { type: 'integer', default: 5 } } } },
          nested: { type: 'object', properties: { deep: { type: 'string', default: 'z' } } },
        },
      },
    },
  });

  it('sets defaults of missing fields in objects that exist, recursively, including inside new defaults', () => {
    const obj: Record<string, unknown> = {};
    applyDefaults(obj, withDefaults);
    expect(obj).toEqual({ spec: { replicas: 1, mode: 'auto', nullableWithDefault: 'd' } });
  });

  it('defaults list items and replaces a non-nullable null, keeps explicit values and nullable nulls', () => {
    const obj = { spec: { replicas: 3, mode: null, nullableWithDefault: null, items: [{}, { weight: 2 }] } };
    applyDefaults(obj, withDefaults);
    expect(obj).toEqual({ spec: { replicas: 3, mode: 'auto', nullableWithDefault: null, items: [{ weight: 5 }, { weight: 2 }] } });
  });

  it('does not create missing parents that have no default', () => {
    const obj = { spec: { replicas: 2 } };
    applyDefaults(obj, withDefaults);
    expect(obj.spec).not.toHaveProperty('nested');
  });

  it('nulls of non-nullable fields without default are dropped before defaulting', () => {
    const obj = { spec: { nested: null, mode: null } };
    pruneNonNullableNullsWithoutDefaults(obj, withDefaults);
    expect(obj).toEqual({ spec: { mode: null } });
  });
});
