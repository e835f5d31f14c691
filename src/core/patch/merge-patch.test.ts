// Rules checked: application/merge-patch+json is applied as kube-apiserver
// 1.32 applies it (evanphx/json-patch v4 MergePatch): RFC 7386 for object
// patches, the library's behaviour for the rest.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyMergePatch, MergePatchError } from './merge-patch';

function sharedReference(): string | undefined {
  for (const dir of [fileURLToPath(new URL('../../../../shared/reference', import.meta.url)), '/work/shared/reference']) {
    if (existsSync(dir)) return dir;
  }
  return undefined;
}

interface SuiteRecord {
  comment: string;
  doc: unknown;
  patch: unknown;
  expected: unknown;
}

/** RFC cases where the library (and so the server) answers otherwise. */
const LIBRARY_BEHAVIOUR: Record<number, { why: string; error: string }> = {
  10: { why: 'a null patch is rejected', error: 'Invalid JSON Patch' },
  11: { why: 'a scalar patch is rejected', error: 'Invalid JSON Patch' },
};

const reference = sharedReference();

describe.skipIf(!reference)('the RFC 7386 cases (../shared/reference/merge-patch)', () => {
  const records: SuiteRecord[] = reference ? JSON.parse(readFileSync(`${reference}/merge-patch/merge-patch-tests.json`, 'utf8')) : [];
  records.forEach((record, i) => {
    const library = LIBRARY_BEHAVIOUR[i];
    it(`#${i + 1} ${record.comment}${library ? ` — library: ${library.why}` : ''}`, () => {
      if (library) expect(() => applyMergePatch(record.doc, record.patch)).toThrow(new MergePatchError(library.error));
      else expect(applyMergePatch(record.doc, record.patch)).toEqual(record.expected);
    });
  });
});

if (!reference) {
  it.skip('the RFC 7386 cases: ../shared/reference/merge-patch not found, not run', () => {});
}

describe('library behaviour a client sees', () => {
  it('merges labels, deletes with null, replaces lists wholesale', () => {
    const deployment = { metadata: { labels: { a: '1', b: '2' } }, spec: { replicas: 1, template: { spec: { containers: [{ name: 'x' }, { name: 'y' }] } } } };
    expect(applyMergePatch(deployment, { metadata: { labels: { b: null, c: '3' } }, spec: { replicas: 3, template: { spec: { containers: [{ name: 'z' }] } } } })).toEqual({
      metadata: { labels: { a: '1', c: '3' } },
      spec: { replicas: 3, template: { spec: { containers: [{ name: 'z' }] } } },
    });
    expect(deployment.metadata.labels).toEqual({ a: '1', b: '2' });
  });

  it('drops nulls inside new members, also inside their lists’ objects, but keeps null list items', () => {
    expect(applyMergePatch({}, { a: { b: null, c: [{ d: null, e: 1 }, null] } })).toEqual({ a: { c: [{ e: 1 }, null] } });
  });

  it('keeps nulls in a list that replaces an object member (the library does not prune there)', () => {
    expect(applyMergePatch({ a: { x: 1 } }, { a: [{ d: null }] })).toEqual({ a: [{ d: null }] });
  });

  it('a list patch replaces the document, with nulls pruned from its objects', () => {
    expect(applyMergePatch({ a: 1 }, [{ x: null, y: 1 }, null])).toEqual([{ y: 1 }, null]);
  });

  it('rejects scalar and null patches', () => {
    for (const patch of [null, 'x', 3, true]) expect(() => applyMergePatch({ a: 1 }, patch)).toThrow('Invalid JSON Patch');
  });
});
