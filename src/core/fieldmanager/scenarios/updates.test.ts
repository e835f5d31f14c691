// Updates (PUT and non-apply patches) never conflict: the writer takes the
// fields it changed, everyone else loses them.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import { scenario, type Scenario } from './dsl';
import { widgetSchema } from './schemas';

const widget = () => scenario({ schema: widgetSchema, apiVersion: 'example.com/v1', kind: 'Widget' });

/** The live object with a change, as a client would PUT it. */
function edit(s: Scenario, change: (spec: Record<string, unknown>) => void): KubeObject {
  const obj = structuredClone(s.live!);
  change(obj.spec as Record<string, unknown>);
  return obj;
}

describe('updates of lists', () => {
  it('an added element is owned with its fields and itself (".")', () => {
    const s = widget().apply('a', `spec: {containers: [{name: x, image: i}]}`);
    s.update('ctl', edit(s, (spec) => (spec.containers as unknown[]).push({ name: 'y', image: 'j' })));
    expect(JSON.stringify(s.managedFields()[1]!.fieldsV1)).toBe('{"f:spec":{"f:containers":{"k:{\\"name\\":\\"y\\"}":{".":{},"f:image":{},"f:name":{}}}}}');
  });

  it('removing an applier’s element takes it from the applier; re-applying brings it back without conflict', () => {
    const s = widget().apply('a', `spec: {containers: [{name: x, image: i}, {name: y, image: j}]}`);
    s.update('ctl', edit(s, (spec) => (spec.containers as unknown[]).splice(1, 1)));
    expect(JSON.stringify(s.managedFields()[0]!.fieldsV1)).toBe('{"f:spec":{"f:containers":{"k:{\\"name\\":\\"x\\"}":{".":{},"f:image":{},"f:name":{}}}}}');
    expect(s.managers()).toEqual(['a/Apply']);
    s.apply('a', `spec: {containers: [{name: x, image: i}, {name: y, image: j}]}`);
    s.expectField('spec.containers', `[{name: x, image: i}, {name: y, image: j}]`);
  });

  it('a set member added by an update belongs to the updater', () => {
    const s = widget().apply('a', `spec: {tags: [x]}`);
    s.update('ctl', edit(s, (spec) => (spec.tags as string[]).push('y')));
    expect(JSON.stringify(s.managedFields()[1]!.fieldsV1)).toBe('{"f:spec":{"f:tags":{"v:\\"y\\"":{}}}}');
  });

  it('changing an atomic list takes the whole list; the applier then conflicts', () => {
    const s = widget().apply('a', `spec: {args: [x]}`);
    s.update('ctl', edit(s, (spec) => (spec.args = ['x', 'y'])));
    expect(s.managers()).toEqual(['ctl/Update']);
    expect(s.conflict('a', `spec: {args: [x]}`)).toBe('Apply failed with 1 conflict: conflict with "ctl" using example.com/v1: .spec.args');
  });
});

describe('the same updater over time', () => {
  it('accumulates the fields of its updates in one entry', () => {
    const s = widget().apply('a', `spec: {mode: m}`);
    s.update('ctl', edit(s, (spec) => (spec.replicas = 2)));
    s.update('ctl', edit(s, (spec) => (spec.paused = true)));
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:mode": {}}}
      - manager: ctl
        operation: Update
        time: "2024-12-11T12:00:03Z"
        fieldsV1: {"f:spec": {"f:paused": {}, "f:replicas": {}}}
    `);
  });

  it('keeps a field it removed out of its entry', () => {
    const s = widget().update('ctl', `spec: {replicas: 2, mode: m}`);
    s.update('ctl', edit(s, (spec) => delete spec.mode));
    // The Widget's empty object already has a spec (a struct value), so no "." for it.
    expect(JSON.stringify(s.managedFields()[0]!.fieldsV1)).toBe('{"f:spec":{"f:replicas":{}}}');
  });
});

describe('reset fields', () => {
  it('status written through the main resource is owned by no one', () => {
    const s = widget().apply('a', `spec: {mode: m}`);
    const v = structuredClone(s.live!);
    v.status = { phase: 'Hacked' };
    s.update('ctl', v);
    expect(s.managers()).toEqual(['a/Apply']);
  });

  it('spec written through /status is owned by no one', () => {
    const s = widget().apply('a', `spec: {mode: m}`);
    const v = structuredClone(s.live!);
    (v.spec as Record<string, unknown>).mode = 'changed';
    v.status = { phase: 'Up' };
    s.update('ctl', v, { subresource: 'status' });
    s.expectManagedFields(`
      - manager: a
        operation: Apply
        fieldsV1: {"f:spec": {"f:mode": {}}}
      - manager: ctl
        operation: Update
        subresource: status
        fieldsV1: {"f:status": {"f:phase": {}}}
    `);
  });
});
