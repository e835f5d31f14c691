// CVE-2019-11253: a few hundred bytes of nested YAML aliases must be refused
// with a 400 (go-yaml's "excessive aliasing"), not expanded into gigabytes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

/** `levels` levels of nine aliases each of the level below: 9^levels "lol"s from ~40 bytes a level. */
function aliasBomb(levels: number): string {
  let yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\ndata:\n  a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (let i = 1; i <= levels; i++) yaml += `  a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
  return yaml;
}

describe('YAML alias bombs', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
  });
  afterAll(async () => {
    await ts.close();
  });

  for (const [label, method, path, contentType] of [
    ['create', 'POST', '/api/v1/namespaces/default/configmaps', 'application/yaml'],
    ['create with strict field validation', 'POST', '/api/v1/namespaces/default/configmaps?fieldValidation=Strict', 'application/yaml'],
    ['update', 'PUT', '/api/v1/namespaces/default/configmaps/bomb', 'application/yaml'],
    ['server-side apply', 'PATCH', '/api/v1/namespaces/default/configmaps/bomb?fieldManager=x', 'application/apply-patch+yaml'],
  ] as const) {
    it(`a ${label} of nine levels is refused with 400 and changes nothing`, async () => {
      const res = await ts.request(method, path, aliasBomb(9), { 'Content-Type': contentType });
      expect(res.status).toBe(400);
      expect(res.body.kind).toBe('Status');
      expect(res.body.message).toMatch(/excessive alias|Excessive alias count/);
      expect((await ts.get('/api/v1/namespaces/default/configmaps/bomb')).status).toBe(404);
    });
  }

  it('a document with a few honest aliases still decodes', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: honest\n  labels: &l {app: web}\n  annotations: *l\ndata:\n  k: v\n';
    const res = await ts.request('POST', '/api/v1/namespaces/default/configmaps', yaml, { 'Content-Type': 'application/yaml' });
    expect(res.status).toBe(201);
    expect(res.body.metadata.annotations).toEqual({ app: 'web' });
  });
});
