// indentJson lays compact JSON out exactly as the pretty encoder does
// (rule: a pretty list streamed from stored texts is byte for byte the list encoded at once).

import { describe, expect, it } from 'vitest';
import { encodeJson } from './json-encode';
import { indentJson } from './json-indent';

const samples: unknown[] = [
  { kind: 'ConfigMap', metadata: { name: 'a', labels: { z: '1', a: '2' }, annotations: {} }, data: { 'k{,}': 'v:"[x]"', esc: 'a\\"b<>&\u2028', empty: '' } },
  { spec: { containers: [{ name: 'c', args: [], ports: [{ containerPort: 80 }] }], list: [[], [1, [2, {}]], {}] } },
  { n: -1.5e-7, t: true, f: false, z: null, s: '\u00e9\ud83d\ude00', nested: { deeper: { deepest: [{ a: [] }] } } },
  [],
  {},
  'text',
  42,
];

describe('indentJson', () => {
  it('matches the pretty encoder for objects, arrays, empties, escapes and punctuation inside strings', () => {
    for (const value of samples) {
      const compact = encodeJson(value, { pretty: false }).trimEnd();
      expect(indentJson(compact)).toBe(encodeJson(value, { pretty: true }));
    }
  });

  it('keeps integer-like map keys in the order the compact text has them (Go order, which a JS object cannot hold)', () => {
    expect(indentJson('{"data":{"10":"x","9":"y"}}')).toBe('{\n  "data": {\n    "10": "x",\n    "9": "y"\n  }\n}');
  });

  it('starts every line after the first with the prefix (a value nested in a document)', () => {
    expect(indentJson('{"a":[1,{"b":{}}]}', '    ')).toBe('{\n      "a": [\n        1,\n        {\n          "b": {}\n        }\n      ]\n    }');
  });
});
