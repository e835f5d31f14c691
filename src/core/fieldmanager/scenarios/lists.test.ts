// Associative lists (list-maps keyed by one or several fields, sets) are
// owned per element; atomic lists, maps and structs are owned as a whole.

import { describe, expect, it } from 'vitest';
import { scenario } from './dsl';
import { configSchema, widgetSchema } from './schemas';

const widget = () => scenario({ schema: widgetSchema, apiVersion: 'example.com/v1', kind: 'Widget' });

describe('list-map keyed by name (containers: patch strategy merge, merge key name)', () => {
  it('each applier owns its element; the element itself is a member (".")', () => {
    const s = widget().apply('a', `spec: {containers: [{name: a, image: img-a}]}`).apply('b', `spec: {containers: [{name: b, image: img-b}]}`);
    s.expectField('spec.containers', `[{name: a, image: img-a}, {name: b, image: img-b}]`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"a\\"}": {".": {}, "f:image": {}, "f:name": {}}}}}
      - manager: b
        operation: Apply
        fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"b\\"}": {".": {}, "f:image": {}, "f:name": {}}}}}
    `);
  });

  it('an applier that drops its element removes it; the other applier’s element stays', () => {
    const s = widget().apply('a', `spec: {containers: [{name: a, image: img-a}]}`).apply('b', `spec: {containers: [{name: b, image: img-b}]}`);
    s.apply('a', `spec: {mode: x}`);
    s.expectField('spec.containers', `[{name: b, image: img-b}]`);
  });

  it('applying an empty list does not clear the elements of others, and owns nothing', () => {
    const s = widget().apply('a', `spec: {containers: [{name: a, image: img-a}]}`).apply('b', `spec: {containers: [{name: b, image: img-b}]}`);
    s.apply('a', `spec: {containers: []}`);
    s.expectField('spec.containers', `[{name: b, image: img-b}]`);
    expect(s.managers()).toEqual(['b/Apply']);
  });

  it('an element a controller added fields to is still removed by the applier that owns it', () => {
    const s = widget().apply('app', `spec: {containers: [{name: web, image: nginx}]}`);
    s.update('ctl', `spec: {containers: [{name: web, image: nginx, command: [run]}]}`);
    s.expectManagedFields(`
      - manager: app
        operation: Apply
        fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"web\\"}": {".": {}, "f:image": {}, "f:name": {}}}}}
      - manager: ctl
        operation: Update
        fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"web\\"}": {"f:command": {}}}}}
    `);
    s.apply('app', `spec: {containers: [{name: other, image: nginx}]}`);
    s.expectField('spec.containers', `[{name: other, image: nginx}]`);
    expect(s.managers()).toEqual(['app/Apply']);
  });

  it('renaming an element (a key change) removes the old element and adds the new one', () => {
    const s = widget().apply('a', `spec: {containers: [{name: old, image: x}]}`);
    s.apply('a', `spec: {containers: [{name: new, image: x}]}`);
    s.expectField('spec.containers', `[{name: new, image: x}]`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"new\\"}": {".": {}, "f:image": {}, "f:name": {}}}}}
    `);
  });

  it('a field inside another applier’s element conflicts like any field', () => {
    const s = widget().apply('a', `spec: {containers: [{name: web, image: nginx}]}`);
    expect(s.conflict('b', `spec: {containers: [{name: web, image: httpd}]}`)).toBe(
      'Apply failed with 1 conflict: conflict with "a": .spec.containers[name="web"].image',
    );
  });

  it('a field of a shared element that only one applier sets does not conflict', () => {
    const s = widget().apply('a', `spec: {containers: [{name: web, image: nginx}]}`);
    s.apply('b', `spec: {containers: [{name: web, command: [serve]}]}`);
    s.expectField('spec.containers', `[{name: web, image: nginx, command: [serve]}]`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"web\\"}": {".": {}, "f:image": {}, "f:name": {}}}}}
      - manager: b
        operation: Apply
        fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"web\\"}": {".": {}, "f:command": {}, "f:name": {}}}}}
    `);
  });

  it('the element stays while another manager still owns it, without the fields nobody owns', () => {
    const s = widget().apply('a', `spec: {containers: [{name: web, image: nginx, command: [x]}]}`).apply('b', `spec: {containers: [{name: web, image: nginx}]}`);
    s.apply('a', `spec: {mode: m}`);
    s.expectField('spec.containers', `[{name: web, image: nginx}]`);
  });

  it('nested list-maps (env of a container) are owned per element too', () => {
    const s = widget().apply('a', `spec: {containers: [{name: web, env: [{name: A, value: "1"}]}]}`);
    s.apply('b', `spec: {containers: [{name: web, env: [{name: B, value: "2"}]}]}`);
    s.expectField('spec.containers', `[{name: web, env: [{name: A, value: "1"}, {name: B, value: "2"}]}]`);
    expect(JSON.stringify(s.managedFields()[1]!.fieldsV1)).toBe(
      '{"f:spec":{"f:containers":{"k:{\\"name\\":\\"web\\"}":{".":{},"f:env":{"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{},"f:value":{}}},"f:name":{}}}}}',
    );
  });

  it('shared elements follow the applied order; elements only the live list has keep their place', () => {
    const s = widget().apply('x', `spec: {containers: [{name: a}, {name: b}, {name: c}]}`);
    s.apply('y', `spec: {containers: [{name: c}, {name: a}]}`);
    s.expectField('spec.containers', `[{name: b}, {name: c}, {name: a}]`);
  });

  it('new elements are inserted where the applied list has them', () => {
    const s = widget().apply('x', `spec: {containers: [{name: a}, {name: c}]}`);
    s.apply('y', `spec: {containers: [{name: a}, {name: b}, {name: c}]}`);
    s.expectField('spec.containers', `[{name: a}, {name: b}, {name: c}]`);
  });
});

describe('list-map with two keys (ports: port + protocol, protocol defaults to TCP)', () => {
  it('a missing key takes its default in the element’s key', () => {
    const s = widget().apply('a', `spec: {ports: [{port: 80}]}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:ports": {"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}": {".": {}, "f:port": {}}}}}
    `);
    // The object keeps what was applied; defaulting the protocol is the kind's business.
    s.expectField('spec.ports', `[{port: 80}]`);
  });

  it('the same element with and without the defaulted key is one element', () => {
    const s = widget().apply('a', `spec: {ports: [{port: 80}]}`);
    s.apply('b', `spec: {ports: [{port: 80, protocol: TCP, name: http}]}`);
    s.expectField('spec.ports', `[{port: 80, protocol: TCP, name: http}]`);
    expect(s.conflict('c', `spec: {ports: [{port: 80, protocol: TCP, name: web}]}`)).toBe(
      'Apply failed with 1 conflict: conflict with "b": .spec.ports[port=80,protocol="TCP"].name',
    );
  });

  it('elements differing in one key are different elements', () => {
    const s = widget().apply('a', `spec: {ports: [{port: 53, protocol: UDP, name: dns}]}`);
    s.apply('b', `spec: {ports: [{port: 53, protocol: TCP, name: dns-tcp}]}`);
    s.expectField('spec.ports', `[{port: 53, protocol: UDP, name: dns}, {port: 53, protocol: TCP, name: dns-tcp}]`);
  });

  it('keys are serialized in key-name order whatever the element’s field order', () => {
    const s = widget().apply('a', `spec: {ports: [{protocol: SCTP, port: 9}]}`);
    expect(Object.keys((s.managedFields()[0]!.fieldsV1 as Record<string, Record<string, Record<string, unknown>>>)['f:spec']!['f:ports']!)).toEqual([
      'k:{"port":9,"protocol":"SCTP"}',
    ]);
  });

  it('elements are ordered by their keys in fieldsV1 (numbers numerically)', () => {
    const s = widget().apply('a', `spec: {ports: [{port: 443}, {port: 80}, {port: 8080}]}`);
    expect(Object.keys((s.managedFields()[0]!.fieldsV1 as Record<string, Record<string, Record<string, unknown>>>)['f:spec']!['f:ports']!)).toEqual([
      'k:{"port":80,"protocol":"TCP"}',
      'k:{"port":443,"protocol":"TCP"}',
      'k:{"port":8080,"protocol":"TCP"}',
    ]);
  });
});

describe('sets (listType: set)', () => {
  it('each member is owned on its own, as v:<json>', () => {
    const s = widget().apply('a', `spec: {tags: [x, y]}`).apply('b', `spec: {tags: [y, z]}`);
    s.expectField('spec.tags', `[x, y, z]`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:tags": {"v:\\"x\\"": {}, "v:\\"y\\"": {}}}}
      - manager: b
        operation: Apply
        fieldsV1: {"f:spec": {"f:tags": {"v:\\"y\\"": {}, "v:\\"z\\"": {}}}}
    `);
  });

  it('a member is removed only when its last owner drops it', () => {
    const s = widget().apply('a', `spec: {tags: [x, y]}`).apply('b', `spec: {tags: [y, z]}`);
    s.apply('a', `spec: {tags: [x]}`);
    s.expectField('spec.tags', `[x, y, z]`);
    s.apply('b', `spec: {tags: [z]}`);
    s.expectField('spec.tags', `[x, z]`);
  });

  it('number members sort numerically and print as JSON numbers', () => {
    const s = widget().apply('a', `spec: {weights: [10, 9, 100]}`);
    expect(JSON.stringify(s.managedFields()[0]!.fieldsV1)).toBe('{"f:spec":{"f:weights":{"v:9":{},"v:10":{},"v:100":{}}}}');
  });

  it('set members never conflict: the same member is shared', () => {
    const s = widget().apply('a', `spec: {tags: [x]}`);
    s.apply('b', `spec: {tags: [x]}`);
    expect(s.managers().sort()).toEqual(['a/Apply', 'b/Apply']);
  });

  it('string members are JSON with HTML characters escaped, as kube writes them', () => {
    const s = widget().apply('a', `spec: {tags: ["<a&b>"]}`);
    expect(Object.keys((s.managedFields()[0]!.fieldsV1 as Record<string, Record<string, Record<string, unknown>>>)['f:spec']!['f:tags']!)).toEqual([
      'v:"\\u003ca\\u0026b\\u003e"',
    ]);
  });
});

describe('atomic lists, maps and structs', () => {
  it('an atomic list is owned as a whole: one leaf, no elements', () => {
    const s = widget().apply('a', `spec: {args: [x, y]}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:args": {}}}
    `);
  });

  it('changing any element of an atomic list conflicts on the list', () => {
    const s = widget().apply('a', `spec: {args: [x, y]}`);
    expect(s.conflict('b', `spec: {args: [x]}`)).toBe('Apply failed with 1 conflict: conflict with "a": .spec.args');
  });

  it('a forced apply replaces the atomic list entirely', () => {
    const s = widget().apply('a', `spec: {args: [x, y]}`);
    s.apply('b', `spec: {args: [z]}`, { force: true });
    s.expectField('spec.args', `[z]`);
    expect(s.managers()).toEqual(['b/Apply']);
  });

  it('the same atomic list is shared', () => {
    const s = widget().apply('a', `spec: {args: [x, y]}`).apply('b', `spec: {args: [x, y]}`);
    s.apply('a', `spec: {mode: m}`);
    s.expectField('spec.args', `[x, y]`);
  });

  it('an atomic struct (a label selector) is owned as a whole', () => {
    const s = widget().apply('a', `spec: {selector: {matchLabels: {app: web}}}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:selector": {}}}
    `);
    expect(s.conflict('b', `spec: {selector: {matchLabels: {app: web, tier: x}}}`)).toBe(
      'Apply failed with 1 conflict: conflict with "a": .spec.selector',
    );
  });

  it('an atomic map is owned as a whole and replaced as a whole', () => {
    const s = widget().apply('a', `spec: {atomicConfig: {k1: v1, k2: v2}}`);
    s.apply('a', `spec: {atomicConfig: {k1: v1}}`);
    s.expectField('spec.atomicConfig', `{k1: v1}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:atomicConfig": {}}}
    `);
  });

  it('a granular map is owned per key', () => {
    const s = widget().apply('a', `spec: {config: {k1: v1}}`).apply('b', `spec: {config: {k2: v2}}`);
    s.expectField('spec.config', `{k1: v1, k2: v2}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:config": {"f:k1": {}}}}
      - manager: b
        operation: Apply
        fieldsV1: {"f:spec": {"f:config": {"f:k2": {}}}}
    `);
  });

  it('a map of strings on a ConfigMap-like kind: labels and data keys with any characters', () => {
    const s = scenario({ schema: configSchema, apiVersion: 'v1', kind: 'Config' });
    s.apply('a', `metadata: {labels: {app.kubernetes.io/name: web}}\ndata: {"a.b": x, "c/d": y}`);
    expect(JSON.stringify(s.managedFields()[0]!.fieldsV1)).toBe(
      '{"f:data":{"f:a.b":{},"f:c/d":{}},"f:metadata":{"f:labels":{"f:app.kubernetes.io/name":{}}}}',
    );
  });
});
