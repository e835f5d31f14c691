// ValidateObjectMeta / ValidateObjectMetaUpdate paths and messages.

import { describe, expect, it } from 'vitest';
import { aggregateFieldErrors, fieldErrorString } from '../../errors/field-errors';
import { nameIsDNSSubdomain } from './names';
import { finalizerWarnings, validateObjectMeta, validateObjectMetaUpdate } from './object-meta';

const msgs = (errs: ReturnType<typeof validateObjectMeta>) => errs.map(fieldErrorString);

describe('validateObjectMeta', () => {
  it('requires a name or generateName and a namespace for namespaced kinds', () => {
    expect(msgs(validateObjectMeta({}, true, nameIsDNSSubdomain))).toEqual([
      'metadata.name: Required value: name or generateName is required',
      'metadata.namespace: Required value',
    ]);
  });

  it('reports bad label keys and values on metadata.labels', () => {
    const errs = msgs(validateObjectMeta({ name: 'a', labels: { 'bad key': 'ok', ok: 'bad value!' } }, false, nameIsDNSSubdomain));
    expect(errs[0]).toMatch(/^metadata\.labels: Invalid value: "bad key": name part must consist of/);
    expect(errs[1]).toMatch(/^metadata\.labels: Invalid value: "bad value!": a valid label must be an empty string/);
  });

  it('allows only one controller owner reference', () => {
    const refs = [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true },
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: '2', controller: true },
    ];
    const errs = validateObjectMeta({ name: 'x', namespace: 'd', ownerReferences: refs }, true, nameIsDNSSubdomain);
    expect(errs[0]!.detail).toBe('Only one reference can have Controller set to true. Found "true" in references for a and b');
  });

  it('refuses orphan and foregroundDeletion together', () => {
    const errs = validateObjectMeta({ name: 'x', finalizers: ['orphan', 'foregroundDeletion'] }, false, nameIsDNSSubdomain);
    expect(errs.map((e) => e.detail)).toEqual(['finalizer orphan and foregroundDeletion cannot be both set']);
  });
});

describe('validateObjectMetaUpdate', () => {
  it('keeps the name immutable and forbids new finalizers while deleting', () => {
    const old = { name: 'a', namespace: 'd', uid: 'u', resourceVersion: '5', deletionTimestamp: '2024-01-01T00:00:00Z', finalizers: ['a.io/x'] };
    const next = { ...old, name: 'b', finalizers: ['a.io/x', 'b.io/y'] };
    expect(aggregateFieldErrors(validateObjectMetaUpdate(next, old))).toBe(
      '[metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b.io/y"}, metadata.name: Invalid value: "b": field is immutable]',
    );
  });
});

describe('finalizer warnings', () => {
  it('prefers domain-qualified names', () => {
    expect(finalizerWarnings(['kubernetes', 'example.com/ok', 'mine'])).toEqual([
      'metadata.finalizers: "mine": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers',
    ]);
  });
});
