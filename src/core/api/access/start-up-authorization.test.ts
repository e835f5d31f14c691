// The first requests after a start: the authorizers wait for the stored RBAC
// objects (a user's access is decided by them, never denied for want of
// them), while system:masters is allowed without waiting.
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../clock';
import { createApiServer, type ApiServer } from '../../server';
import { openStore } from '../../storage/mvcc-store';
import { createMemoryPersistence } from '../../storage/memory-persistence';
import type { Persistence } from '../../storage/types';
import { bearer, rbac, RBAC_API, TOKEN_FILE, USERS } from './test-cluster';

const ADMIN = 'start-up-admin-token';
const files: Record<string, string> = { '/etc/kubetab/tokens.csv': `${TOKEN_FILE}\n${ADMIN},admin,admin-uid,system:masters\n` };
const flags = { 'authorization-mode': 'Node,RBAC', 'token-auth-file': '/etc/kubetab/tokens.csv' };

const running: ApiServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

/** The same persistence, its bulk reads slowed down: a start's loads take a while, as from a large IndexedDB. */
function slowReads(persistence: Persistence, ms: number): Persistence {
  const later = <T>(value: Promise<T>) => value.then((v) => new Promise<T>((resolve) => setTimeout(() => resolve(v), ms)));
  return {
    ...persistence,
    open: (revision) => persistence.open(revision),
    getCurrent: (key) => persistence.getCurrent(key),
    loadCurrent: () => later(persistence.loadCurrent()),
    loadHistory: () => later(persistence.loadHistory()),
    ...(persistence.rangeCurrent ? { rangeCurrent: (prefix: string, after?: string) => later(persistence.rangeCurrent!(prefix, after)) } : {}),
    commit: (changes, meta) => persistence.commit(changes, meta),
    compact: (meta) => persistence.compact(meta),
    wipe: (meta) => persistence.wipe(meta),
    close: () => persistence.close(),
  };
}

async function start(persistence: Persistence): Promise<ApiServer> {
  const clock = manualClock();
  const store = await openStore({ persistence, clock });
  const server = await createApiServer({ store, clock, flags, host: 'node', maxWatchSeconds: 60, controllers: [], readFile: async (path) => files[path]! });
  running.push(server);
  return server;
}

function send(server: ApiServer, method: string, path: string, token: string, body?: unknown): Promise<Response> {
  return server.handle(
    new Request(`http://kubetab.test${path}`, {
      method,
      headers: { ...bearer(token), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

describe('authorization at start-up', () => {
  it('a user bound by stored RBAC objects is allowed by the first request after a restart; a user who is not is refused', async () => {
    const persistence = createMemoryPersistence();
    const first = await start(persistence);
    await first.idle();
    expect((await send(first, 'POST', `${RBAC_API}/namespaces/default/roles`, ADMIN, rbac.role('default', 'pod-reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }]))).status).toBe(201);
    expect(
      (await send(first, 'POST', `${RBAC_API}/namespaces/default/rolebindings`, ADMIN, rbac.roleBinding('default', 'alice-reads', { kind: 'Role', name: 'pod-reader' }, [rbac.user('alice')]))).status,
    ).toBe(201);
    await first.close();
    running.splice(0);

    const second = await start(slowReads(persistence, 50));
    // No idle(): these race the loads of a fresh start.
    const [alice, bob, admin] = await Promise.all([
      send(second, 'GET', '/api/v1/namespaces/default/pods', USERS.alice),
      send(second, 'GET', '/api/v1/namespaces/default/pods', USERS.bob),
      send(second, 'GET', '/api/v1/namespaces/default/pods', ADMIN),
    ]);
    expect(alice.status).toBe(200);
    expect(admin.status).toBe(200);
    expect(bob.status).toBe(403);
    expect(((await bob.json()) as { message: string }).message).toBe('pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default"');
  });
});
