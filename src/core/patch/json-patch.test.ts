// Rules checked: application/json-patch+json is applied as kube-apiserver 1.32
// applies it (gopkg.in/evanphx/json-patch.v4): the public RFC 6902 suite where
// the library agrees with it, the library's behaviour where it does not, and
// the library's error texts.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseGoJson, unwrapRaw } from './go-json';
import { applyJsonPatchOperations, JsonPatchApplyError } from './json-patch';

/** ../shared/reference next to the project root (absent outside the workspace). */
function sharedReference(): string | undefined {
  for (const dir of [fileURLToPath(new URL('../../../../shared/reference', import.meta.url)), '/work/shared/reference']) {
    if (existsSync(dir)) return dir;
  }
  return undefined;
}

/** Applies a patch given as JSON text, as the server reads it. */
function apply(doc: unknown, patch: string): unknown {
  return unwrapRaw(applyJsonPatchOperations(doc, parseGoJson(patch, { keepRaw: true }) as unknown[]));
}

function failure(doc: unknown, patch: string): string {
  try {
    apply(doc, patch);
  } catch (e) {
    if (e instanceof JsonPatchApplyError) return e.message;
    throw e;
  }
  throw new Error('patch applied');
}

interface SuiteRecord {
  comment?: string;
  doc?: unknown;
  patch?: unknown[];
  expected?: unknown;
  error?: string;
  disabled?: boolean;
}

/**
 * Records where evanphx/json-patch v4 (and so a real 1.32 server) departs from
 * the suite, keyed by file and position, with what the server does instead.
 */
const LIBRARY_BEHAVIOUR: Record<string, { why: string; result: { expected: unknown } | { error: string } }> = {
  'tests.json#11': { why: 'add with path "" is not supported', result: { error: 'add operation does not apply: doc is missing path: "": missing value' } },
  'tests.json#12': { why: 'add with path "" is not supported', result: { error: 'add operation does not apply: doc is missing path: "": missing value' } },
  'tests.json#19': { why: 'negative indices count from the end (SupportNegativeIndices)', result: { expected: { bar: [1, 2, '5'] } } },
  'tests.json#63': { why: 'add with path "" is not supported', result: { error: 'add operation does not apply: doc is missing path: "": missing value' } },
  'tests.json#77': { why: 'a missing value is null', result: { expected: [1, null] } },
  'tests.json#78': { why: 'a missing value is null', result: { expected: [null] } },
  'tests.json#79': { why: 'testing null without a value succeeds', result: { expected: [null] } },
  'tests.json#82': { why: 'copying a missing member copies null', result: { expected: { foo: null } } },
  'tests.json#87': { why: 'indices are read with strconv.Atoi ("00" is 0)', result: { expected: ['foo', 'bar'] } },
  'tests.json#88': { why: 'indices are read with strconv.Atoi ("01" is 1)', result: { expected: ['foo', 'bar'] } },
};

const reference = sharedReference();

describe.skipIf(!reference)('the RFC 6902 test suite (../shared/reference/json-patch-tests)', () => {
  for (const file of ['tests.json', 'spec_tests.json']) {
    const records: SuiteRecord[] = reference ? JSON.parse(readFileSync(`${reference}/json-patch-tests/${file}`, 'utf8')) : [];
    records.forEach((record, i) => {
      if (!record.patch || record.disabled) return;
      const key = `${file}#${i}`;
      const library = LIBRARY_BEHAVIOUR[key];
      const want = library ? library.result : 'error' in record ? { error: record.error! } : { expected: record.expected };
      it(`${key} ${record.comment ?? record.error ?? ''}${library ? ` — library: ${library.why}` : ''}`, () => {
        const patch = JSON.stringify(record.patch);
        if ('error' in want) {
          const message = failure(record.doc, patch);
          if (library) expect(message).toBe(want.error);
        } else {
          expect(apply(record.doc, patch)).toEqual(want.expected);
        }
      });
    });
  }
});

if (!reference) {
  it.skip('the RFC 6902 test suite: ../shared/reference/json-patch-tests not found, not run', () => {});
}

describe('library behaviour a client sees', () => {
  const pod = { metadata: { name: 'p', labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }] } };

  it('adds, replaces and removes through nested paths', () => {
    const out = apply(
      pod,
      '[{"op":"add","path":"/metadata/labels/tier","value":"fe"},{"op":"replace","path":"/spec/containers/0/image","value":"a:2"},{"op":"remove","path":"/spec/containers/1"}]',
    );
    expect(out).toEqual({ metadata: { name: 'p', labels: { app: 'web', tier: 'fe' } }, spec: { containers: [{ name: 'a', image: 'a:2' }] } });
    // The input document is not modified.
    expect(pod.spec.containers).toHaveLength(2);
  });

  it('decodes ~1 and ~0 in keys (label keys with "/")', () => {
    expect(apply({ metadata: { labels: {} } }, '[{"op":"add","path":"/metadata/labels/app.kubernetes.io~1name","value":"x"}]')).toEqual({
      metadata: { labels: { 'app.kubernetes.io/name': 'x' } },
    });
  });

  it('a path without a leading "/" but with a "/" addresses the root', () => {
    expect(apply({ a: 1 }, '[{"op":"add","path":"x/b","value":2}]')).toEqual({ a: 1, b: 2 });
  });

  it('replace of a missing object member adds it; replace of "" swaps the document', () => {
    expect(apply({ a: 1 }, '[{"op":"replace","path":"/b","value":2}]')).toEqual({ a: 1, b: 2 });
    expect(apply({ a: 1 }, '[{"op":"replace","path":"","value":{"z":1}}]')).toEqual({ z: 1 });
  });

  it('"+1" and "-1" are indices; "-" appends', () => {
    expect(apply(['x', 'y'], '[{"op":"add","path":"/+1","value":"m"}]')).toEqual(['x', 'm', 'y']);
    expect(apply(['x', 'y'], '[{"op":"remove","path":"/-1"}]')).toEqual(['x']);
    expect(apply(['x', 'y'], '[{"op":"replace","path":"/-2","value":"w"}]')).toEqual(['w', 'y']);
    expect(apply(['x'], '[{"op":"add","path":"/-","value":"z"}]')).toEqual(['x', 'z']);
  });

  it('test compares scalars by their JSON text', () => {
    expect(apply({ n: 1 }, '[{"op":"test","path":"/n","value":1}]')).toEqual({ n: 1 });
    expect(failure({ n: 1 }, '[{"op":"test","path":"/n","value":1.0}]')).toBe('testing value /n failed: test failed');
    expect(failure({ s: 'a' }, '[{"op":"test","path":"/s","value":"\\u0061"}]')).toBe('testing value /s failed: test failed');
    // The server encodes the document HTML-safe, so "<" only matches as \u003c.
    expect(failure({ s: 'a<b' }, '[{"op":"test","path":"/s","value":"a<b"}]')).toBe('testing value /s failed: test failed');
    expect(apply({ s: 'a<b' }, '[{"op":"test","path":"/s","value":"a\\u003cb"}]')).toEqual({ s: 'a<b' });
    // Objects compare member by member, in any order.
    expect(apply({ o: { a: 1, b: [1, 'x'] } }, '[{"op":"test","path":"/o","value":{"b":[1,"x"],"a":1}}]')).toEqual({ o: { a: 1, b: [1, 'x'] } });
    expect(failure({ o: { a: 1 } }, '[{"op":"test","path":"/o","value":null}]')).toBe('testing value /o failed: test failed');
  });

  it('test of a missing member passes against null', () => {
    expect(apply({}, '[{"op":"test","path":"/missing","value":null}]')).toEqual({});
    expect(failure({}, '[{"op":"test","path":"/missing","value":"x"}]')).toBe('testing value /missing failed: test failed');
  });

  it('a value added by the patch keeps its text for later tests', () => {
    expect(failure({}, '[{"op":"add","path":"/n","value":1.0},{"op":"test","path":"/n","value":1}]')).toBe('testing value /n failed: test failed');
    expect(apply({}, '[{"op":"add","path":"/n","value":1.0},{"op":"test","path":"/n","value":1.0}]')).toEqual({ n: 1 });
  });

  it('copy is deep and counts toward the copy limit', () => {
    const out = apply({ a: { b: [1] } }, '[{"op":"copy","from":"/a","path":"/c"},{"op":"add","path":"/c/b/-","value":2}]');
    expect(out).toEqual({ a: { b: [1] }, c: { b: [1, 2] } });
    const big = { s: 'x'.repeat(100) };
    expect(() =>
      applyJsonPatchOperations(big, parseGoJson('[{"op":"copy","from":"/s","path":"/t"},{"op":"copy","from":"/s","path":"/u"}]', { keepRaw: true }) as unknown[], {
        accumulatedCopySizeLimit: 150,
      }),
    ).toThrow('Unable to complete the copy, the accumulated size increase of copy is 204, exceeding the limit 150');
  });

  it.each([
    ['[{"op":"add","path":"/a/b","value":1}]', 'add operation does not apply: doc is missing path: "/a/b": missing value'],
    ['[{"op":"add","value":1}]', 'add operation failed to decode path: missing value'],
    ['[{"op":"add","path":"/l/9","value":1}]', "error in add for path: '/l/9': Unable to access invalid index: 9: invalid index referenced"],
    ['[{"op":"add","path":"/l/x","value":1}]', "error in add for path: '/l/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax"],
    ['[{"op":"remove","path":"/nope"}]', "error in remove for path: '/nope': Unable to remove nonexistent key: nope: missing value"],
    ['[{"op":"remove","path":"/l/5"}]', "error in remove for path: '/l/5': Unable to access invalid index: 5: invalid index referenced"],
    ['[{"op":"remove","path":"/l/1e0"}]', "error in remove for path: '/l/1e0': strconv.Atoi: parsing \"1e0\": invalid syntax"],
    ['[{"op":"remove","path":"/l/99999999999999999999"}]', "error in remove for path: '/l/99999999999999999999': strconv.Atoi: parsing \"99999999999999999999\": value out of range"],
    ['[{"op":"replace","path":"/x/y","value":1}]', 'replace operation does not apply: doc is missing path: /x/y: missing value'],
    ['[{"op":"replace","path":"/l/3","value":1}]', 'replace operation does not apply: doc is missing key: /l/3: missing value'],
    ['[{"op":"replace","path":5,"value":1}]', 'replace operation failed to decode path: json: cannot unmarshal number into Go value of type string'],
    ['[{"op":"replace","path":"","value":"x"}]', 'replace operation value must be object or array: %!w(<nil>)'],
    ['[{"op":"move","from":"/nope","path":"/b"}]', "error in move for path: 'nope': Unable to remove nonexistent key: nope: missing value"],
    ['[{"op":"move","path":"/b"}]', 'move operation failed to decode from: operation, missing from field: missing value'],
    ['[{"op":"move","from":"/a","path":"/x/y"}]', 'move operation does not apply: doc is missing destination path: /x/y: missing value'],
    ['[{"op":"copy","from":"/x/y","path":"/b"}]', 'copy operation does not apply: doc is missing from path: /x/y: missing value'],
    ['[{"op":"copy","from":"/a","path":"/l/7"}]', 'error while adding value during copy: Unable to access invalid index: 7: invalid index referenced'],
    ['[{"op":"test","path":"/x/y","value":1}]', 'test operation does not apply: is missing path: /x/y: missing value'],
    ['[{"op":"test","path":"/a"}]', 'testing value /a failed: test failed'],
    ['[{"op":"spam","path":"/a"}]', 'Unexpected kind: spam'],
    ['[{"path":"/a"}]', 'Unexpected kind: unknown'],
    ['[{"op":1,"path":"/a"}]', 'Unexpected kind: unknown'],
    ['[null]', 'Unexpected kind: unknown'],
  ])('%s fails with the library text', (patch, message) => {
    expect(failure({ a: 1, l: [1, 2] }, patch)).toBe(message);
  });

  it('stops at the first failing operation', () => {
    expect(failure({ a: 1 }, '[{"op":"add","path":"/b","value":2},{"op":"test","path":"/a","value":2},{"op":"add","path":"/c","value":3}]')).toBe(
      'testing value /a failed: test failed',
    );
  });
});
