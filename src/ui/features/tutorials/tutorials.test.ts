// The tutorials as data: the four the issue asks for, each step with an id
// unique in its tutorial (progress is kept by id), something to do, and a
// check; and the helpers checks use to read managedFields and audit records.

import { describe, expect, it } from 'vitest';
import { TUTORIALS } from './content';
import { ownersOfField, queryOf, servedAs, type AuditEntry } from './context';
import type { KubeObject } from '../../lib/api/types';

describe('tutorials', () => {
  it('are the four of issue 6: server-side apply, RBAC, watch and resourceVersion, deletion', () => {
    expect(TUTORIALS.map((t) => t.id)).toEqual(['server-side-apply', 'rbac', 'watch', 'deletion']);
  });

  it('have steps with unique ids, actions and a check each', () => {
    for (const tutorial of TUTORIALS) {
      const ids = tutorial.steps.map((s) => s.id);
      expect(new Set(ids).size, tutorial.id).toBe(ids.length);
      for (const step of tutorial.steps) {
        expect(step.actions.length, `${tutorial.id}/${step.id}`).toBeGreaterThan(0);
        expect(step.checks, `${tutorial.id}/${step.id}`).not.toBe('');
        expect(step.body.join(' ').split('`').length % 2, `${tutorial.id}/${step.id}: unbalanced backticks`).toBe(1);
      }
    }
  });
});

describe('check helpers', () => {
  it('read who owns a field from managedFields (rule: fieldsV1 paths)', () => {
    const object: KubeObject = {
      metadata: {
        name: 'x',
        managedFields: [
          { manager: 'tool-a', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:color': {}, 'f:size': {} } } },
          { manager: 'tool-b', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:color': {} } } },
        ],
      },
      data: { color: 'blue', size: 'small' },
    };
    expect(ownersOfField(object, '.data.color')).toEqual(['tool-a', 'tool-b']);
    expect(ownersOfField(object, '.data.size')).toEqual(['tool-a']);
    expect(ownersOfField(object, '.data.shape')).toEqual([]);
  });

  it('read the user and query of an audit record', () => {
    const entry: AuditEntry = { seq: 1, event: { verb: 'patch', requestURI: '/api/v1/namespaces/default/configmaps/x?fieldManager=tool-b&force=true', user: { username: 'kubernetes-admin' }, impersonatedUser: { username: 'jane' } } };
    expect(servedAs(entry)).toBe('jane');
    expect(queryOf(entry).get('fieldManager')).toBe('tool-b');
    expect(queryOf({ ...entry, event: { ...entry.event, requestURI: '/api' } }).toString()).toBe('');
  });
});
