// What createApiServer leaves for after the first request (decision 0317)
// must not change any answer: the discovery resource lists wait for the
// storageVersionHash values they show when they are the server's very first
// requests.

import { describe, expect, it } from 'vitest';
import { createApiServer } from '../../server';
import { openStore } from '../../storage/mvcc-store';
import { manualClock } from '../../clock';

interface ResourceEntry {
  readonly name: string;
  readonly storageVersionHash?: string;
}

async function freshServer() {
  const clock = manualClock();
  const store = await openStore({ clock });
  return createApiServer({ store, clock, host: 'browser', controllers: [] });
}

async function resources(server: Awaited<ReturnType<typeof freshServer>>, path: string): Promise<ResourceEntry[]> {
  const response = await server.handle(new Request(`https://kubetab.test${path}`, { headers: { accept: 'application/json' } }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { resources: ResourceEntry[] }).resources;
}

describe('start-up work deferred past the first request', () => {
  it('a core resource list as the first request carries kube-apiserver 1.32 storageVersionHash values', async () => {
    const server = await freshServer();
    try {
      const list = await resources(server, '/api/v1');
      const byName = new Map(list.map((r) => [r.name, r]));
      // The values a 1.32 server publishes: base64 of sha256("<group>/<version>/<Kind>")[:8].
      expect(byName.get('configmaps')?.storageVersionHash).toBe('qFsyl6wFWjQ=');
      expect(byName.get('pods')?.storageVersionHash).toBe('xPOwRZ+Yhw8=');
      // The same list as once the server has settled: nothing was missing from the first answer.
      await server.idle();
      expect(list).toEqual(await resources(server, '/api/v1'));
      // The fifteen stored kinds of the core group (bindings and componentstatuses are not stored).
      expect(list.filter((r) => r.storageVersionHash).length).toBe(15);
    } finally {
      await server.close();
    }
  });

  it('a group version resource list as the first request carries them too', async () => {
    const server = await freshServer();
    try {
      const list = await resources(server, '/apis/apps/v1');
      expect(list.find((r) => r.name === 'deployments')?.storageVersionHash).toBe('8aSe+NMegvE=');
    } finally {
      await server.close();
    }
  });
});
