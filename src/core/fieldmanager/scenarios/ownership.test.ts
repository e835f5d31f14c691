// The specification's field ownership table (server-side apply), row by row,
// on a ConfigMap-like object.

import { describe, expect, it } from 'vitest';
import { scenario } from './dsl';
import { configSchema, widgetDefaulter, widgetSchema } from './schemas';

const config = () => scenario({ schema: configSchema, apiVersion: 'v1', kind: 'Config' });
const widget = () => scenario({ schema: widgetSchema, apiVersion: 'example.com/v1', kind: 'Widget', defaulter: widgetDefaulter });

describe('ownership table', () => {
  it('row 1: B applies a different value to a field A owns, no force → conflict, nothing changes', () => {
    const s = config().apply('a', `data: {key: one}`);
    const before = s.live;
    const e = s.fail('b', `data: {key: two}`);
    expect(e.code).toBe(409);
    expect(e.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "a": .data.key',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.data.key' }] },
      code: 409,
    });
    expect(s.live).toBe(before);
  });

  it('row 2: B applies with force → B is the sole owner, the field leaves A’s entry', () => {
    const s = config().apply('a', `data: {key: one, other: x}`);
    s.apply('b', `data: {key: two}`, { force: true });
    s.expectObject(`data: {key: two, other: x}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:data": {"f:other": {}}}
      - manager: b
        operation: Apply
        fieldsV1: {"f:data": {"f:key": {}}}
    `);
  });

  it('row 2: a forced apply that takes every field of A removes A’s entry', () => {
    const s = config().apply('a', `data: {key: one}`);
    s.apply('b', `data: {key: two}`, { force: true });
    expect(s.managers()).toEqual(['b/Apply']);
  });

  it('row 3: B applies the same value → shared ownership, no conflict', () => {
    const s = config().apply('a', `data: {key: one}`);
    s.apply('b', `data: {key: one}`);
    s.expectObject(`data: {key: one}`);
    // kube-apiserver 1.32 records no time for a manager whose apply changed nothing in the
    // object (kubernetes/kubernetes#127938), and an entry without time sorts first.
    s.expectManagedFields(`
      - manager: b
        operation: Apply
        time: (none)
        fieldsV1: {"f:data": {"f:key": {}}}
      - manager: a
        operation: Apply
        time: "2024-12-11T12:00:01Z"
        fieldsV1: {"f:data": {"f:key": {}}}
    `);
  });

  it('row 4: A and B own a field, B omits it → the value stays, only A owns it', () => {
    const s = config().apply('a', `data: {key: one}`).apply('b', `data: {key: one, mine: b}`);
    s.apply('b', `data: {mine: b}`);
    s.expectObject(`data: {key: one, mine: b}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:data": {"f:key": {}}}
      - manager: b
        operation: Apply
        fieldsV1: {"f:data": {"f:mine": {}}}
    `);
  });

  it('row 5: only B owns a field and omits it → the field is removed', () => {
    const s = config().apply('b', `data: {key: one, keep: k}`);
    s.apply('b', `data: {keep: k}`);
    s.expectObject(`data: {keep: k}`);
  });

  it('row 5: a dropped field with a default is reset to it (the kind defaulter runs on the merged object)', () => {
    const s = widget().apply('b', `spec: {replicas: 3, mode: fast}`);
    expect((s.live!.spec as Record<string, unknown>).replicas).toBe(3);
    s.apply('b', `spec: {mode: fast}`);
    expect((s.live!.spec as Record<string, unknown>).replicas).toBe(1);
    s.expectManagedFields(`
      - manager: b
        operation: Apply
        apiVersion: example.com/v1
        fieldsV1: {"f:spec": {"f:mode": {}}}
    `);
  });

  it('row 5: dropping the last field of a struct removes the struct, not an empty shell', () => {
    const s = config().apply('b', `data: {key: one}`);
    s.apply('b', `metadata: {labels: {x: y}}`);
    s.expectObject(`metadata: {labels: {x: y}}`);
  });

  it('row 6: an update by C changes a field A applied → no conflict, C owns it, A does not', () => {
    const s = config().apply('a', `data: {key: one, other: x}`);
    s.update('c', `data: {key: two, other: x}`);
    s.expectObject(`data: {key: two, other: x}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:data": {"f:other": {}}}
      - manager: c
        operation: Update
        fieldsV1: {"f:data": {"f:key": {}}}
    `);
  });

  it('row 6: after an update took a field, the applier conflicts with the updater, named with its version', () => {
    const s = config().apply('a', `data: {key: one}`).update('c', `data: {key: two}`);
    expect(s.conflict('a', `data: {key: one}`)).toBe('Apply failed with 1 conflict: conflict with "c" using v1: .data.key');
  });

  it('an update that changes nothing takes nothing and leaves the entries as they were', () => {
    const s = config().apply('a', `data: {key: one}`);
    const before = s.managedFields();
    s.update('c', `data: {key: one}`);
    expect(s.managedFields()).toEqual(before);
  });

  it('an update that removes a field takes it from every owner', () => {
    const s = config().apply('a', `data: {key: one, other: x}`).apply('b', `data: {key: one}`);
    s.update('c', `data: {other: x}`);
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:data": {"f:other": {}}}
    `);
  });
});

describe('conflict messages', () => {
  it('several paths of one manager are listed after "conflicts with", one per line', () => {
    const s = config().update('ctl', `data: {a: "1", b: "2"}`);
    expect(s.conflict('me', `data: {a: x, b: y}`)).toBe('Apply failed with 2 conflicts: conflicts with "ctl" using v1:\n- .data.a\n- .data.b');
  });

  it('several managers are listed in the order of their identifiers, each with its paths', () => {
    const s = config().apply('zeta', `data: {z: "1"}`).update('alpha', `data: {z: "1", a: "1"}`).update('beta', `data: {z: "1", a: "1", b: "1"}`);
    const e = s.fail('me', `data: {z: "2", a: "2", b: "2"}`);
    // Identifiers are JSON: {"manager":"alpha",…} < {"manager":"beta",…} < {"manager":"zeta",…}.
    expect(e.message).toBe(
      'Apply failed with 3 conflicts: conflicts with "alpha" using v1:\n- .data.a\nconflicts with "beta" using v1:\n- .data.b\nconflicts with "zeta":\n- .data.z',
    );
    expect(e.status.details?.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "alpha" using v1', field: '.data.a' },
      { reason: 'FieldManagerConflict', message: 'conflict with "beta" using v1', field: '.data.b' },
      { reason: 'FieldManagerConflict', message: 'conflict with "zeta"', field: '.data.z' },
    ]);
  });

  it('a manager that wrote through a subresource is named with it', () => {
    const s = widget()
      .apply('a', `spec: {mode: x}`)
      .update('ctl', `spec: {mode: x}\nstatus: {phase: Ready}`, { subresource: 'status' });
    expect(s.conflict('a', `status: {phase: Pending}`, { subresource: 'status' })).toBe(
      'Apply failed with 1 conflict: conflict with "ctl" with subresource "status" using example.com/v1: .status.phase',
    );
  });

  it('an applier through a subresource is named without a version', () => {
    const s = widget().apply('a', `status: {phase: Ready}`, { subresource: 'status' });
    expect(s.conflict('b', `status: {phase: Failed}`, { subresource: 'status' })).toBe(
      'Apply failed with 1 conflict: conflict with "a" with subresource "status": .status.phase',
    );
  });

  it('paths of list-map items, multi-key items and set members are printed as kube prints them', () => {
    const s = widget().apply(
      'a',
      `spec:
        containers: [{name: web, image: nginx}]
        ports: [{port: 80, name: http}]
        weights: [3]`,
    );
    const e = s.fail('b', `spec: {containers: [{name: web, image: httpd}], ports: [{port: 80, name: web}]}`);
    expect(e.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "a":\n- .spec.containers[name="web"].image\n- .spec.ports[port=80,protocol="TCP"].name',
    );
  });
});
