// Changes of a type's topology between writes (a CRD update changing
// x-kubernetes-list-type or x-kubernetes-map-type), per the specification:
// granular → atomic makes the owners of elements owners of the whole value
// (later changes conflict); atomic → granular leaves the value's path owned
// and no inner ownership (no conflicts).

import { describe, expect, it } from 'vitest';
import type { SchemaNode } from '../../schema/types';
import type { FieldManagerSchema } from '../index';
import { scenario, type Scenario } from './dsl';
import { widgetDefinitions, widgetTable } from './schemas';

function specWith(changes: Record<string, SchemaNode>): FieldManagerSchema {
  const base = widgetDefinitions()['test.WidgetSpec'] as { type: 'object'; properties: Record<string, SchemaNode> };
  return { root: { ref: 'test.Widget' }, table: widgetTable({ 'test.WidgetSpec': { ...base, properties: { ...base.properties, ...changes } } }) };
}

const granular = specWith({});
const atomicConfig = specWith({ config: { type: 'object', additionalProperties: { type: 'string' }, mapType: 'atomic' } });
const setArgs = specWith({ args: { type: 'array', items: { type: 'string' }, listType: 'set' } });
const atomicContainers = specWith({ containers: { type: 'array', items: { ref: 'test.Container' }, listType: 'atomic' } });
const atomicTemplate = specWith({
  template: { type: 'object', properties: { metadata: { ref: 'meta.ObjectMeta' }, priority: { type: 'integer' }, nodeName: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } }, mapType: 'atomic' },
});

/** Continues a scenario with another schema for the same object. */
function withSchema(s: Scenario, schema: FieldManagerSchema): Scenario {
  const next = scenario({ ...s.config, schema }).wait(100);
  next.live = s.live;
  return next;
}

const widget = () => scenario({ schema: granular, apiVersion: 'example.com/v1', kind: 'Widget' });

describe('granular → atomic', () => {
  it('owners of map entries become owners of the whole map', () => {
    const s = withSchema(widget().apply('a', `spec: {config: {k1: v1}}`).apply('b', `spec: {config: {k2: v2}}`), atomicConfig);
    s.update('noop', s.live!);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:config": {}}}
      - manager: b
        operation: Apply
        fieldsV1: {"f:spec": {"f:config": {}}}
    `);
  });

  it('a later change of the now atomic map conflicts with every former owner', () => {
    const s = withSchema(widget().apply('a', `spec: {config: {k1: v1}}`).apply('b', `spec: {config: {k2: v2}}`), atomicConfig);
    expect(s.conflict('c', `spec: {config: {k3: v3}}`)).toBe('Apply failed with 2 conflicts: conflicts with "a":\n- .spec.config\nconflicts with "b":\n- .spec.config');
  });

  it('one of the owners applying the whole map conflicts with the other', () => {
    const s = withSchema(widget().apply('a', `spec: {config: {k1: v1}}`).apply('b', `spec: {config: {k2: v2}}`), atomicConfig);
    expect(s.conflict('a', `spec: {config: {k1: v1}}`)).toBe('Apply failed with 1 conflict: conflict with "b": .spec.config');
  });

  it('owners of list-map elements become owners of the now atomic list', () => {
    const s = withSchema(widget().apply('a', `spec: {containers: [{name: web, image: x}]}`), atomicContainers);
    expect(s.conflict('b', `spec: {containers: [{name: web, image: y}]}`)).toBe('Apply failed with 1 conflict: conflict with "a": .spec.containers');
  });

  it('owners of struct fields become owners of the now atomic struct', () => {
    const s = withSchema(widget().apply('a', `spec: {template: {priority: 1}}`).apply('b', `spec: {template: {nodeName: n}}`), atomicTemplate);
    const e = s.fail('c', `spec: {template: {priority: 1, nodeName: n, labels: {x: y}}}`);
    expect(e.status.details?.causes?.map((c) => `${c.message} ${c.field}`)).toEqual(['conflict with "a" .spec.template', 'conflict with "b" .spec.template']);
  });
});

describe('atomic → granular', () => {
  it('the owner of the atomic list keeps its path; others add elements without conflicts', () => {
    const s = withSchema(widget().apply('a', `spec: {args: [x]}`), setArgs);
    s.apply('b', `spec: {args: [y]}`);
    s.expectField('spec.args', `[x, y]`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:args": {}}}
      - manager: b
        operation: Apply
        fieldsV1: {"f:spec": {"f:args": {"v:\\"y\\"": {}}}}
    `);
  });

  it('the former owner re-applying its list becomes owner of its elements', () => {
    const s = withSchema(widget().apply('a', `spec: {args: [x]}`), setArgs);
    s.apply('a', `spec: {args: [x]}`);
    expect(JSON.stringify(s.managedFields()[0]!.fieldsV1)).toBe('{"f:spec":{"f:args":{"v:\\"x\\"":{}}}}');
  });
});
