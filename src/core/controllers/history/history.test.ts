// Revision naming and history as kube-controller-manager's: FNV hashes,
// SafeEncodeString's alphabet, Go's JSON bytes of revision data, the
// template patch, ordering and equality of revisions, and the number of the
// next revision.

import { describe, expect, it } from 'vitest';
import { goJson } from './go-json';
import { computeTemplateHash, controllerRevisionName, fnv1, fnv1a, hashControllerRevision, safeEncodeString } from './revision-hash';
import { equalRevision, newControllerRevision, nextRevision, sortRevisions } from './revisions';
import { templateFromRevisionData, templatePatch } from './template-patch';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('hashes', () => {
  it('computes FNV-1 and FNV-1a (32 bit) as Go does', () => {
    // Published FNV test vectors.
    expect(fnv1(bytes(''))).toBe(0x811c9dc5);
    expect(fnv1(bytes('a'))).toBe(0x050c5d7e);
    expect(fnv1a(bytes('a'))).toBe(0xe40c292c);
    expect(fnv1a(bytes('foobar'))).toBe(0xbf9cf968);
  });

  it('encodes digits with the vowel-less alphabet', () => {
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  });

  it('names a revision by its data and collision count', () => {
    const raw = '{"spec":{"template":{"$patch":"replace"}}}';
    const h0 = hashControllerRevision(raw, 0);
    expect(h0).toMatch(/^[456789bcdf]+$/);
    expect(hashControllerRevision(raw, 1)).not.toBe(h0);
    expect(hashControllerRevision(raw, 0)).toBe(h0);
    expect(controllerRevisionName('web', h0)).toBe(`web-${h0}`);
    expect(controllerRevisionName('x'.repeat(300), 'h')).toBe(`${'x'.repeat(223)}-h`);
    expect(computeTemplateHash('{}', 0)).not.toBe(computeTemplateHash('{}', 1));
  });
});

describe('revision data', () => {
  it('writes Go bytes: sorted keys, HTML characters escaped', () => {
    expect(goJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x && <y>' } })).toBe('{"a":{"c":"x \\u0026\\u0026 \\u003cy\\u003e","d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('is the patch that replaces the template, with the fields Go always writes', () => {
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } };
    const patch = templatePatch(template);
    expect(patch.raw).toBe(
      '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx","name":"nginx","resources":{}}]}}}}',
    );
    expect(templateFromRevisionData(patch.data)).toEqual({ metadata: { creationTimestamp: null, labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] } });
  });
});

describe('revisions', () => {
  const parent = { metadata: { name: 'web', namespace: 'default', uid: 'u1' } };
  const at = (name: string, revision: number, created = '2024-01-01T00:00:00Z') => ({ metadata: { name, creationTimestamp: created }, revision, data: { n: name } });

  it('carries the template labels, the hash label and the owner', () => {
    const cr = newControllerRevision(parent, 'apps/v1', 'StatefulSet', { app: 'web' }, { spec: {} }, 1, 0);
    const hash = cr.metadata!.labels!['controller.kubernetes.io/hash']!;
    expect(cr.metadata).toMatchObject({ name: `web-${hash}`, namespace: 'default', labels: { app: 'web' } });
    expect(cr.metadata!.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u1', controller: true, blockOwnerDeletion: true }]);
    expect(cr.revision).toBe(1);
  });

  it('sorts by revision, then age, then name, and numbers the next one', () => {
    const sorted = sortRevisions([at('c', 2), at('b', 1, '2024-01-02T00:00:00Z'), at('a', 1, '2024-01-02T00:00:00Z'), at('d', 1)]);
    expect(sorted.map((r) => r.metadata!.name)).toEqual(['d', 'a', 'b', 'c']);
    expect(nextRevision(sorted)).toBe(3);
    expect(nextRevision([])).toBe(1);
  });

  it('compares revisions by their data bytes', () => {
    expect(equalRevision({ data: { a: 1, b: 2 } }, { data: { b: 2, a: 1 } })).toBe(true);
    expect(equalRevision({ data: { a: 1 } }, { data: { a: 2 } })).toBe(false);
    expect(equalRevision(undefined, undefined)).toBe(true);
  });
});
