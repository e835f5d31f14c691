// A stored record that cannot be decoded: reads answer 500 StorageReadError
// (the reason string behind Go's StatusReasonStoreReadError); a normal delete
// fails the same way; with the AllowUnsafeMalformedObjectDeletion gate on,
// ignoreStoreReadErrorWithClusterBreakingPotential removes it.

import { describe, expect, it } from 'vitest';
import { manualClock } from '../../clock';
import { createApiServer } from '../../server';
import { openStore } from '../../storage/mvcc-store';

const KEY = '/registry/core/configmaps/default/broken';
const PATH = '/api/v1/namespaces/default/configmaps/broken';

async function serverWithCorruptRecord(flags: Record<string, string> = {}) {
  const clock = manualClock();
  const store = await openStore({ clock });
  const server = await createApiServer({ store, clock, flags, host: 'node', controllers: [] });
  await server.idle();
  await store.create(KEY, () => '{"kind":"ConfigMap",'); // truncated JSON, as after a bad write by another tool
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await server.handle(
      new Request(`http://kubetab.test${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  return { server, store, send };
}

describe('corrupt stored objects', () => {
  it('get and list answer 500 StorageReadError naming the key', async () => {
    const { send, server } = await serverWithCorruptRecord();
    const got = await send('GET', PATH);
    expect(got.status).toBe(500);
    expect(got.body.reason).toBe('StorageReadError');
    expect(got.body.message).toMatch(/^StorageError: corrupt object, Code: 7, Key: \/registry\/core\/configmaps\/default\/broken, ResourceVersion: 0, AdditionalErrorMsg: /);
    expect(got.body.details.causes[0]).toMatchObject({ reason: 'UnexpectedServerResponse', field: KEY });
    const list = await send('GET', '/api/v1/namespaces/default/configmaps');
    expect(list.status).toBe(500);
    expect(list.body.reason).toBe('StorageReadError');
    await server.close();
  });

  it('a normal delete fails, and the unsafe option is dropped while its feature gate is off', async () => {
    const { send, store, server } = await serverWithCorruptRecord();
    expect((await send('DELETE', PATH)).status).toBe(500);
    const unsafe = await send('DELETE', PATH, { kind: 'DeleteOptions', apiVersion: 'v1', ignoreStoreReadErrorWithClusterBreakingPotential: true });
    expect(unsafe.status).toBe(500);
    expect(await store.get(KEY)).toBeDefined();
    await server.close();
  });

  it('with AllowUnsafeMalformedObjectDeletion=true the unsafe delete removes it; combined options are refused', async () => {
    const { send, store, server } = await serverWithCorruptRecord({ 'feature-gates': 'AllowUnsafeMalformedObjectDeletion=true' });
    const combined = await send('DELETE', `${PATH}?dryRun=All`, { ignoreStoreReadErrorWithClusterBreakingPotential: true });
    expect(combined.status).toBe(422);
    expect(combined.body.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .dryRun',
    );
    const removed = await send('DELETE', PATH, { ignoreStoreReadErrorWithClusterBreakingPotential: true });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'broken', kind: 'configmaps' } });
    expect(await store.get(KEY)).toBeUndefined();
    expect((await send('GET', PATH)).status).toBe(404);
    await server.close();
  });
});
