// A create that names a resourceVersion is refused by etcd3's storage, as
// kube-apiserver 1.32 refuses it: 500, no reason, and nothing stored.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

const CM = '/api/v1/namespaces/default/configmaps';

describe('create with metadata.resourceVersion', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
  });
  afterAll(async () => {
    await ts.close();
  });

  it('is refused with 500 "resourceVersion should not be set on objects to be created"', async () => {
    const res = await ts.post(CM, { metadata: { name: 'exported', resourceVersion: '12345' }, data: { a: 'b' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'resourceVersion should not be set on objects to be created', code: 500 });
    expect((await ts.get(`${CM}/exported`)).status).toBe(404);
  });

  it('passes validation errors first (the storage check comes last)', async () => {
    const res = await ts.post(CM, { metadata: { name: 'Bad_Name', resourceVersion: '1' } });
    expect(res.status).toBe(422);
  });

  it('accepts "0" and versions that are not numbers, as kube does', async () => {
    expect((await ts.post(CM, { metadata: { name: 'zero', resourceVersion: '0' } })).status).toBe(201);
    const odd = await ts.post(CM, { metadata: { name: 'odd', resourceVersion: '-1' } });
    expect(odd.status).toBe(201);
    expect(odd.body.metadata.resourceVersion).not.toBe('-1');
  });

  it('is not checked on a dry run (kube\'s dry-run storage never reaches etcd)', async () => {
    expect((await ts.post(`${CM}?dryRun=All`, { metadata: { name: 'dry', resourceVersion: '7' } })).status).toBe(201);
  });
});
