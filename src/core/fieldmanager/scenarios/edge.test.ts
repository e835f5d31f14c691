// Edge cases clients hit on real clusters: empty values, explicit nulls,
// duplicate list-map keys, bodies that do not fit the schema.

import { describe, expect, it } from 'vitest';
import { scenario } from './dsl';
import { widgetDefaulter, widgetSchema } from './schemas';

const widget = () => scenario({ schema: widgetSchema, apiVersion: 'example.com/v1', kind: 'Widget', defaulter: widgetDefaulter });

describe('empty values', () => {
  it('an empty map is kept as sent and owned as a field (smd visitMapItems: an empty map is its own path)', () => {
    const s = widget().apply('a', `spec: {config: {}, mode: m}`);
    s.expectField('spec.config', `{}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:config": {}, "f:mode": {}}}
    `);
  });

  it('an applier that applies only empty containers owns the empty maps, not the empty set list', () => {
    const s = widget().apply('a', `spec: {tags: [], config: {}}`);
    s.expectField('spec.tags', `[]`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:config": {}}}
    `);
  });

  it('applying only an empty struct owns it', () => {
    const s = widget().apply('a', `spec: {}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {}}
    `);
  });

  it('re-applying an empty map after owning its keys removes the keys; the map, left null, is dropped, still owned', () => {
    const s = widget().apply('a', `spec: {config: {k: v}}`).apply('a', `spec: {config: {}}`);
    expect(s.field('spec.config')).toBeUndefined();
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:config": {}}}
    `);
  });

  it('an empty string is a value like any other', () => {
    const s = widget().apply('a', `spec: {mode: ""}`);
    s.expectField('spec.mode', `""`);
    expect(s.conflict('b', `spec: {mode: x}`)).toBe('Apply failed with 1 conflict: conflict with "a": .spec.mode');
  });

  it('applying an empty list to a list-map others fill keeps their elements', () => {
    const s = widget().apply('a', `spec: {containers: [{name: x}]}`).apply('b', `spec: {containers: []}`);
    s.expectField('spec.containers', `[{name: x}]`);
  });

  it('an empty atomic list replaces the list and is owned', () => {
    const s = widget().apply('a', `spec: {args: [x]}`);
    s.apply('a', `spec: {args: []}`);
    s.expectField('spec.args', `[]`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:args": {}}}
    `);
  });
});

describe('explicit null in an apply', () => {
  it('null for a scalar is owned; the typed object then drops it and defaulting resets it', () => {
    const s = widget().apply('a', `spec: {replicas: 3}`);
    s.apply('a', `spec: {replicas: null}`);
    s.expectField('spec.replicas', `1`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:replicas": {}}}
    `);
  });

  it('null for a scalar another manager owns is a change, and so a conflict', () => {
    const s = widget().apply('a', `spec: {mode: x}`);
    expect(s.conflict('b', `spec: {mode: null}`)).toBe('Apply failed with 1 conflict: conflict with "a": .spec.mode');
  });

  it('null for a granular map keeps the live entries and owns nothing: what the applier owned is pruned', () => {
    const s = widget().apply('a', `spec: {config: {k: v}}`).apply('b', `spec: {config: {j: w}}`);
    s.apply('a', `spec: {config: null}`);
    s.expectField('spec.config', `{j: w}`);
  });

  it('null for a list-map keeps the live elements', () => {
    const s = widget().apply('a', `spec: {containers: [{name: x}]}`);
    s.apply('b', `spec: {containers: null}`);
    s.expectField('spec.containers', `[{name: x}]`);
  });

  it('null for an atomic list replaces it', () => {
    const s = widget().apply('a', `spec: {args: [x]}`);
    s.apply('a', `spec: {args: null}`);
    expect(s.field('spec.args')).toBeUndefined();
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:args": {}}}
    `);
  });
});

describe('duplicate list-map keys', () => {
  it('an update may store duplicates; the updater owns the element as a whole', () => {
    const s = widget().update('ctl', `spec: {containers: [{name: a, image: x}, {name: a, image: y}]}`);
    s.expectField('spec.containers', `[{name: a, image: x}, {name: a, image: y}]`);
    s.expectManagedFields(`
      - manager: ctl
        operation: Update
        fieldsV1: {"f:spec": {"f:containers": {".": {}, "k:{\\"name\\":\\"a\\"}": {}}}}
    `);
  });

  it('applying one element with the duplicated key conflicts with the updater, and replaces the duplicates when forced', () => {
    const s = widget().update('ctl', `spec: {containers: [{name: a, image: x}, {name: a, image: y}, {name: b}]}`);
    expect(s.conflict('me', `spec: {containers: [{name: a, image: z}]}`)).toBe(
      'Apply failed with 1 conflict: conflict with "ctl" using example.com/v1: .spec.containers[name="a"]',
    );
    s.apply('me', `spec: {containers: [{name: a, image: z}]}`, { force: true });
    s.expectField('spec.containers', `[{name: a, image: z}, {name: b}]`);
    s.expectManagedFields(`
      - manager: me
        operation: Apply
        fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"a\\"}": {".": {}, "f:image": {}, "f:name": {}}}}}
      - manager: ctl
        operation: Update
        fieldsV1: {"f:spec": {"f:containers": {".": {}, "k:{\\"name\\":\\"b\\"}": {".": {}, "f:name": {}}}}}
    `);
  });

  it('duplicates that an apply does not touch are kept', () => {
    const s = widget().update('ctl', `spec: {containers: [{name: a, image: x}, {name: a, image: y}]}`);
    s.apply('me', `spec: {containers: [{name: b}]}`);
    s.expectField('spec.containers', `[{name: a, image: x}, {name: a, image: y}, {name: b}]`);
  });

  it('an applied configuration may not have duplicates: 500 with smd’s message', () => {
    const s = widget();
    const e = s.fail('me', `spec: {containers: [{name: a}, {name: a}]}`);
    expect(e.code).toBe(500);
    expect(e.status.reason).toBeUndefined();
    expect(e.status.details).toBeUndefined();
    expect(e.message).toBe('failed to create typed patch object (/test; example.com/v1, Kind=Widget): .spec.containers: duplicate entries for key [name="a"]');
  });

  it('duplicates in a multi-key list name both keys', () => {
    const s = scenario({ schema: widgetSchema, apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'default' });
    const e = s.fail('me', `spec: {ports: [{port: 80}, {port: 80, protocol: TCP}]}`);
    expect(e.message).toBe(
      'failed to create typed patch object (default/test; example.com/v1, Kind=Widget): .spec.ports: duplicate entries for key [port=80,protocol="TCP"]',
    );
  });
});

describe('bodies that do not fit the schema (500, as kube-apiserver returns them)', () => {
  it('an element without its key and without a default for it', () => {
    const e = widget().fail('me', `spec: {containers: [{name: web, env: [{value: x}]}]}`);
    expect(e.message).toBe(
      'failed to create typed patch object (/test; example.com/v1, Kind=Widget): .spec.containers[name="web"].env: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    );
  });

  it('a field the schema does not declare', () => {
    const e = widget().fail('me', `spec: {bogus: 1}`);
    expect(e.code).toBe(500);
    expect(e.message).toBe('failed to create typed patch object (/test; example.com/v1, Kind=Widget): .spec.bogus: field not declared in schema');
  });

  it('a string where a number is expected', () => {
    const e = widget().fail('me', `spec: {replicas: three}`);
    expect(e.message).toBe('failed to create typed patch object (/test; example.com/v1, Kind=Widget): .spec.replicas: expected numeric (int or float), got string');
  });

  it('a number where a string is expected', () => {
    const e = widget().fail('me', `spec: {mode: 5}`);
    expect(e.message).toBe('failed to create typed patch object (/test; example.com/v1, Kind=Widget): .spec.mode: expected string, got &value.valueUnstructured{Value:5}');
  });

  it('a scalar where a map is expected', () => {
    const e = widget().fail('me', `spec: {config: x}`);
    expect(e.message).toBe('failed to create typed patch object (/test; example.com/v1, Kind=Widget): .spec.config: expected map, got &{x}');
  });

  it('a map where a list is expected', () => {
    const e = widget().fail('me', `spec: {tags: {a: b}}`);
    expect(e.message).toBe('failed to create typed patch object (/test; example.com/v1, Kind=Widget): .spec.tags: expected list, got &{map[a:b]}');
  });

  it('several errors are listed under "errors:"', () => {
    const e = widget().fail('me', `spec: {replicas: x, mode: 1}`);
    expect(e.message).toBe(
      'failed to create typed patch object (/test; example.com/v1, Kind=Widget): errors:\n  .spec.replicas: expected numeric (int or float), got string\n  .spec.mode: expected string, got &value.valueUnstructured{Value:1}',
    );
  });

  it('int-or-string fields take both', () => {
    const s = widget().apply('a', `spec: {size: 5}`).apply('a', `spec: {size: "50%"}`);
    s.expectField('spec.size', `"50%"`);
  });
});

describe('untyped fields (x-kubernetes-preserve-unknown-fields, RawExtension)', () => {
  it('maps inside are granular, lists atomic; every map entry is a member', () => {
    const s = widget().apply('a', `spec: {extra: {a: {b: 1}, l: [1, 2], s: x}}`);
    expect(JSON.stringify(s.managedFields()[0]!.fieldsV1)).toBe('{"f:spec":{"f:extra":{"f:a":{".":{},"f:b":{}},"f:l":{},"f:s":{}}}}');
  });

  it('two appliers share an untyped map key by key', () => {
    const s = widget().apply('a', `spec: {extra: {a: 1}}`).apply('b', `spec: {extra: {b: 2}}`);
    s.expectField('spec.extra', `{a: 1, b: 2}`);
  });

  it('turning a map into a scalar in an untyped field fails to merge (kube-apiserver 1.32 answers 500)', () => {
    const s = widget().apply('a', `spec: {extra: {a: {b: 1}}}`);
    const e = s.fail('a', `spec: {extra: {a: x}}`);
    expect(e.code).toBe(500);
    expect(e.message).toBe('failed to merge config: .spec.extra.a: lhs: expected any scalar, got &{map[b:1]}');
  });
});

describe('hostile keys', () => {
  it('a map key "__proto__" is an ordinary key', () => {
    const s = widget().apply('a', JSON.parse('{"spec": {"config": {"__proto__": "x", "k": "v"}}}'));
    expect(Object.keys(s.field('spec.config') as object)).toEqual(['__proto__', 'k']);
    expect(Object.getPrototypeOf(s.field('spec.config'))).toBe(Object.prototype);
    expect(JSON.stringify(s.managedFields()[0]!.fieldsV1)).toBe('{"f:spec":{"f:config":{"f:__proto__":{},"f:k":{}}}}');
  });
});
