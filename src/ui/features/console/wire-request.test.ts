import { describe, expect, it } from 'vitest';
import type { ConsoleRequest } from '../../lib/store/console-slice';
import { automaticContentType, effectiveContentType, effectiveQuery, isWatch, wireHeaders } from './wire-request';

const base: ConsoleRequest = { method: 'GET', path: '/api/v1/pods', query: {}, headers: [{ name: 'Accept', value: 'application/json' }], body: '' };

describe("the console's request on the wire (issue 16 item 25)", () => {
  it('counts query parameters typed into the path as the fields do; a set field wins', () => {
    expect(effectiveQuery({ path: '/api/v1/pods?watch=true&limit=5', query: { limit: '10', labelSelector: '' } })).toEqual({ watch: 'true', limit: '10' });
  });

  it('a watch typed into the path is a watch, read as kube reads booleans', () => {
    expect(isWatch({ ...base, path: '/api/v1/pods?watch=true' })).toBe(true);
    expect(isWatch({ ...base, path: '/api/v1/pods?watch=1' })).toBe(true);
    expect(isWatch({ ...base, path: '/api/v1/pods?watch=True' })).toBe(true);
    expect(isWatch({ ...base, path: '/api/v1/pods?watch=false' })).toBe(false);
    expect(isWatch({ ...base, path: '/api/v1/pods?watch=0' })).toBe(false);
    expect(isWatch({ ...base, path: '/api/v1/pods', query: { watch: 'true' } })).toBe(true);
    expect(isWatch({ ...base, method: 'DELETE', path: '/api/v1/pods?watch=true' })).toBe(false);
  });

  it('sends the Content-Type a body needs when none is chosen', () => {
    expect(automaticContentType('POST', '{"kind":"ConfigMap"}')).toBe('application/json');
    expect(automaticContentType('PUT', 'kind: ConfigMap\n')).toBe('application/yaml');
    expect(automaticContentType('PATCH', '{"data":{}}')).toBe('application/merge-patch+json');
    expect(automaticContentType('PATCH', '[{"op":"remove","path":"/data"}]')).toBe('application/json-patch+json');
    expect(automaticContentType('PATCH', 'kind: ConfigMap\n')).toBe('application/apply-patch+yaml');
    expect(wireHeaders({ ...base, method: 'POST', body: '{}' })).toEqual([
      ['Accept', 'application/json'],
      ['Content-Type', 'application/json'],
    ]);
  });

  it('keeps a chosen Content-Type and sends none without a body', () => {
    const chosen = { ...base, method: 'PATCH', body: '{}', headers: [{ name: 'content-type', value: 'application/strategic-merge-patch+json' }] };
    expect(effectiveContentType(chosen)).toBe('application/strategic-merge-patch+json');
    expect(wireHeaders(chosen)).toEqual([['content-type', 'application/strategic-merge-patch+json']]);
    expect(wireHeaders({ ...base, body: '{}' })).toEqual([['Accept', 'application/json']]);
  });
});
