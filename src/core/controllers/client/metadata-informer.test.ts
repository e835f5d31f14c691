// A metadata informer, as client-go's metadata informers: the server reduces each listed and
// watched object to PartialObjectMetadata, so the informer neither receives nor keeps the rest.

import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { Activity } from '../runtime/activity';
import { ApiClient } from './api-client';
import { Informer } from './informer';
import type { KubeObject } from '../../kinds/types';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
let ts: TestServer | undefined;
let informer: Informer | undefined;

afterEach(async () => {
  await informer?.stop();
  await ts?.close();
});

async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe('metadata informer', () => {
  it('lists and watches PartialObjectMetadata and keeps no object bodies', async () => {
    ts = await startTestServer();
    await ts.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'meta' } });
    expect((await ts.post('/api/v1/namespaces/meta/configmaps', { metadata: { name: 'listed', labels: { a: 'b' } }, data: { big: 'x'.repeat(1000) } })).status).toBe(201);
    const answered: { accept: string; contentType: string }[] = [];
    const client = new ApiClient({
      send: async (request) => {
        const response = await ts!.server.handle(request);
        answered.push({ accept: request.headers.get('accept') ?? '', contentType: response.headers.get('content-type') ?? '' });
        return response;
      },
    });
    informer = new Informer(client, CONFIGMAPS, new Activity(), { metadataOnly: true, namespace: 'meta' });
    const added: KubeObject[] = [];
    informer.addHandler({ onAdd: (o) => added.push(o) });
    informer.start();
    await informer.synced;
    expect((await ts.post('/api/v1/namespaces/meta/configmaps', { metadata: { name: 'watched', annotations: { n: 'v' } }, data: { big: 'y'.repeat(1000) } })).status).toBe(201);
    await eventually(() => added.length === 2);

    expect(answered.map((a) => a.accept)).toEqual([
      'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
      'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
    ]);
    // A JSON watch's Content-Type names no transform, as kube's watch handler writes it.
    expect(answered.map((a) => a.contentType)).toEqual(['application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', 'application/json']);
    const [listed, watched] = added;
    expect(listed).toMatchObject({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: { name: 'listed', namespace: 'meta', labels: { a: 'b' } } });
    expect(watched).toMatchObject({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: { name: 'watched', annotations: { n: 'v' } } });
    for (const o of added) {
      expect(Object.keys(o).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
      expect(o.metadata?.managedFields).toBeUndefined();
      expect(o.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(informer.get('meta', 'watched')?.metadata?.resourceVersion).toBe(watched!.metadata?.resourceVersion);
  });
});
