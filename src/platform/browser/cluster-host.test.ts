// The browser host's cluster life cycle, with memory storage: the secure
// default a new cluster starts with, configuration changes applied by
// restarting the core (refused when invalid, rolled back when the server
// cannot start), reset, export/import, and the clock moved forward.

import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryPersistence } from '../../core/storage/memory-persistence';
import { openConfiguration, secureConfiguration, type ClusterConfiguration } from './cluster-config';
import { ClusterHost, ReplacedError } from './cluster-host';
import type { HostSettings } from './host-settings';

function memorySettings(): HostSettings & { saved: ClusterConfiguration | undefined; offset: number; stopped: string[] } {
  const s = {
    saved: undefined as ClusterConfiguration | undefined,
    offset: 0,
    stopped: [] as string[],
    configuration: async () => s.saved,
    saveConfiguration: async (c: ClusterConfiguration) => {
      s.saved = structuredClone(c);
    },
    clockOffset: async () => s.offset,
    saveClockOffset: async (o: number) => {
      s.offset = o;
    },
    stoppedNodes: async () => s.stopped,
    saveStoppedNodes: async (names: readonly string[]) => {
      s.stopped = [...names];
    },
  };
  return s;
}

const hosts: ClusterHost[] = [];
function newHost(settings = memorySettings(), persistence = createMemoryPersistence()) {
  const host = new ClusterHost({ persistence: () => persistence, settings, maxWatchSeconds: 60, controllers: [] });
  hosts.push(host);
  return { host, settings, persistence };
}
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.shutdown()));
});

async function call(host: ClusterHost, path: string, init: RequestInit = {}) {
  const response = await host.handle(new Request(`http://kubetab.test${path}`, init));
  const text = await response.text();
  return { status: response.status, json: text.startsWith('{') ? JSON.parse(text) : text };
}
const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

async function untilReady(host: ClusterHost, token?: string) {
  for (let i = 0; i < 400; i++) {
    if ((await call(host, '/api/v1/namespaces/default', token ? bearer(token) : {})).status === 200) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the cluster did not bootstrap');
}

describe('a new browser cluster (rule: secure by default like kubeadm; anonymous only where RBAC lets it)', () => {
  it('starts secure: the administrator token works, anonymous reaches /readyz and /version only', async () => {
    const { host, settings } = newHost();
    const state = await host.configurationState();
    expect(state.open).toBe(false);
    expect(state.administrator?.user).toBe('kubernetes-admin');
    expect(settings.saved?.tokens?.[0]?.token).toBe(state.administrator?.token);
    await untilReady(host, state.administrator!.token);
    expect((await call(host, '/readyz')).status).toBe(200);
    expect((await call(host, '/version')).status).toBe(200);
    const anonymous = await call(host, '/api/v1/namespaces/default/configmaps');
    expect(anonymous.status).toBe(403);
    expect(anonymous.json.message).toBe('configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default"');
    expect((await call(host, '/api/v1/namespaces/default/configmaps', bearer('wrong'))).status).toBe(401);
  });

  it('keeps its administrator across restarts of the worker (same stored document)', async () => {
    const first = newHost();
    const token = (await first.host.configurationState()).administrator!.token;
    await first.host.shutdown();
    const second = newHost(first.settings, first.persistence);
    expect((await second.host.configurationState()).administrator!.token).toBe(token);
  });
});

describe('readiness without polling (issue 16 item 26: the page waits for this instead of /readyz)', () => {
  it('ready() resolves once /readyz answers 200 and the first-start objects exist', async () => {
    const { host } = newHost();
    await host.ready();
    expect(await call(host, '/readyz')).toEqual({ status: 200, json: 'ok' });
    const { administrator } = await host.configurationState();
    expect((await call(host, '/api/v1/namespaces/default', bearer(administrator!.token))).status).toBe(200);
  });

  it('ready() of a host that stepped aside rejects (the page asks again)', async () => {
    const { host } = newHost();
    await host.retire();
    await expect(host.ready()).rejects.toBeInstanceOf(ReplacedError);
  });
});

describe('changing the configuration', () => {
  it('applies a valid document by restarting the core (the open set-up serves requests without credentials)', async () => {
    const { host } = newHost();
    const before = await host.configurationState();
    await untilReady(host, before.administrator!.token);
    const answer = await host.save(openConfiguration(before.document));
    expect(answer).toMatchObject({ valid: true, saved: true, state: { open: true } });
    await untilReady(host);
    expect((await call(host, '/api/v1/namespaces/default/configmaps')).status).toBe(200);
  });

  it('saves nothing when the document is invalid', async () => {
    const { host, settings } = newHost();
    const before = await host.configurationState();
    const bad = { ...before.document, authorization: { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthorizationConfiguration', authorizers: [{ type: 'RBAC' }] } };
    const answer = await host.save(bad);
    expect(answer.saved).toBe(false);
    expect(answer.problems.map((p) => p.message)).toEqual(['authorization.authorizers[0].name: Required value']);
    expect(settings.saved).toEqual(before.document);
  });
});

describe('reset, export and import', () => {
  it('reset wipes the objects and a fresh cluster bootstraps again, same administrator', async () => {
    const { host } = newHost();
    const { administrator } = await host.configurationState();
    await untilReady(host, administrator!.token);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keep-me' } };
    expect((await call(host, '/api/v1/namespaces/default/configmaps', { method: 'POST', body: JSON.stringify(cm), headers: { Authorization: `Bearer ${administrator!.token}`, 'Content-Type': 'application/json' } })).status).toBe(201);
    const after = await host.reset('keep');
    expect(after.administrator?.token).toBe(administrator!.token);
    await untilReady(host, administrator!.token);
    expect((await call(host, '/api/v1/namespaces/default/configmaps/keep-me', bearer(administrator!.token))).status).toBe(404);
  });

  it('an exported cluster imports into another with its objects, resourceVersions and administrator', async () => {
    const a = newHost();
    const { administrator } = await a.host.configurationState();
    await untilReady(a.host, administrator!.token);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'moved' }, data: { x: '1' } };
    const created = await call(a.host, '/api/v1/namespaces/default/configmaps', { method: 'POST', body: JSON.stringify(cm), headers: { Authorization: `Bearer ${administrator!.token}`, 'Content-Type': 'application/json' } });
    const exported = await a.host.exportArchive();
    // The export is the file itself: JSON, which the page downloads as it is.
    expect(exported.file.type).toBe('application/json');
    const archive = JSON.parse(await exported.file.text());
    expect(archive).toMatchObject({ apiVersion: 'kubetab.dev/v1', kind: 'ClusterArchive', revision: exported.revision, exportedAt: exported.exportedAt });
    expect(archive.items).toHaveLength(exported.keys);

    const b = newHost();
    await b.host.configurationState();
    const imported = await b.host.importArchive(exported.file);
    expect(imported.administrator?.token).toBe(administrator!.token);
    const read = await call(b.host, '/api/v1/namespaces/default/configmaps/moved', bearer(administrator!.token));
    expect(read.status).toBe(200);
    expect(read.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    expect(read.json.data).toEqual({ x: '1' });
  });

  // Rule: a bad file is a clear error that changes nothing (objects, configuration, clock, the running core).
  it.each([
    ['a file that is not JSON', new Blob(['kind: ClusterArchive\n']), 'cannot import: the file is not JSON ('],
    ['JSON that is not an archive', new Blob([JSON.stringify({ kind: 'Nope' })]), 'cannot import: not a KubeTab cluster archive'],
    ['no file at all', { kind: 'ClusterArchive' } as unknown as Blob, 'cannot import: the archive must be sent as a file (a Blob)'],
  ])('refuses %s and changes nothing', async (_what, file, message) => {
    const { host, settings } = newHost();
    const { administrator, document } = await host.configurationState();
    await untilReady(host, administrator!.token);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stays' } };
    await call(host, '/api/v1/namespaces/default/configmaps', { method: 'POST', body: JSON.stringify(cm), headers: { Authorization: `Bearer ${administrator!.token}`, 'Content-Type': 'application/json' } });
    await expect(host.importArchive(file)).rejects.toThrow(message);
    expect((await call(host, '/api/v1/namespaces/default/configmaps/stays', bearer(administrator!.token))).status).toBe(200);
    expect(settings.saved).toEqual(document);
    expect(settings.offset).toBe(0);
  });

  it('refuses an archive whose configuration is not valid, and changes nothing (rule: the configuration is validated)', async () => {
    const a = newHost();
    await a.host.configurationState();
    const archive = JSON.parse(await (await a.host.exportArchive()).file.text());
    archive.configuration = { ...archive.configuration, authorization: { authorizers: [{ type: 'RBAC' }] } };
    archive.clockOffsetMs = 3_600_000;
    const b = newHost();
    const before = await b.host.configurationState();
    await expect(b.host.importArchive(new Blob([JSON.stringify(archive)]))).rejects.toThrow("cannot import: the archive's configuration is not valid: ");
    expect(b.settings.saved).toEqual(before.document);
    expect(b.settings.offset).toBe(0);
  });

  it("takes the archive's clock only when it is ahead (rule: the clock never goes back)", async () => {
    const a = newHost();
    await a.host.configurationState();
    await a.host.advanceClock(7_200_000);
    const ahead = await a.host.exportArchive();
    const b = newHost();
    await b.host.configurationState();
    await b.host.importArchive(ahead.file);
    expect(b.settings.offset).toBe(7_200_000);
    const c = newHost();
    await c.host.configurationState();
    await c.host.advanceClock(9_000_000);
    await c.host.importArchive(ahead.file);
    expect(c.settings.offset).toBe(9_000_000);
  });
});

describe('the clock (rule: time comes from the Clock; moving it expires tokens and history)', () => {
  it('moves forward, is kept, and never back', async () => {
    const { host, settings } = newHost();
    const before = await host.clockState();
    const after = await host.advanceClock(3_600_000);
    expect(after.offsetMs).toBe(before.offsetMs + 3_600_000);
    expect(after.now - before.now).toBeGreaterThanOrEqual(3_600_000);
    expect(settings.offset).toBe(after.offsetMs);
    await expect(host.advanceClock(-1)).rejects.toThrow('the clock moves forward by 0 to');
  });

  it('a watch from before the retention window ends with a 410 Gone ERROR event after the clock moved past it', async () => {
    const { host } = newHost();
    const { administrator } = await host.configurationState();
    await untilReady(host, administrator!.token);
    const list = await call(host, '/api/v1/namespaces/default/configmaps', bearer(administrator!.token));
    const rv = list.json.metadata.resourceVersion;
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'later' } };
    await call(host, '/api/v1/namespaces/default/configmaps', { method: 'POST', body: JSON.stringify(cm), headers: { Authorization: `Bearer ${administrator!.token}`, 'Content-Type': 'application/json' } });
    await host.advanceClock(6 * 60_000);
    await call(host, '/api/v1/namespaces/default/configmaps', { method: 'POST', body: JSON.stringify({ ...cm, metadata: { name: 'later-still' } }), headers: { Authorization: `Bearer ${administrator!.token}`, 'Content-Type': 'application/json' } });
    const watch = await call(host, `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`, bearer(administrator!.token));
    // kube-apiserver answers such a watch with 200 and an ERROR event carrying the 410 Status.
    expect(watch.status).toBe(200);
    expect(watch.json).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
  });
});

describe('stepping aside for a newer worker (rule: one writer per database)', () => {
  it('closes the store (open watches end) and refuses to start again', async () => {
    const { host } = newHost();
    const { administrator } = await host.configurationState();
    await untilReady(host, administrator!.token);
    const list = await call(host, '/api/v1/namespaces/default/configmaps', bearer(administrator!.token));
    const watch = await host.handle(new Request(`http://kubetab.test/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${list.json.metadata.resourceVersion}`, bearer(administrator!.token)));
    const body = watch.text();
    await host.retire();
    // The stream ends, so the browser can activate the newer worker.
    await expect(body).resolves.toBeTypeOf('string');
    await expect(host.handle(new Request('http://kubetab.test/readyz'))).rejects.toBeInstanceOf(ReplacedError);
  });
});

describe('starting the core (rule: one writer per database; a cold start waits for its reads together, docs/decisions/0171)', () => {
  it('asks for the store lock while the settings are still being read, and lets it go when they cannot be read', async () => {
    const settings = memorySettings();
    let releaseSettings!: () => void;
    const settingsGate = new Promise<void>((resolve) => (releaseSettings = resolve));
    let failNext = true;
    settings.configuration = async () => {
      await settingsGate;
      if (failNext) {
        failNext = false;
        throw new Error('settings database unavailable');
      }
      return settings.saved;
    };
    let lockRequested = false;
    let held = false;
    const persistence = createMemoryPersistence();
    const host = new ClusterHost({
      persistence: () => persistence,
      settings,
      maxWatchSeconds: 60,
      controllers: [],
      acquireStoreLock: async () => {
        lockRequested = true;
        if (held) throw new Error('the lock is held twice');
        held = true;
        return () => (held = false);
      },
    });
    hosts.push(host);
    const first = host.server();
    await new Promise((r) => setTimeout(r, 10));
    expect(lockRequested).toBe(true);
    releaseSettings();
    await expect(first).rejects.toThrow('settings database unavailable');
    expect(held).toBe(false);
    // The next call starts it again, the lock free to be taken.
    await expect(host.server()).resolves.toBeDefined();
    expect(held).toBe(true);
  });
});
