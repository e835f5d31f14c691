// --cors-allowed-origins as kube-apiserver's WithCORS and its flag check.

import { describe, expect, it } from 'vitest';
import { allowedOrigin, compileCorsOrigins, CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, splitCorsFlag, withCors } from './cors';

const handler = async (request: Request) => new Response(`served ${request.method}`, { status: request.method === 'OPTIONS' ? 405 : 200, headers: { 'content-type': 'text/plain' } });

describe('--cors-allowed-origins', () => {
  it('refuses what kube-apiserver refuses, with its messages', () => {
    expect(() => compileCorsOrigins(['^http://foo.com$', ''])).toThrow(/^empty value in --cors-allowed-origins, help: List of allowed origins/);
    for (const unpinned of ['^foo.com', '//foo.com', 'foo.com$', 'foo.com(:|$)']) {
      expect(() => compileCorsOrigins([unpinned])).toThrow('--cors-allowed-origins has an invalid regular expression: regular expression does not pin to start/end of host in the origin header');
    }
    expect(() => compileCorsOrigins(['^http://(foo.com$'])).toThrow(/invalid regular expression: error parsing regexp/);
    // What kube's test accepts.
    for (const ok of ['^http://foo.com$', '^http://foo.com', '://foo.com$', '//foo.com$', '^http://foo.com(:|$)', '//foo.com(:|$)', '(^foo.com$)']) expect(compileCorsOrigins([ok])).toHaveLength(1);
    expect(splitCorsFlag(undefined)).toEqual([]);
    expect(splitCorsFlag('^a:,//b$')).toEqual(['^a:', '//b$']);
  });

  it('matches the Origin header anywhere, as Go\'s MatchString', () => {
    const origins = compileCorsOrigins(['//localhost(:|$)']);
    expect(allowedOrigin(origins, 'http://localhost:5173')).toBe('http://localhost:5173');
    expect(allowedOrigin(origins, 'http://localhost')).toBe('http://localhost');
    expect(allowedOrigin(origins, 'http://localhost.evil.com')).toBeUndefined();
    expect(allowedOrigin(origins, null)).toBeUndefined();
  });

  it('answers an allowed preflight 204 with the headers; other origins and no origin pass through untouched', async () => {
    const served = withCors(handler, compileCorsOrigins(['^http://app\\.test(:|$)']));
    const preflight = await served(new Request('http://k/api/v1/pods', { method: 'OPTIONS', headers: { origin: 'http://app.test:3000', 'access-control-request-method': 'GET' } }));
    expect(preflight.status).toBe(204);
    expect(Object.fromEntries(preflight.headers)).toMatchObject({
      'access-control-allow-origin': 'http://app.test:3000',
      'access-control-allow-methods': CORS_ALLOWED_METHODS,
      'access-control-allow-headers': CORS_ALLOWED_HEADERS,
      'access-control-expose-headers': 'Date',
      'access-control-allow-credentials': 'true',
      'cache-control': 'no-cache, private',
    });
    expect(CORS_ALLOWED_METHODS).toBe('POST, GET, OPTIONS, PUT, DELETE, PATCH');
    expect(CORS_ALLOWED_HEADERS).toBe('Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since');
    expect(preflight.headers.get('audit-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(preflight.headers.has('vary')).toBe(false);

    const actual = await served(new Request('http://k/api/v1/pods', { headers: { origin: 'http://app.test' } }));
    expect(await actual.text()).toBe('served GET');
    expect(actual.headers.get('access-control-allow-origin')).toBe('http://app.test');
    expect(actual.headers.get('access-control-allow-credentials')).toBe('true');

    const foreign = await served(new Request('http://k/api/v1/pods', { method: 'OPTIONS', headers: { origin: 'http://evil.test' } }));
    expect(foreign.status).toBe(405);
    expect([...foreign.headers.keys()].filter((h) => h.startsWith('access-control'))).toEqual([]);
    const none = await served(new Request('http://k/api/v1/pods'));
    expect(none.headers.has('access-control-allow-origin')).toBe(false);
  });

  it('is off with no expressions: the handler itself', () => {
    expect(withCors(handler, [])).toBe(handler);
  });
});
