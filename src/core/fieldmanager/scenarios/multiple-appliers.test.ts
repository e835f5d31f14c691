// Several appliers working on the same lists and maps: who keeps what when
// one of them stops applying something.

import { describe, expect, it } from 'vitest';
import { scenario } from './dsl';
import { widgetSchema } from './schemas';

const widget = () => scenario({ schema: widgetSchema, apiVersion: 'example.com/v1', kind: 'Widget' });

describe('three appliers on one list-map', () => {
  const three = () =>
    widget()
      .apply('a', `spec: {containers: [{name: one, image: i1}, {name: shared, image: s}]}`)
      .apply('b', `spec: {containers: [{name: two, image: i2}, {name: shared, image: s}]}`)
      .apply('c', `spec: {containers: [{name: shared, command: [run]}]}`);

  it('elements of all appliers are merged; the shared one carries everyone’s fields', () => {
    const s = three();
    s.expectField('spec.containers', `[{name: one, image: i1}, {name: two, image: i2}, {name: shared, image: s, command: [run]}]`);
  });

  it('the shared element survives while any applier still applies it', () => {
    const s = three().apply('a', `spec: {containers: [{name: one, image: i1}]}`).apply('b', `spec: {containers: [{name: two, image: i2}]}`);
    s.expectField('spec.containers', `[{name: one, image: i1}, {name: two, image: i2}, {name: shared, command: [run]}]`);
    s.apply('c', `spec: {mode: x}`);
    s.expectField('spec.containers', `[{name: one, image: i1}, {name: two, image: i2}]`);
  });

  it('the fields of the shared element go with the last applier that set them', () => {
    const s = three().apply('a', `spec: {containers: [{name: one, image: i1}, {name: shared}]}`);
    s.expectField('spec.containers', `[{name: one, image: i1}, {name: two, image: i2}, {name: shared, image: s, command: [run]}]`);
    s.apply('b', `spec: {containers: [{name: two, image: i2}, {name: shared}]}`);
    s.expectField('spec.containers', `[{name: one, image: i1}, {name: two, image: i2}, {name: shared, command: [run]}]`);
  });

  it('the entries show each applier’s part', () => {
    const s = three();
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"one\\"}": {".": {}, "f:image": {}, "f:name": {}}, "k:{\\"name\\":\\"shared\\"}": {".": {}, "f:image": {}, "f:name": {}}}}}
      - manager: b
        operation: Apply
        fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"shared\\"}": {".": {}, "f:image": {}, "f:name": {}}, "k:{\\"name\\":\\"two\\"}": {".": {}, "f:image": {}, "f:name": {}}}}}
      - manager: c
        operation: Apply
        fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"shared\\"}": {".": {}, "f:command": {}, "f:name": {}}}}}
    `);
  });

  it('a forced change of a shared field takes it from both other owners', () => {
    const s = three().apply('c', `spec: {containers: [{name: shared, image: new, command: [run]}]}`, { force: true });
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"one\\"}": {".": {}, "f:image": {}, "f:name": {}}, "k:{\\"name\\":\\"shared\\"}": {".": {}, "f:name": {}}}}}
      - manager: b
        operation: Apply
        fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"shared\\"}": {".": {}, "f:name": {}}, "k:{\\"name\\":\\"two\\"}": {".": {}, "f:image": {}, "f:name": {}}}}}
      - manager: c
        operation: Apply
        fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"shared\\"}": {".": {}, "f:command": {}, "f:image": {}, "f:name": {}}}}}
    `);
  });

  it('without force the change names both owners of the field', () => {
    const e = three().fail('c', `spec: {containers: [{name: shared, image: new}]}`);
    expect(e.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "a":\n- .spec.containers[name="shared"].image\nconflicts with "b":\n- .spec.containers[name="shared"].image',
    );
    expect(e.status.details?.causes).toHaveLength(2);
  });
});

describe('appliers and maps', () => {
  it('labels of several appliers: each removes only its own', () => {
    const s = widget().apply('a', `metadata: {labels: {a: "1", both: x}}`).apply('b', `metadata: {labels: {b: "1", both: x}}`);
    s.apply('a', `metadata: {labels: {}}`);
    s.expectField('metadata.labels', `{b: "1", both: x}`);
    s.apply('b', `metadata: {labels: {b: "1"}}`);
    s.expectField('metadata.labels', `{b: "1"}`);
  });

  it('dropping every label of the only applier removes the labels map', () => {
    const s = widget().apply('a', `metadata: {labels: {a: "1"}}\nspec: {mode: m}`);
    s.apply('a', `spec: {mode: m}`);
    expect(s.field('metadata.labels')).toBeUndefined();
  });

  it('nested structs: dropping a whole subtree removes exactly what the applier owned in it', () => {
    const s = widget()
      .apply('a', `spec: {template: {priority: 1, labels: {x: y}, nodeName: n1}}`)
      .apply('b', `spec: {template: {labels: {z: w}}}`);
    s.apply('a', `spec: {mode: m}`);
    s.expectField('spec.template', `{metadata: {creationTimestamp: null}, labels: {z: w}}`);
  });

  it('a field only an updater set stays when an applier drops its neighbours', () => {
    const s = widget().apply('a', `spec: {template: {priority: 1}}`);
    const v = structuredClone(s.live!);
    (v.spec as { template: Record<string, unknown> }).template.nodeName = 'picked';
    s.update('scheduler', v);
    s.apply('a', `spec: {mode: m}`);
    s.expectField('spec.template', `{metadata: {creationTimestamp: null}, nodeName: picked}`);
  });

  it('a field nobody owns is never removed by an apply', () => {
    const s = widget().apply('a', `spec: {mode: m, replicas: 2}`);
    // A field written without tracking (e.g. before server-side apply existed).
    (s.live!.spec as Record<string, unknown>).paused = true;
    s.apply('a', `spec: {mode: m}`);
    expect(s.field('spec.paused')).toBe(true);
    expect(s.field('spec.replicas')).toBeUndefined();
  });
});

describe('appliers and sets', () => {
  it('finalizers: controllers add and remove their own', () => {
    const s = widget().apply('ctl-a', `metadata: {finalizers: [a.example.com/f]}`).apply('ctl-b', `metadata: {finalizers: [b.example.com/f]}`);
    s.expectField('metadata.finalizers', `[a.example.com/f, b.example.com/f]`);
    s.apply('ctl-a', `metadata: {finalizers: []}`);
    s.expectField('metadata.finalizers', `[b.example.com/f]`);
    s.apply('ctl-b', `metadata: {}`);
    expect(s.field('metadata.finalizers')).toBeUndefined();
  });

  it('set order: members follow the applied order where shared', () => {
    const s = widget().apply('a', `spec: {tags: [x, y, z]}`);
    s.apply('b', `spec: {tags: [z, x]}`);
    s.expectField('spec.tags', `[y, z, x]`);
  });
});
