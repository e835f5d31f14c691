// Managed-fields entries: identity (manager, operation, version,
// subresource), times, order, the 10-updater cap, untracked objects and the
// reset rule.

import { describe, expect, it } from 'vitest';
import { scenario } from './dsl';
import { configSchema } from './schemas';

const config = () => scenario({ schema: configSchema, apiVersion: 'v1', kind: 'Config' });

describe('manager identity', () => {
  it('the same name as Update and as Apply are two owners: an apply can conflict with its own update', () => {
    const s = config().update('x', `data: {key: one}`);
    expect(s.conflict('x', `data: {key: two}`)).toBe('Apply failed with 1 conflict: conflict with "x" using v1: .data.key');
    s.apply('x', `data: {key: one}`);
    expect(s.managers()).toEqual(['x/Apply', 'x/Update']);
  });

  it('an updater writing through two versions has one entry per version', () => {
    const s = config().update('ctl', `data: {a: "1"}`);
    s.update('ctl', `data: {a: "1", b: "2"}`);
    const s2 = s.live!;
    const other = scenario({ schema: configSchema, apiVersion: 'v2', kind: 'Config' }).wait(10);
    other.live = s2;
    other.update('ctl', { apiVersion: 'v2', kind: 'Config', metadata: { name: 'test' }, data: { a: '1', b: '2', c: '3' } }, { raw: true });
    expect(other.managedFields().map((e) => `${e.manager}/${e.apiVersion}`)).toEqual(['ctl/v1', 'ctl/v2']);
  });

  it('an applier keeps one entry whatever version it applies with, recorded with the last one', () => {
    const s = config().apply('a', `data: {a: "1"}`);
    const other = scenario({ schema: configSchema, apiVersion: 'v2', kind: 'Config' });
    other.live = s.live;
    other.apply('a', `data: {a: "2"}`);
    expect(other.managedFields().map((e) => `${e.manager}/${e.operation}/${e.apiVersion}`)).toEqual(['a/Apply/v2']);
  });

  it('a subresource makes a separate entry for the same manager', () => {
    const s = config().update('x', `data: {a: "1"}`).update('x', `data: {a: "1", b: "2"}`, { subresource: 'status', ignoredFields: [] });
    expect(s.managers()).toEqual(['x/Update', 'x/Update/status']);
  });

  it('an update without a manager name is recorded as "unknown"', () => {
    const s = config().update('', `data: {a: "1"}`);
    expect(s.managers()).toEqual(['unknown/Update']);
  });

  it('a manager that owns nothing any more disappears', () => {
    const s = config().apply('ctl', `data: {a: "1"}`).update('temp', `data: {a: "2"}`);
    expect(s.managers()).toEqual(['temp/Update']);
    s.apply('ctl', `data: {a: "3"}`, { force: true });
    expect(s.managers()).toEqual(['ctl/Apply']);
  });

  it('a creating updater keeps owning the map it created (".") after losing its keys', () => {
    const s = config().update('temp', `data: {a: "1"}`).apply('ctl', `data: {a: "2"}`, { force: true });
    s.expectManagedFields(`
      - manager: ctl
        operation: Apply
        fieldsV1: {"f:data": {"f:a": {}}}
      - manager: temp
        operation: Update
        fieldsV1: {"f:data": {}}
    `);
  });

  it('the ownership handover example: a temporary manager shares the field, keeps it, and leaves when a controller takes it', () => {
    const s = config().apply('kubectl', `data: {replicas: "3", other: x}`);
    s.apply('handover', `data: {replicas: "3"}`);
    s.apply('kubectl', `data: {other: x}`);
    s.expectField('data', `{replicas: "3", other: x}`);
    s.update('hpa', `data: {replicas: "5", other: x}`);
    expect(s.managers()).toEqual(['kubectl/Apply', 'hpa/Update']);
  });

  it('a forced apply of the value already stored shares the field rather than taking it', () => {
    const s = config().update('a', `data: {replicas: "3"}`);
    s.apply('b', `data: {replicas: "3"}`, { force: true });
    expect(s.managers()).toEqual(['b/Apply', 'a/Update']);
  });
});

describe('times and order', () => {
  it('an entry’s time is the time of the last write that changed its fields', () => {
    const s = config().update('a', `data: {x: "1"}`);
    s.wait(10).update('a', `data: {x: "1"}`);
    s.expectManagedFields(`
      - manager: a
        operation: Update
        time: "2024-12-11T12:00:01Z"
        fieldsV1: {"f:data": {".": {}, "f:x": {}}}
    `);
    s.update('a', `data: {x: "2"}`);
    expect(s.managedFields()[0]!.time).toBe('2024-12-11T12:00:13Z');
  });

  it('an apply that changes nothing keeps the applier’s time', () => {
    const s = config().apply('a', `data: {x: "1"}`);
    s.wait(5).apply('a', `data: {x: "1"}`);
    expect(s.managedFields()[0]!.time).toBe('2024-12-11T12:00:01Z');
  });

  it('a manager losing a field to another does not get a new time', () => {
    const s = config().apply('a', `data: {x: "1", y: "1"}`);
    s.wait(5).update('b', `data: {x: "2", y: "1"}`);
    expect(s.managedFields().find((e) => e.manager === 'a')!.time).toBe('2024-12-11T12:00:01Z');
  });

  it('entries are ordered Apply before Update, then by time, then by manager', () => {
    const s = config().update('u2', `data: {a: "1"}`).update('u1', `data: {a: "1", b: "1"}`).apply('z', `data: {c: "1"}`).apply('y', `data: {d: "1"}`);
    expect(s.managers()).toEqual(['z/Apply', 'y/Apply', 'u2/Update', 'u1/Update']);
  });

  it('entries of the same second are ordered by manager name', () => {
    const s = config().update('b', `data: {a: "1"}`);
    s.wait(-1).update('a', `data: {a: "1", b: "1"}`);
    expect(s.managedFields().map((e) => [e.manager, e.time])).toEqual([
      ['a', '2024-12-11T12:00:01Z'],
      ['b', '2024-12-11T12:00:01Z'],
    ]);
  });

  it('entry fields are in ManagedFieldsEntry order', () => {
    const s = config().update('x', `data: {a: "1"}`, { subresource: 'status', ignoredFields: [] });
    expect(Object.keys(s.managedFields()[0]!)).toEqual(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource']);
  });
});

describe('at most 10 Update entries', () => {
  function eleven() {
    const s = config();
    const data: Record<string, string> = {};
    for (let i = 0; i <= 10; i++) {
      data[`k${i}`] = String(i);
      s.update(`m${i}`, { data: { ...data } });
    }
    return s;
  }

  it('the eleventh updater merges the two oldest into "ancient-changes"', () => {
    const s = eleven();
    expect(s.managers()).toEqual([
      'ancient-changes/Update',
      'm2/Update',
      'm3/Update',
      'm4/Update',
      'm5/Update',
      'm6/Update',
      'm7/Update',
      'm8/Update',
      'm9/Update',
      'm10/Update',
    ]);
    s.expectManagedFields(`
      - manager: ancient-changes
        operation: Update
        time: "2024-12-11T12:00:02Z"
        fieldsV1: {"f:data": {".": {}, "f:k0": {}, "f:k1": {}}}
      - {manager: m2, operation: Update, fieldsV1: {"f:data": {"f:k2": {}}}}
      - {manager: m3, operation: Update, fieldsV1: {"f:data": {"f:k3": {}}}}
      - {manager: m4, operation: Update, fieldsV1: {"f:data": {"f:k4": {}}}}
      - {manager: m5, operation: Update, fieldsV1: {"f:data": {"f:k5": {}}}}
      - {manager: m6, operation: Update, fieldsV1: {"f:data": {"f:k6": {}}}}
      - {manager: m7, operation: Update, fieldsV1: {"f:data": {"f:k7": {}}}}
      - {manager: m8, operation: Update, fieldsV1: {"f:data": {"f:k8": {}}}}
      - {manager: m9, operation: Update, fieldsV1: {"f:data": {"f:k9": {}}}}
      - {manager: m10, operation: Update, fieldsV1: {"f:data": {"f:k10": {}}}}
    `);
  });

  it('later updaters keep merging into the bucket', () => {
    const s = eleven();
    s.update('m11', { data: { ...(s.field('data') as object), k11: '11' } });
    expect(s.managers()[0]).toBe('ancient-changes/Update');
    expect(s.managers()).toHaveLength(10);
    expect(JSON.stringify(s.managedFields()[0]!.fieldsV1)).toBe('{"f:data":{".":{},"f:k0":{},"f:k1":{},"f:k2":{}}}');
  });

  it('appliers do not count', () => {
    const s = config();
    for (let i = 0; i < 12; i++) s.apply(`a${i}`, { data: { [`k${i}`]: 'v' } });
    expect(s.managers()).toHaveLength(12);
  });
});

describe('untracked objects and resetting managedFields', () => {
  it('managedFields: [{}] clears the entries', () => {
    const s = config().apply('a', `data: {x: "1"}`);
    s.update('b', `metadata: {managedFields: [{}]}\ndata: {x: "1"}`);
    expect(s.managedFields()).toEqual([]);
    expect(s.live!.metadata!.managedFields).toBeUndefined();
  });

  it('the request that resets also gives its writer the fields it changed (specification)', () => {
    const s = config().apply('a', `data: {x: "1"}`);
    s.update('b', `metadata: {managedFields: [{}]}\ndata: {x: "1", y: "2"}`);
    s.expectManagedFields(`
      - manager: b
        operation: Update
        fieldsV1: {"f:data": {"f:y": {}}}
    `);
  });

  it('an empty list does not reset: the live entries are kept (specification)', () => {
    const s = config().apply('a', `data: {x: "1"}`);
    s.update('b', `metadata: {managedFields: []}\ndata: {x: "1"}`);
    expect(s.managers()).toEqual(['a/Apply']);
  });

  it('a request without managedFields keeps the live entries', () => {
    const s = config().apply('a', `data: {x: "1"}`);
    s.update('b', `data: {x: "1", y: "2"}`, { keepManagedFields: false });
    expect(s.managers()).toEqual(['a/Apply', 'b/Update']);
  });

  it('invalid entries in the request are ignored in favour of the live ones', () => {
    const s = config().apply('a', `data: {x: "1"}`);
    s.update('b', `metadata: {managedFields: [{manager: z, operation: Bogus, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {}}]}\ndata: {x: "1"}`);
    expect(s.managers()).toEqual(['a/Apply']);
  });

  it('valid entries in the request replace the live ones (clients may edit managedFields)', () => {
    const s = config().apply('a', `data: {x: "1"}`);
    s.update(
      'b',
      `metadata: {managedFields: [{manager: edited, operation: Update, apiVersion: v1, time: "2024-01-01T00:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:data": {"f:x": {}}}}]}\ndata: {x: "1"}`,
    );
    s.expectManagedFields(`
      - manager: edited
        operation: Update
        time: "2024-01-01T00:00:00Z"
        fieldsV1: {"f:data": {"f:x": {}}}
    `);
  });

  it('updates of an object without managed fields stay untracked', () => {
    const s = config().apply('a', `data: {x: "1"}`).update('b', `metadata: {managedFields: [{}]}\ndata: {x: "1"}`);
    s.update('c', `data: {x: "2"}`);
    expect(s.managedFields()).toEqual([]);
  });

  it('the first apply to an untracked object gives what exists to "before-first-apply"', () => {
    const s = config().apply('a', `data: {x: "1", y: "1"}`).update('b', `metadata: {managedFields: [{}]}\ndata: {x: "1", y: "1"}`);
    expect(s.conflict('c', `data: {x: "2"}`)).toBe('Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.x');
    s.apply('c', `data: {x: "1", z: "3"}`);
    s.expectManagedFields(`
      - manager: c
        operation: Apply
        fieldsV1: {"f:data": {"f:x": {}, "f:z": {}}}
      - manager: before-first-apply
        operation: Update
        fieldsV1: {"f:data": {".": {}, "f:x": {}, "f:y": {}}}
    `);
  });

  it('a create is tracked', () => {
    const s = config().update('kubectl-create', `data: {x: "1"}`);
    s.expectManagedFields(`
      - manager: kubectl-create
        operation: Update
        time: "2024-12-11T12:00:01Z"
        fieldsV1: {"f:data": {".": {}, "f:x": {}}}
    `);
  });
});
