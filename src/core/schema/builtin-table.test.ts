import { describe, expect, it } from 'vitest';
import { builtinSchemaRef, getBuiltinSchemaTable, groupVersionKindsOf, openAPIPathFor, rootDefinitionFor } from './builtin-table';
import { effectiveListType, type ArrayNode, type ObjectNode } from './types';

const table = getBuiltinSchemaTable();
const obj = (name: string) => table.definitions[name] as ObjectNode;

describe('built-in schema table (generated from the 1.32 OpenAPI v3 documents)', () => {
  it('holds every upstream definition once', () => {
    expect(Object.keys(table.definitions).length).toBe(632);
  });

  it('PodSpec.containers is a list-type map keyed by name with patch strategy merge on key name', () => {
    const containers = obj('io.k8s.api.core.v1.PodSpec').properties!.containers as ArrayNode;
    expect(containers.type).toBe('array');
    expect(containers.listType).toBe('map');
    expect(containers.listMapKeys).toEqual(['name']);
    expect(containers.patchStrategy).toBe('merge');
    expect(containers.patchMergeKey).toBe('name');
    // The OpenAPI allOf wrapper became a ref with its default.
    expect(containers.items).toEqual({ ref: 'io.k8s.api.core.v1.Container', default: {} });
    expect(table.resolve(containers.items).type).toBe('object');
  });

  it('ObjectReference and LabelSelector are atomic structs (definition-level map type)', () => {
    expect(obj('io.k8s.api.core.v1.ObjectReference').mapType).toBe('atomic');
    expect(obj('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector').mapType).toBe('atomic');
  });

  it('a field-level marker overrides the referenced definition for that field only', () => {
    const claimRef = obj('io.k8s.api.core.v1.PersistentVolumeSpec').properties!.claimRef as ObjectNode;
    expect(claimRef.type).toBe('object');
    expect(claimRef.mapType).toBe('granular');
    expect(Object.keys(claimRef.properties!)).toContain('uid');
    const strategy = obj('io.k8s.api.apps.v1.DeploymentSpec').properties!.strategy as ObjectNode;
    expect(strategy.patchStrategy).toBe('retainKeys');
    expect(strategy.default).toEqual({});
  });

  it('maps scalar wrapper types to sensible nodes', () => {
    expect(table.definitions['io.k8s.apimachinery.pkg.api.resource.Quantity']).toEqual({ type: 'string', format: 'quantity' });
    expect(table.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.Time']).toEqual({ type: 'string', format: 'date-time' });
    expect(table.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime']).toEqual({ type: 'string', format: 'date-time' });
    expect(table.definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toEqual({ type: 'int-or-string' });
    expect(table.definitions['io.k8s.apimachinery.pkg.runtime.RawExtension']).toEqual({ type: 'any' });
    expect(table.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1']).toEqual({ type: 'any' });
    // An empty Go struct stays a struct with no fields (unknown fields there are unknown).
    expect(obj('io.k8s.api.apiserverinternal.v1alpha1.StorageVersionSpec')).toEqual({ type: 'object', properties: {} });
  });

  it('maps keep their value schema and map type', () => {
    const labels = obj('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta').properties!.labels as ObjectNode;
    expect(labels.properties).toBeUndefined();
    expect(labels.additionalProperties).toEqual({ type: 'string', default: '' });
  });

  it('effectiveListType reads the markers', () => {
    const volumeMounts = obj('io.k8s.api.core.v1.Container').properties!.volumeMounts as ArrayNode;
    expect(effectiveListType(volumeMounts)).toEqual({ listType: 'map', keys: ['mountPath'] });
    const finalizers = obj('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta').properties!.finalizers as ArrayNode;
    expect(finalizers.listType).toBe('set');
  });

  it('keeps no description text (facts only)', () => {
    const described: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (!node || typeof node !== 'object') return;
      if ('description' in node) described.push(path);
      const n = node as { properties?: Record<string, unknown>; items?: unknown; additionalProperties?: unknown };
      for (const [key, child] of Object.entries(n.properties ?? {})) walk(child, `${path}.${key}`);
      walk(n.items, `${path}[]`);
      walk(n.additionalProperties, `${path}{}`);
    };
    for (const [name, node] of Object.entries(table.definitions)) walk(node, name);
    expect(described).toEqual([]);
  });

  it('finds root definitions by group, version and kind', () => {
    expect(rootDefinitionFor('', 'v1', 'Pod')).toBe('io.k8s.api.core.v1.Pod');
    expect(rootDefinitionFor('apps', 'v1', 'Deployment')).toBe('io.k8s.api.apps.v1.Deployment');
    expect(rootDefinitionFor('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition')).toBe(
      'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
    );
    expect(rootDefinitionFor('apps', 'v1', 'Pod')).toBeUndefined();
    expect(builtinSchemaRef('', 'v1', 'ConfigMap')).toEqual({ ref: 'io.k8s.api.core.v1.ConfigMap' });
    expect(groupVersionKindsOf('io.k8s.api.core.v1.Pod')).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    expect(openAPIPathFor('apps', 'v1')).toBe('apis/apps/v1');
    expect(openAPIPathFor('', 'v1')).toBe('api/v1');
  });
});
