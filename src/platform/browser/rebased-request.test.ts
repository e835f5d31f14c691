// The core sees the fetch event's request with only its URL changed (decision 0331).

import { describe, expect, it } from 'vitest';
import { RebasedRequest } from './rebased-request';

describe('RebasedRequest', () => {
  const original = () =>
    new Request('https://example.test/kubetab/api/v1/namespaces?limit=2', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Extra': 'a' },
      body: '{"kind":"Namespace"}',
    });

  it('has the new URL and the original method, headers and body', async () => {
    const request = new RebasedRequest(original(), 'https://example.test/api/v1/namespaces?limit=2');
    expect(request.url).toBe('https://example.test/api/v1/namespaces?limit=2');
    expect(request.method).toBe('POST');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect([...request.headers.keys()]).toEqual(['content-type', 'x-extra']);
    expect(request.bodyUsed).toBe(false);
    expect(await request.text()).toBe('{"kind":"Namespace"}');
    expect(request.bodyUsed).toBe(true);
  });

  it('a clone keeps the new URL and its own copy of the body', async () => {
    const request = new RebasedRequest(original(), 'https://example.test/api/v1/namespaces');
    const copy = request.clone();
    expect(copy.url).toBe('https://example.test/api/v1/namespaces');
    expect(await copy.json()).toEqual({ kind: 'Namespace' });
    expect(new TextDecoder().decode(await request.arrayBuffer())).toBe('{"kind":"Namespace"}');
  });

  it('has an upper-case method whatever case the page used', () => {
    expect(new RebasedRequest(new Request('https://example.test/kubetab/api', { method: 'patch', body: '{}' }), 'https://example.test/api').method).toBe('PATCH');
  });

  it('follows the original signal', () => {
    const controller = new AbortController();
    const request = new RebasedRequest(new Request('https://example.test/kubetab/api', { signal: controller.signal }), 'https://example.test/api');
    expect(request.signal.aborted).toBe(false);
    controller.abort();
    expect(request.signal.aborted).toBe(true);
    expect(request.body).toBeNull();
  });
});
