// The JSONPath subset of printer columns (client-go jsonpath semantics for
// `{<column path>}` with missing keys allowed) and the cells the custom
// resource Table computes from it.

import { describe, expect, it } from 'vitest';
import { firstResult, parseJsonPath, JsonPathError } from './jsonpath';
import { printerColumnsTable } from './printer-columns';

const obj = {
  metadata: { name: 'x', creationTimestamp: '2024-12-11T12:00:00Z', labels: { 'app.kubernetes.io/name': 'web' } },
  spec: { replicas: 3, ratio: 0.5, big: 1e21, on: true, tags: ['a', 'b'], nested: { z: 1, a: '<x>' } },
  status: {
    conditions: [
      { type: 'Progressing', status: 'True' },
      { type: 'Ready', status: 'False', reason: 'Waiting' },
    ],
  },
};

const value = (path: string) => firstResult(parseJsonPath(path), obj);

describe('column paths', () => {
  it('select fields, quoted keys with dots, indices (negative too) and slices', () => {
    expect(value('.spec.replicas')).toBe(3);
    expect(value(".metadata.labels['app.kubernetes.io/name']")).toBe('web');
    expect(value('.spec.tags[1]')).toBe('b');
    expect(value('.spec.tags[-1]')).toBe('b');
    expect(value('.spec.tags[0:1]')).toBe('a');
    expect(value('.spec.tags[*]')).toBe('a');
  });

  it('filter lists as kubectl users write them for condition columns', () => {
    expect(value('.status.conditions[?(@.type=="Ready")].status')).toBe('False');
    expect(value(".status.conditions[?(@.type=='Ready')].reason")).toBe('Waiting');
    expect(value('.status.conditions[?(@.reason)].type')).toBe('Ready');
  });

  it('a missing key selects nothing; recursive descent finds nested keys', () => {
    expect(value('.spec.nothing.here')).toBeUndefined();
    expect(value('..reason')).toBe('Waiting');
  });

  it('refuses what it cannot parse (the column then falls back, as kube does)', () => {
    expect(() => parseJsonPath('.spec[')).toThrow(JsonPathError);
    expect(() => parseJsonPath('.spec.tags[?(@ =~ /x/)]')).toThrow(JsonPathError);
  });
});

describe('printer column cells', () => {
  const now = Date.parse('2024-12-11T12:03:00Z');
  const cells = (columns: { name: string; type: string; jsonPath: string }[]) => printerColumnsTable(columns).cells(obj, now);

  it('string columns print as jsonpath does: maps and lists as Go JSON, floats as %v', () => {
    expect(
      cells([
        { name: 'T', type: 'string', jsonPath: '.spec.tags' },
        { name: 'N', type: 'string', jsonPath: '.spec.nested' },
        { name: 'R', type: 'string', jsonPath: '.spec.ratio' },
        { name: 'B', type: 'string', jsonPath: '.spec.big' },
        { name: 'On', type: 'string', jsonPath: '.spec.on' },
        { name: 'Miss', type: 'string', jsonPath: '.spec.missing' },
      ]),
    ).toEqual(['x', '["a","b"]', '{"a":"\\u003cx\\u003e","z":1}', '0.5', '1e+21', 'true', null]);
  });

  it('typed columns carry the typed value or null; integers truncate numbers', () => {
    expect(
      cells([
        { name: 'I', type: 'integer', jsonPath: '.spec.ratio' },
        { name: 'N', type: 'number', jsonPath: '.spec.replicas' },
        { name: 'Bool', type: 'boolean', jsonPath: '.spec.on' },
        { name: 'Wrong', type: 'integer', jsonPath: '.metadata.name' },
      ]),
    ).toEqual(['x', 0, 3, true, null]);
  });

  it('date columns are humanised ages; an unparsable date is <invalid>', () => {
    expect(
      cells([
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        { name: 'Bad', type: 'date', jsonPath: '.metadata.name' },
      ]),
    ).toEqual(['x', '3m', '<invalid>']);
  });

  it('stops at the first column it cannot parse', () => {
    const table = printerColumnsTable([
      { name: 'A', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'B', type: 'string', jsonPath: '.spec[' },
      { name: 'C', type: 'string', jsonPath: '.spec.on' },
    ]);
    expect(table.columns.map((c) => c.name)).toEqual(['Name', 'A']);
  });
});
