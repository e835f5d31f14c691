// Path elements, field sets and their FieldsV1 form.

import { describe, expect, it } from 'vitest';
import {
  compareElements,
  deserializeElement,
  fieldElement,
  indexElement,
  keyElement,
  pathString,
  PathElementSyntaxError,
  serializeElement,
  valueElement,
  type Path,
} from './element';
import { FieldsV1Error, fromFieldsV1, toFieldsV1 } from './fields-v1';
import { FieldSet } from './set';

const f = fieldElement;
const k = (fields: Record<string, unknown>) => keyElement(Object.entries(fields).map(([name, value]) => ({ name, value })));
const v = valueElement;

describe('path elements', () => {
  it('serialize as f:, k: (keys sorted by name), v: and i:', () => {
    expect(serializeElement(f('spec'))).toBe('f:spec');
    expect(serializeElement(k({ protocol: 'TCP', port: 80 }))).toBe('k:{"port":80,"protocol":"TCP"}');
    expect(serializeElement(v('x'))).toBe('v:"x"');
    expect(serializeElement(v(3))).toBe('v:3');
    expect(serializeElement(indexElement(2))).toBe('i:2');
  });

  it('deserialize back, dropping unknown types and rejecting malformed keys', () => {
    expect(deserializeElement('k:{"protocol":"TCP","port":80}')).toEqual(k({ port: 80, protocol: 'TCP' }));
    expect(deserializeElement('v:true')).toEqual(v(true));
    expect(deserializeElement('i:7')).toEqual(indexElement(7));
    expect(deserializeElement('r:x')).toBeUndefined();
    expect(() => deserializeElement('f')).toThrow(new PathElementSyntaxError('key must be 2 characters long:'));
    expect(() => deserializeElement('fx')).toThrow('missing colon: fx');
    expect(() => deserializeElement('i:x')).toThrow('strconv.Atoi: parsing "x": invalid syntax');
  });

  it('order: fields, then keys, then values, then indexes', () => {
    const els = [indexElement(1), v(1), k({ name: 'a' }), f('z'), f('a'), v('a'), indexElement(0)];
    expect(els.sort(compareElements).map(serializeElement)).toEqual(['f:a', 'f:z', 'k:{"name":"a"}', 'v:1', 'v:"a"', 'i:0', 'i:1']);
  });

  it('print as kube prints field paths', () => {
    const p: Path = [f('spec'), f('containers'), k({ name: 'web' }), f('ports'), k({ port: 80, protocol: 'TCP' }), f('name')];
    expect(pathString(p)).toBe('.spec.containers[name="web"].ports[port=80,protocol="TCP"].name');
    expect(pathString([f('metadata'), f('finalizers'), v('a/b')])).toBe('.metadata.finalizers[="a/b"]');
    expect(pathString([f('x'), indexElement(3)])).toBe('.x[3]');
  });
});

describe('FieldSet', () => {
  const set = (...paths: Path[]) => FieldSet.of(...paths);
  const a = [f('a')];
  const ab = [f('a'), f('b')];
  const ac = [f('a'), f('c')];
  const d = [f('d')];

  it('union, intersection', () => {
    expect(set(a, ab).union(set(ac, d)).paths()).toEqual([a, d, ab, ac]);
    expect(set(a, ab, d).intersection(set(ab, d)).paths()).toEqual([d, ab]);
  });

  it('difference removes members only: a parent does not remove its children', () => {
    expect(set(a, ab, ac).difference(set(a, ab)).paths()).toEqual([ac]);
    expect(set(ab).difference(set(a)).paths()).toEqual([ab]);
  });

  it('recursiveDifference also removes everything below a removed member', () => {
    expect(set(ab, ac, d).recursiveDifference(set(a)).paths()).toEqual([d]);
  });

  it('has, withPrefix, size, empty', () => {
    const s = set(a, ab);
    expect(s.has(ab)).toBe(true);
    expect(s.has([f('a'), f('x')])).toBe(false);
    expect(s.withPrefix(f('a')).paths()).toEqual([[f('b')]]);
    expect(s.size()).toBe(2);
    expect(new FieldSet().isEmpty()).toBe(true);
    expect(set(ab).difference(set(ab)).isEmpty()).toBe(true);
  });

  it('iterates members of a node before its children (the order of conflicts)', () => {
    const s = set([f('spec'), f('template'), f('x')], [f('spec'), f('replicas')], [f('metadata'), f('labels'), f('a')]);
    expect(s.paths().map(pathString)).toEqual(['.metadata.labels.a', '.spec.replicas', '.spec.template.x']);
  });
});

describe('FieldsV1', () => {
  it('writes "." first for an element that is a member with children', () => {
    const s = FieldSet.of([f('spec'), f('c'), k({ name: 'x' })], [f('spec'), f('c'), k({ name: 'x' }), f('image')]);
    expect(JSON.stringify(toFieldsV1(s))).toBe('{"f:spec":{"f:c":{"k:{\\"name\\":\\"x\\"}":{".":{},"f:image":{}}}}}');
  });

  it('round-trips and re-sorts what it reads', () => {
    const text = '{"v:2":{},"f:b":{"f:x":{}},"k:{\\"name\\":\\"a\\"}":{".":{},"f:y":{}},"f:a":{},"i:1":{}}';
    const s = fromFieldsV1(JSON.parse(text));
    expect(JSON.stringify(toFieldsV1(s))).toBe('{"f:a":{},"f:b":{"f:x":{}},"k:{\\"name\\":\\"a\\"}":{".":{},"f:y":{}},"v:2":{},"i:1":{}}');
  });

  it('an element holding only "." is a member; unknown element types are dropped', () => {
    expect(fromFieldsV1({ 'f:a': { '.': {} }, 'x:b': {} }).paths()).toEqual([[f('a')]]);
  });

  it('rejects what is not a field set', () => {
    expect(() => fromFieldsV1({ 'f:a': 1 })).toThrow(FieldsV1Error);
    expect(() => fromFieldsV1({ kx: {} })).toThrow('parsing key as path element: missing colon: kx');
  });
});
