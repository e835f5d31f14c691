// The last-applied annotation is written by the unstructured JSON encoder
// (encoding/json): sorted keys, HTML characters escaped, \b and \f as short
// escapes (Go 1.22+), a trailing newline.

import { describe, expect, it } from 'vitest';
import { buildLastApplied } from './last-applied';

describe('buildLastApplied', () => {
  it("encodes as encoding/json does, not as json-iterator's managedFields writer", () => {
    const text = buildLastApplied({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      data: { z: 'a\bb\fc', a: '<&>' },
    });
    expect(text).toBe('{"apiVersion":"v1","data":{"a":"\\u003c\\u0026\\u003e","z":"a\\bb\\fc"},"kind":"ConfigMap","metadata":{"name":"c"}}\n');
  });
});
