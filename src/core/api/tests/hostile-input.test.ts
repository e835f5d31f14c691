// Inputs that once made the server answer 500 or run out of memory: each must
// get a 400 (or succeed) with a Status, and leave the store as it was.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

const CM = '/api/v1/namespaces/default/configmaps';
const nested = (open: string, close: string, inner: string, levels: number) => open.repeat(levels) + inner + close.repeat(levels);

describe('hostile input', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
  });
  afterAll(async () => {
    await ts.close();
  });

  it('ConfigMap keys named like JavaScript built-ins are ordinary keys', async () => {
    const body = `{"metadata":{"name":"builtins"},"data":${JSON.stringify({ toString: 'a', valueOf: 'b', constructor: 'c', hasOwnProperty: 'd' }).slice(0, -1)},"__proto__":"e"}}`;
    const res = await ts.request('POST', CM, body, { 'Content-Type': 'application/json' });
    expect(res.status).toBe(201);
    const stored = await ts.get(`${CM}/builtins`);
    expect(stored.text).toContain('"__proto__":"e"');
    const data = JSON.parse(stored.text).data as Record<string, unknown>;
    expect(Object.keys(data).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf']);
    expect(data.constructor).toBe('c');
    // …and stay through a merge patch, a strategic merge patch and an apply that touch other keys.
    for (const [body, contentType] of [
      ['{"data":{"m":"1"}}', 'application/merge-patch+json'],
      ['{"data":{"s":"1"}}', 'application/strategic-merge-patch+json'],
    ] as const) {
      expect((await ts.request('PATCH', `${CM}/builtins`, body, { 'Content-Type': contentType })).status).toBe(200);
    }
    const applied = await ts.request('PATCH', `${CM}/builtins?fieldManager=x`, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"builtins"},"data":{"x":"1"}}', {
      'Content-Type': 'application/apply-patch+yaml',
    });
    expect(applied.status).toBe(200);
    const after = JSON.parse((await ts.get(`${CM}/builtins`)).text).data as Record<string, unknown>;
    expect(Object.keys(after).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'm', 's', 'toString', 'valueOf', 'x']);
  });

  it('an unknown field named with characters above U+00FF is warned about, in UTF-8', async () => {
    const res = await ts.post(`${CM}?fieldValidation=Warn`, { metadata: { name: 'unicode' }, data: { a: 'b' }, 'bogusŁ': 1 });
    expect(res.status).toBe(201);
    // The header carries the UTF-8 bytes of Go's quoted text, one byte per character.
    const warning = res.headers.get('warning')!;
    const bytes = Uint8Array.from(warning, (c) => c.charCodeAt(0));
    expect(new TextDecoder().decode(bytes)).toBe('299 - "unknown field \\"bogusŁ\\""');
  });

  it('JSON nested 5,000 deep is a 400, not a stack overflow', async () => {
    const res = await ts.request('POST', CM, `{"metadata":{"name":"deep"},"data":${nested('[', ']', '', 5000)}}`, { 'Content-Type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('exceeded max depth');
    expect((await ts.get(`${CM}/deep`)).status).toBe(404);
  });

  it('YAML nested 5,000 deep is a 400', async () => {
    const res = await ts.request('POST', CM, `metadata: {name: deep}\ndata: ${nested('[', ']', '', 5000)}\n`, { 'Content-Type': 'application/yaml' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('exceeded max depth');
  });

  it('patches nested 5,000 deep are 400s, merge and apply alike', async () => {
    await ts.post(CM, { metadata: { name: 'target' } });
    const merge = await ts.request('PATCH', `${CM}/target`, `{"data":${nested('{"a":', '}', '1', 5000)}}`, { 'Content-Type': 'application/merge-patch+json' });
    expect(merge.status).toBe(400);
    expect(merge.body.message).toContain('exceeded max depth');
    const apply = await ts.request(
      'PATCH',
      `${CM}/target?fieldManager=x`,
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"target"},"data":${nested('{"a":', '}', '1', 5000)}}`,
      { 'Content-Type': 'application/apply-patch+yaml' },
    );
    expect(apply.status).toBe(400);
    expect(apply.body.message).toContain('exceeded max depth');
  });

  it('a malformed percent-escape in the path is a 400', async () => {
    const res = await ts.get(`${CM}/%zz`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'invalid URL escape "%zz"' });
  });
});
