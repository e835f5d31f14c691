// Apply and update through the status subresource, and the managed fields
// of the scale subresource.

import { describe, expect, it } from 'vitest';
import type { ManagedFieldsEntry } from '../../kinds/types';
import { scaleToParent, scaleToSubresource } from '../index';
import { scenario } from './dsl';
import { widgetSchema } from './schemas';

const widget = () => scenario({ schema: widgetSchema, apiVersion: 'example.com/v1', kind: 'Widget' });

describe('status subresource', () => {
  it('an apply to /status records its subresource and owns only status (spec is reset there)', () => {
    const s = widget().apply('app', `spec: {mode: fast}`);
    s.apply('ctl', `spec: {mode: slow}\nstatus: {phase: Running}`, { subresource: 'status' });
    s.expectManagedFields(`
      - manager: app
        operation: Apply
        fieldsV1: {"f:spec": {"f:mode": {}}}
      - manager: ctl
        operation: Apply
        subresource: status
        fieldsV1: {"f:status": {"f:phase": {}}}
    `);
  });

  it('status applied to the main resource is not owned (status is reset there)', () => {
    const s = widget().apply('app', `spec: {mode: fast}\nstatus: {phase: Running}`);
    s.expectManagedFields(`
      - manager: app
        operation: Apply
        fieldsV1: {"f:spec": {"f:mode": {}}}
    `);
  });

  it('two status appliers own conditions per type', () => {
    const s = widget()
      .apply('a', `status: {conditions: [{type: Ready, status: "True"}]}`, { subresource: 'status' })
      .apply('b', `status: {conditions: [{type: Synced, status: "False"}]}`, { subresource: 'status' });
    s.expectField('status.conditions', `[{type: Ready, status: "True"}, {type: Synced, status: "False"}]`);
    expect(s.conflict('b', `status: {conditions: [{type: Ready, status: "False"}]}`, { subresource: 'status' })).toBe(
      'Apply failed with 1 conflict: conflict with "a" with subresource "status": .status.conditions[type="Ready"].status',
    );
  });

  it('an update through /status uses the live entries, not the request’s', () => {
    const s = widget().apply('app', `spec: {mode: fast}`);
    s.update(
      'ctl',
      `metadata: {managedFields: [{manager: evil, operation: Update, apiVersion: example.com/v1, fieldsType: FieldsV1, fieldsV1: {}}]}\nspec: {mode: fast}\nstatus: {phase: Up}`,
      { subresource: 'status' },
    );
    expect(s.managers()).toEqual(['app/Apply', 'ctl/Update/status']);
  });
});

describe('scale subresource', () => {
  const mappings = { 'apps/v1': ['spec', 'replicas'] };
  const parent: ManagedFieldsEntry[] = [
    { manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time: '2024-12-11T12:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } } },
    { manager: 'other', operation: 'Update', apiVersion: 'apps/v1', time: '2024-12-11T12:00:01Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': {} } } },
  ];

  it('the Scale object shows the owners of replicas as owners of .spec.replicas in autoscaling/v1', () => {
    expect(scaleToSubresource(parent, mappings)).toEqual([
      { manager: 'kubectl', operation: 'Apply', apiVersion: 'autoscaling/v1', time: '2024-12-11T12:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
    ]);
  });

  it('a scale write takes replicas from the parent’s owners and records the scale manager in the parent’s version', () => {
    const scale: ManagedFieldsEntry[] = [
      { manager: 'kubectl-scale', operation: 'Update', apiVersion: 'autoscaling/v1', time: '2024-12-11T12:00:05Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' },
    ];
    expect(scaleToParent(parent, scale, 'apps/v1', mappings)).toEqual([
      { manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time: '2024-12-11T12:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:selector': {} } } },
      // kube takes a scale manager's time from the parent's entries, where a new one has none.
      { manager: 'kubectl-scale', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' },
      { manager: 'other', operation: 'Update', apiVersion: 'apps/v1', time: '2024-12-11T12:00:01Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': {} } } },
    ]);
  });

  it('a parent owner that still owns replicas after the scale write keeps its entry', () => {
    const scale = scaleToSubresource(parent, mappings)!;
    expect(scaleToParent(parent, scale, 'apps/v1', mappings)).toEqual(parent);
  });

  it('entries of versions without a replicas mapping are dropped', () => {
    const old: ManagedFieldsEntry[] = [{ manager: 'x', operation: 'Update', apiVersion: 'apps/v1beta1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }];
    expect(scaleToSubresource(old, mappings)).toBeUndefined();
    expect(scaleToParent(old, [], 'apps/v1', mappings)).toBeUndefined();
  });
});
