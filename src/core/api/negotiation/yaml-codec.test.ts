// YAML in and out as kube-apiserver does it (sigs.k8s.io/yaml over go-yaml
// v2): request bodies read with YAML 1.1 meanings, and application/yaml
// responses written the way go-yaml's emitter writes the JSON content.

import { describe, expect, it } from 'vitest';
import { compareYamlKeys, decodeYaml, encodeYaml, YamlDecodeError } from './index';

function yamlError(text: string): string {
  try {
    decodeYaml(text);
  } catch (err) {
    if (err instanceof YamlDecodeError) return err.message;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('YAML bodies: YAML 1.1 scalars as go-yaml v2 reads them', () => {
  it('yes/no/on/off/y/n are booleans (a client writing `enabled: yes` stores true)', () => {
    expect(decodeYaml('a: yes\nb: No\nc: on\nd: y\ne: OFF\nf: True').value).toEqual({ a: true, b: false, c: true, d: true, e: false, f: true });
  });

  it('integers in Go syntax: leading-0 octal, 0x, 0o, 0b, underscores, signs', () => {
    expect(decodeYaml('a: 0755\nb: 0x1F\nc: 1_000\nd: 0b101\ne: -0x10\nf: 0o17\ng: 08\nh: +1').value).toEqual({
      a: 493,
      b: 31,
      c: 1000,
      d: 5,
      e: -16,
      f: 15,
      g: 8,
      h: 1,
    });
  });

  it('floats, nulls and the empty value', () => {
    expect(decodeYaml('a: 1.5\nb: .5\nc: 1e3\nd: 1.\ne: ~\nf: null\ng:\nh: NULL').value).toEqual({ a: 1.5, b: 0.5, c: 1000, d: 1, e: null, f: null, g: null, h: null });
  });

  it('quoted and block scalars are strings; timestamps and base-60 numbers stay strings', () => {
    expect(decodeYaml('a: \'1\'\nb: "yes"\nc: 2020-01-01\nd: 1:20\ne: |\n  x\nf: 2024-01-01T00:00:00Z').value).toEqual({
      a: '1',
      b: 'yes',
      c: '2020-01-01',
      d: '1:20',
      e: 'x\n',
      f: '2024-01-01T00:00:00Z',
    });
  });

  it('non-string keys become strings; a null key is an error', () => {
    expect(decodeYaml('1: a\n1.5: c\non: d\n0x10: e').value).toEqual({ '1': 'a', '1.5': 'c', true: 'd', '16': 'e' });
    expect(yamlError('~: x')).toBe('unsupported map key of type: %!s(<nil>), key: <nil>, value: "x"');
  });

  it('anchors, aliases and merge keys (merged in document order, as go-yaml v2 does)', () => {
    const src = 'base: &b\n  a: 1\n  b: 2\nafter:\n  <<: *b\n  b: 3\nbefore:\n  b: 3\n  <<: *b\nlist:\n  <<: [*b, {c: 4}]\ncopy: *b\n';
    expect(decodeYaml(src).value).toEqual({
      base: { a: 1, b: 2 },
      after: { a: 1, b: 3 },
      before: { b: 2, a: 1 },
      list: { c: 4, a: 1, b: 2 },
      copy: { a: 1, b: 2 },
    });
  });

  it('a merge of something that is not a map is an error', () => {
    expect(yamlError('a:\n  <<: 1\n')).toBe('yaml: map merge requires map or sequence of maps as the value');
  });

  it('explicit tags', () => {
    expect(decodeYaml('a: !!str 123\nb: !!int "12"\nc: !!float 1\nd: !foo bar\ne: !!bool "yes"').value).toEqual({ a: '123', b: 12, c: 1, d: 'bar', e: true });
    expect(yamlError('x: !!int abc')).toBe('yaml: cannot decode !!str `abc` as a !!int');
    expect(decodeYaml('a: !!binary aGVsbG8=').value).toEqual({ a: 'hello' });
  });

  it('only the first document counts; an empty body is null', () => {
    expect(decodeYaml('a: 1\n---\nb: [\n').value).toEqual({ a: 1 });
    expect(decodeYaml('').value).toBeNull();
    expect(decodeYaml('# just a comment\n').value).toBeNull();
  });

  it('JSON is YAML', () => {
    expect(decodeYaml('{"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "a"}]}}').value).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      spec: { containers: [{ name: 'a' }] },
    });
  });

  it('syntax errors read like go-yaml\'s', () => {
    expect(yamlError('a: b: c')).toBe('yaml: line 1: mapping values are not allowed in this context');
    expect(yamlError('a:\n\t- b\n')).toBe('yaml: line 2: found character that cannot start any token');
    expect(yamlError('a: *nope')).toBe("yaml: unknown anchor 'nope' referenced");
  });

  it('NaN and infinities cannot become JSON', () => {
    expect(yamlError('a: .nan')).toBe('json: unsupported value: NaN');
    expect(yamlError('a: -.inf')).toBe('json: unsupported value: -Inf');
  });

  it('duplicate keys: the last wins, and strict decoding gets go-yaml\'s UnmarshalStrict message', () => {
    const d = decodeYaml('a: 1\nb:\n  c: 1\n  c: 2\na: 3\n');
    expect(d.value).toEqual({ a: 3, b: { c: 2 } });
    expect(d.strictErrors).toEqual(['yaml: unmarshal errors:\n  line 4: key "c" already set in map\n  line 5: key "a" already set in map']);
    expect(decodeYaml('a: 1').strictErrors).toEqual([]);
  });
});

describe('YAML responses: go-yaml v2 output of the JSON', () => {
  it('a ConfigMap: sorted keys, quoted numbers and timestamps, a literal block', () => {
    const cm = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name: 'cm',
        namespace: 'default',
        uid: '6f2b0a4e-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
        resourceVersion: '123',
        creationTimestamp: '2024-01-01T00:00:00Z',
        labels: { app: 'web' },
      },
      data: { key: 'value', enabled: 'true', empty: '', multi: 'line1\nline2\n' },
    };
    expect(encodeYaml(cm)).toBe(
      [
        'apiVersion: v1',
        'data:',
        '  empty: ""',
        '  enabled: "true"',
        '  key: value',
        '  multi: |',
        '    line1',
        '    line2',
        'kind: ConfigMap',
        'metadata:',
        '  creationTimestamp: "2024-01-01T00:00:00Z"',
        '  labels:',
        '    app: web',
        '  name: cm',
        '  namespace: default',
        '  resourceVersion: "123"',
        '  uid: 6f2b0a4e-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
        '',
      ].join('\n'),
    );
  });

  it('sequences under a key are not indented; empty collections are {} and []', () => {
    const pod = { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80, protocol: 'TCP' }] }], args: [], tolerations: [{}] } };
    expect(encodeYaml(pod)).toBe(
      ['spec:', '  args: []', '  containers:', '  - image: nginx:1.25', '    name: nginx', '    ports:', '    - containerPort: 80', '      protocol: TCP', '  tolerations:', '  - {}', ''].join('\n'),
    );
    expect(encodeYaml({ m: [[1, 2], []] })).toBe('m:\n- - 1\n  - 2\n- []\n');
    expect(encodeYaml(['a', { b: 1 }])).toBe('- a\n- b: 1\n');
    expect(encodeYaml({})).toBe('{}\n');
  });

  it('quoting: YAML 1.1 look-alikes double-quoted, indicator-led text single-quoted, tabs and emoji escaped', () => {
    const values = {
      a: 'yes',
      b: 'y',
      c: 'on',
      d: '1',
      e: '1.5',
      f: '0x1F',
      g: '~',
      h: 'null',
      i: '1:20',
      j: '*',
      k: 'a: b',
      l: '- x',
      m: ' lead',
      n: 'trail ',
      o: '#c',
      p: 'a #b',
      q: 'a#b',
      r: '-',
      s: '@x',
      t: 'tab\there',
      u: '😀',
      v: "it's",
      w: '---',
      x: '2020-01-01',
      y: 'true',
      z: 'False',
    };
    expect(encodeYaml(values)).toBe(
      [
        'a: "yes"',
        'b: "y"',
        'c: "on"',
        'd: "1"',
        'e: "1.5"',
        'f: "0x1F"',
        'g: "~"',
        'h: "null"',
        'i: "1:20"',
        "j: '*'",
        "k: 'a: b'",
        "l: '- x'",
        "m: ' lead'",
        // "n" and "y" are YAML 1.1 booleans, so go-yaml quotes them even as keys.
        `"n": 'trail '`,
        "o: '#c'",
        "p: 'a #b'",
        'q: a#b',
        "r: '-'",
        "s: '@x'",
        't: "tab\\there"',
        'u: "\\U0001F600"',
        "v: it's",
        "w: '---'",
        'x: "2020-01-01"',
        '"y": "true"',
        'z: "False"',
        '',
      ].join('\n'),
    );
  });

  it('single quotes inside single-quoted text are doubled', () => {
    expect(encodeYaml({ a: "*it's" })).toBe("a: '*it''s'\n");
  });

  it('keys are quoted by the same rules', () => {
    expect(encodeYaml({ yes: 1, '': 2, 'a: b': 3 })).toBe('"": 2\n\'a: b\': 3\n"yes": 1\n');
  });

  it('key order is go-yaml\'s natural order: numbers by value, non-letters before letters', () => {
    expect(['a10', 'a2', 'b', 'A', '_x', '1', '10', '9'].sort(compareYamlKeys)).toEqual(['_x', '1', '9', '10', 'A', 'a2', 'a10', 'b']);
  });

  it('numbers: integers as JSON has them, other numbers as Go\'s %g', () => {
    expect(encodeYaml({ i: 1, f: 1.5, small: 0.00001, big: 1e21, mil: 1000000, neg: -3, frac: 1234567.5, t: true, n: null })).toBe(
      'big: 1e+21\nf: 1.5\nfrac: 1.2345675e+06\ni: 1\nmil: 1000000\n"n": null\nneg: -3\nsmall: 1e-05\nt: true\n',
    );
  });

  it('long text folds at the first space past column 80, continuing two spaces in', () => {
    const text = `${'a'.repeat(60)} ${'b'.repeat(10)} ${'c'.repeat(10)} ddd`;
    expect(encodeYaml({ description: text })).toBe(`description: ${'a'.repeat(60)} ${'b'.repeat(10)}\n  ${'c'.repeat(10)} ddd\n`);
    const quoted = `${'x'.repeat(80)} y\t`;
    expect(encodeYaml({ k: quoted })).toBe(`k: "${'x'.repeat(80)}\n  y\\t"\n`);
  });

  it('keys are never folded; a key over 128 bytes is written as a complex key', () => {
    const key = 'k'.repeat(130);
    expect(encodeYaml({ [key]: 1 })).toBe(`? ${key}\n: 1\n`);
  });

  it('literal blocks: strip (-), keep (+) and an indentation indicator for a leading space', () => {
    expect(encodeYaml({ k: 'a\nb' })).toBe('k: |-\n  a\n  b\n');
    expect(encodeYaml({ k: 'a\n\n' })).toBe('k: |+\n  a\n\n');
    expect(encodeYaml({ k: ' indented\nnext' })).toBe('k: |2-\n   indented\n  next\n');
    expect(encodeYaml({ k: 'a\n\nb\n', z: 1 })).toBe('k: |\n  a\n\n  b\nz: 1\n');
  });

  it('multi-line text that cannot be a block (a space before a line break) is double-quoted', () => {
    expect(encodeYaml({ k: 'a \nb' })).toBe('k: "a \\nb"\n');
  });
});
