// Stored text of built-in kinds omits kind and apiVersion (list items carry
// none); every reader that names the kind gets them back, whoever decoded
// the record first.

import { describe, expect, it } from 'vitest';
import { DecodeCache, encodeForStorage, spliceTypeMeta } from '../object-codec';

const kv = (value: string) => ({ key: '/registry/core/pods/default/x', value, createRevision: 5, modRevision: 5, version: 1 });

describe('stored text without type meta', () => {
  it('is written without kind and apiVersion, with the write\'s revision', () => {
    const text = encodeForStorage({ kind: 'Pod', apiVersion: 'v1', metadata: { name: 'x' }, spec: {} }, false)(5);
    expect(text).toBe('{"metadata":{"name":"x","resourceVersion":"5"},"spec":{}}');
    expect(spliceTypeMeta(text, 'v1', 'Pod')).toBe('{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x","resourceVersion":"5"},"spec":{}}');
  });

  it('gets its kind back even when a reader without it decoded the record first', () => {
    const cache = new DecodeCache();
    const text = '{"metadata":{"name":"x","resourceVersion":"5"}}';
    expect(cache.decode(kv(text)).kind).toBeUndefined();
    const full = cache.decode(kv(text), { apiVersion: 'v1', kind: 'Pod' });
    expect(full.kind).toBe('Pod');
    expect(full.apiVersion).toBe('v1');
    expect(Object.keys(full).slice(0, 2)).toEqual(['kind', 'apiVersion']);
    expect(cache.decode(kv(text)).kind).toBe('Pod');
  });
});
