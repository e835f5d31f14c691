// Custom resources: with a structural schema lists are atomic and maps
// granular unless marked, and metadata is ObjectMeta (as the CRD's OpenAPI
// models are built); without one every value is deduced.

import { describe, expect, it } from 'vitest';
import { createSchemaTable, type SchemaNode } from '../../schema/types';
import type { FieldManagerSchema } from '../index';
import { scenario } from './dsl';

const crdRoot: SchemaNode = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        items: { type: 'array', items: { type: 'string' } },
        named: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } }, required: ['name'] },
          listType: 'map',
          listMapKeys: ['name'],
        },
        settings: { type: 'object', additionalProperties: { type: 'string' } },
        free: { type: 'object', preserveUnknownFields: true },
        note: { type: 'string', nullable: true },
      },
    },
    status: { type: 'object', properties: { phase: { type: 'string' } } },
  },
};

const structural: FieldManagerSchema = { root: crdRoot, table: createSchemaTable({}), customResource: true };
const deduced: FieldManagerSchema = { root: { type: 'any' }, table: createSchemaTable({}), unstructuredCustomResource: true };

const cr = (schema = structural) => scenario({ schema, apiVersion: 'stable.example.com/v1', kind: 'CronTab', namespace: 'default' });

describe('custom resource with a structural schema', () => {
  it('pruning a map another manager helped create keeps that manager\'s ownership of the map (smd leaves it null)', () => {
    const s = cr().update('b', `spec: {settings: {k1: v}}`);
    s.apply('a', `spec: {settings: {k1: w}}`, { force: true });
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        apiVersion: stable.example.com/v1
        fieldsV1: {"f:spec": {"f:settings": {"f:k1": {}}}}
      - manager: b
        operation: Update
        apiVersion: stable.example.com/v1
        fieldsV1: {"f:spec": {".": {}, "f:settings": {}}}
    `);
    s.apply('a', `spec: {replicas: 2}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        apiVersion: stable.example.com/v1
        fieldsV1: {"f:spec": {"f:replicas": {}}}
      - manager: b
        operation: Update
        apiVersion: stable.example.com/v1
        fieldsV1: {"f:spec": {".": {}, "f:settings": {}}}
    `);
  });

  it('a create tracks the whole spec as added (".") since the empty object has only apiVersion and kind', () => {
    const s = cr().update('kubectl-create', `spec: {replicas: 1, items: [a]}`);
    s.expectManagedFields(`
      - manager: kubectl-create
        operation: Update
        apiVersion: stable.example.com/v1
        fieldsV1: {"f:spec": {".": {}, "f:items": {}, "f:replicas": {}}}
    `);
  });

  it('lists without x-kubernetes-list-type are atomic; list-maps are per element', () => {
    const s = cr().apply('a', `spec: {items: [x, y], named: [{name: n1, value: v}]}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        apiVersion: stable.example.com/v1
        fieldsV1: {"f:spec": {"f:items": {}, "f:named": {"k:{\\"name\\":\\"n1\\"}": {".": {}, "f:name": {}, "f:value": {}}}}}
    `);
    expect(s.conflict('b', `spec: {items: [x]}`)).toBe('Apply failed with 1 conflict: conflict with "a": .spec.items');
  });

  it('metadata is ObjectMeta: labels per key, finalizers as a set', () => {
    const s = cr().apply('a', `metadata: {labels: {app: web}, finalizers: [example.com/f]}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        apiVersion: stable.example.com/v1
        fieldsV1: {"f:metadata": {"f:finalizers": {"v:\\"example.com/f\\"": {}}, "f:labels": {"f:app": {}}}}
    `);
  });

  it('fields outside the schema are rejected, except below x-kubernetes-preserve-unknown-fields', () => {
    const s = cr();
    expect(s.fail('a', `spec: {unknown: 1}`).message).toBe(
      'failed to create typed patch object (default/test; stable.example.com/v1, Kind=CronTab): .spec.unknown: field not declared in schema',
    );
    s.apply('a', `spec: {free: {anything: {goes: [1]}}}`);
    expect(JSON.stringify(s.managedFields()[0]!.fieldsV1)).toBe('{"f:spec":{"f:free":{"f:anything":{".":{},"f:goes":{}}}}}');
  });

  it('nulls stay for the CRD’s own defaulting and pruning', () => {
    const s = cr().apply('a', `spec: {note: null, replicas: 2}`);
    s.expectField('spec', `{note: null, replicas: 2}`);
  });

  it('status is owned on the main resource unless the API layer passes the reset fields of a CRD with a status subresource', () => {
    const plain = cr().apply('a', `status: {phase: x}`);
    expect(JSON.stringify(plain.managedFields()[0]!.fieldsV1)).toBe('{"f:status":{"f:phase":{}}}');
    const withStatus = scenario({ schema: structural, apiVersion: 'stable.example.com/v1', kind: 'CronTab', ignoredFields: [['status']] });
    withStatus.apply('a', `spec: {replicas: 1}\nstatus: {phase: x}`);
    expect(JSON.stringify(withStatus.managedFields()[0]!.fieldsV1)).toBe('{"f:spec":{"f:replicas":{}}}');
  });
});

describe('custom resource without a schema (deduced)', () => {
  it('maps are granular, lists (finalizers included) atomic, any field accepted', () => {
    const s = cr(deduced).apply('a', `metadata: {labels: {app: web}, finalizers: [f]}\nspec: {list: [1, 2], map: {k: v}}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        apiVersion: stable.example.com/v1
        fieldsV1: {"f:metadata": {"f:finalizers": {}, "f:labels": {".": {}, "f:app": {}}}, "f:spec": {".": {}, "f:list": {}, "f:map": {".": {}, "f:k": {}}}}
    `);
  });

  it('two appliers share a deduced map key by key', () => {
    const s = cr(deduced).apply('a', `spec: {map: {k1: v}}`).apply('b', `spec: {map: {k2: v}}`);
    s.expectField('spec.map', `{k1: v, k2: v}`);
    expect(s.conflict('b', `spec: {map: {k1: w}}`)).toBe('Apply failed with 1 conflict: conflict with "a": .spec.map.k1');
  });
});
