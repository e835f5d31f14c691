// The typed layer on the Widget schema: field sets of values, merge,
// compare, removal, named-field membership and schema reconciliation.

import { describe, expect, it } from 'vitest';
import { toFieldsV1 } from '../fieldpath/fields-v1';
import { fieldElement } from '../fieldpath/element';
import { FieldSet } from '../fieldpath/set';
import { AtomResolver } from '../schema/atom';
import { widgetTable } from '../scenarios/schemas';
import { compareTyped } from './compare';
import type { ValidationError } from './errors';
import { mergeValues } from './merge';
import { ensureNamedFieldsAreMembers } from './named-fields';
import { reconcileFieldSet } from './reconcile';
import { removeItems } from './remove';
import { toFieldSet } from './to-field-set';
import { validateTyped } from './validate';

const root = new AtomResolver(widgetTable()).atomOf({ ref: 'test.Widget' });
const fv1 = (s: FieldSet) => JSON.stringify(toFieldsV1(s));
const f = fieldElement;

describe('toFieldSet', () => {
  it('scalars and atomic values are leaves; list-map items and map keys are members', () => {
    const s = toFieldSet({ spec: { replicas: 1, args: ['a'], containers: [{ name: 'c' }], config: { k: 'v' } } }, root);
    expect(fv1(s)).toBe('{"f:spec":{"f:args":{},"f:config":{"f:k":{}},"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:name":{}}},"f:replicas":{}}}');
  });

  it('a named field holding an empty struct or map, or null, is its own path (smd 4.4 visitMapItems)', () => {
    expect(fv1(toFieldSet({ spec: { template: {}, config: {} } }, root))).toBe('{"f:spec":{"f:config":{},"f:template":{}}}');
    expect(fv1(toFieldSet({ spec: { template: null } }, root))).toBe('{"f:spec":{"f:template":{}}}');
    expect(fv1(toFieldSet({ spec: { selector: null } }, root))).toBe('{"f:spec":{"f:selector":{}}}');
  });
});

describe('validateTyped', () => {
  it('reports the path of each problem and allows duplicates only when told', () => {
    const obj = { spec: { containers: [{ name: 'a' }, { name: 'a' }] } };
    expect(validateTyped(obj, root, { allowDuplicates: true })).toEqual([]);
    expect(validateTyped(obj, root, { allowDuplicates: false })).toEqual([{ path: '.spec.containers', message: 'duplicate entries for key [name="a"]' }]);
  });

  it('indexes elements of atomic lists in paths', () => {
    expect(validateTyped({ spec: { args: ['a', 1] } }, root, { allowDuplicates: false })).toEqual([
      { path: '.spec.args[1]', message: 'expected string, got &value.valueUnstructured{Value:1}' },
    ]);
  });
});

describe('mergeValues', () => {
  const merge = (l: unknown, r: unknown) => {
    const errs: ValidationError[] = [];
    const out = mergeValues(l, r, root, errs);
    expect(errs).toEqual([]);
    return out;
  };

  it('applied scalars win; live keys are kept', () => {
    expect(merge({ spec: { replicas: 1, mode: 'a' } }, { spec: { replicas: 2 } })).toEqual({ spec: { replicas: 2, mode: 'a' } });
  });

  it('atomic values are replaced whole', () => {
    expect(merge({ spec: { args: ['a', 'b'], selector: { matchLabels: { x: 'y', z: 'w' } } } }, { spec: { args: ['c'], selector: { matchLabels: { x: 'y' } } } })).toEqual({
      spec: { args: ['c'], selector: { matchLabels: { x: 'y' } } },
    });
  });

  it('list-map items merge by key', () => {
    expect(merge({ spec: { containers: [{ name: 'a', image: '1' }, { name: 'b' }] } }, { spec: { containers: [{ name: 'b', image: '2' }] } })).toEqual({
      spec: { containers: [{ name: 'a', image: '1' }, { name: 'b', image: '2' }] },
    });
  });

  it('both sides empty: the applied empty value is kept', () => {
    expect(merge({ spec: { config: {} } }, { spec: { config: null } })).toEqual({ spec: { config: null } });
    expect(merge({ spec: {} }, { spec: { tags: [] } })).toEqual({ spec: { tags: [] } });
  });
});

describe('compareTyped', () => {
  it('records added containers themselves as well as their fields', () => {
    const errs: ValidationError[] = [];
    const c = compareTyped({ spec: { replicas: 1, mode: 'x' } }, { spec: { replicas: 2, containers: [{ name: 'c' }] } }, root, errs);
    expect(errs).toEqual([]);
    expect(fv1(c.modified)).toBe('{"f:spec":{"f:replicas":{}}}');
    expect(fv1(c.added)).toBe('{"f:spec":{"f:containers":{".":{},"k:{\\"name\\":\\"c\\"}":{".":{},"f:name":{}}}}}');
    expect(fv1(c.removed)).toBe('{"f:spec":{"f:mode":{}}}');
  });
});

describe('removeItems', () => {
  it('removes members whole and leaves null where a map loses its last entry', () => {
    const obj = { spec: { config: { k: 'v' }, mode: 'x', containers: [{ name: 'a' }, { name: 'b' }] } };
    const out = removeItems(obj, FieldSet.of([f('spec'), f('mode')], [f('spec'), f('config'), f('k')]), root);
    expect(out).toEqual({ spec: { config: null, containers: [{ name: 'a' }, { name: 'b' }] } });
  });
});

describe('ensureNamedFieldsAreMembers', () => {
  it('makes struct fields with owned children members, not map keys or list items', () => {
    const s = FieldSet.of([f('spec'), f('config'), f('k')], [f('spec'), f('template'), f('labels'), f('x')]);
    expect(fv1(ensureNamedFieldsAreMembers(s, root))).toBe('{"f:spec":{".":{},"f:config":{".":{},"f:k":{}},"f:template":{".":{},"f:labels":{".":{},"f:x":{}}}}}');
  });
});

describe('reconcileFieldSet', () => {
  it('leaves a set that fits the schema alone', () => {
    expect(reconcileFieldSet(FieldSet.of([f('spec'), f('config'), f('k')]), root)).toBeUndefined();
  });

  it('collapses ownership inside an atomic value to the value itself', () => {
    expect(fv1(reconcileFieldSet(FieldSet.of([f('spec'), f('selector'), f('matchLabels'), f('x')], [f('spec'), f('mode')]), root)!)).toBe(
      '{"f:spec":{"f:mode":{},"f:selector":{}}}',
    );
  });
});
