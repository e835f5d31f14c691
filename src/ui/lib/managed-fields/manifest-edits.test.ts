import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { conflictsFromStatus } from './conflicts';
import { adoptLiveValues, dropFields } from './manifest-edits';

const MANIFEST = `apiVersion: v1
kind: ConfigMap
metadata:
  name: c1
  labels:
    a: mine # kept comment
data:
  k: v2
  other: x
`;

// The Status the server answers a conflicting apply with (409, FieldManagerConflict causes).
const STATUS = {
  kind: 'Status' as const,
  code: 409,
  status: 'Failure' as const,
  reason: 'Conflict',
  message: 'Apply failed with 2 conflicts: conflicts with "alice":\n- .data.k\n- .metadata.labels.a',
  details: {
    causes: [
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.k' },
      { reason: 'FieldManagerConflict', message: 'conflict with "kubectl-edit" using v1', field: '.metadata.labels.a' },
    ],
  },
};

describe('ways out of an apply conflict', () => {
  const conflicts = conflictsFromStatus(STATUS);

  it('reads the conflicting fields and their owners from the Status causes', () => {
    expect(conflicts.map((c) => [c.field, c.manager, c.apiVersion])).toEqual([
      ['.data.k', 'alice', ''],
      ['.metadata.labels.a', 'kubectl-edit', 'v1'],
    ]);
  });

  it('drop: removes the fields and maps left empty, keeps the rest', () => {
    const result = dropFields(MANIFEST, conflicts.map((c) => c.elements));
    expect(parse(result)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, data: { other: 'x' } });
  });

  it('adopt: takes the live values for the conflicting fields only', () => {
    const live = { metadata: { name: 'c1', labels: { a: 'theirs' } }, data: { k: 'v1', other: 'live' } };
    const result = adoptLiveValues(MANIFEST, live, conflicts.map((c) => c.elements));
    expect(parse(result)).toMatchObject({ metadata: { labels: { a: 'theirs' } }, data: { k: 'v1', other: 'x' } });
  });
});
