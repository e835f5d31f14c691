// /readyz and /livez follow etcd's health as kube-apiserver's do: with etcd
// stopped the `etcd` check fails (`[-]etcd failed: reason withheld`), and
// requests answer kube's request timeout (504); when etcd returns the checks
// pass again and the server serves again.
// Runs a real etcd (skipped with a message when it is not installed).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../core/clock';
import { builtinResources } from '../../../core/kinds/builtin';
import { createApiServer } from '../../../core/server';
import { EtcdClient } from './etcd-client';
import { openEtcdStore } from './etcd-store';
import { KubeKeyLayout } from './kube-keys';
import { ETCD_MISSING, findEtcd, startEtcd, type RunningEtcd } from './testing/etcd-harness';

const available = findEtcd() !== undefined;
if (!available) {
  describe('etcd health checks', () => {
    it.skip(ETCD_MISSING, () => {});
  });
}

describe.skipIf(!available)('etcd health checks', () => {
  let etcd: RunningEtcd;
  beforeAll(async () => {
    etcd = await startEtcd();
  }, 30_000);
  afterAll(async () => {
    await etcd?.stop();
  });

  it('reports the etcd check failing while etcd is down and passing when it returns', async () => {
    const clock = manualClock();
    const store = await openEtcdStore({ client: new EtcdClient({ endpoints: [etcd.url], callTimeoutMs: 2000 }), layout: new KubeKeyLayout('/health/registry', builtinResources()), clock, log: () => {} });
    const server = await createApiServer({ store, clock, host: 'node', flags: { 'etcd-servers': etcd.url }, controllers: [], nodes: [], log: () => {} });
    await server.ready();
    const call = async (path: string, init: RequestInit = {}) => {
      const res = await server.handle(new Request(`http://kubetab.test${path}`, init));
      return { status: res.status, text: await res.text(), retryAfter: res.headers.get('retry-after') };
    };
    const readyz = () => call('/readyz?verbose');
    await expect.poll(async () => (await readyz()).status, { timeout: 10_000 }).toBe(200);
    expect((await readyz()).text).toContain('[+]etcd ok\n[+]etcd-readiness ok\n');

    await etcd.pause();
    await expect.poll(async () => (await readyz()).status, { timeout: 10_000 }).toBe(500);
    const down = await readyz();
    expect(down.text).toContain('[-]etcd failed: reason withheld\n[-]etcd-readiness failed: reason withheld\n');
    expect(down.text).toMatch(/readyz check failed\n$/);
    expect((await call('/livez/etcd')).text).toBe('internal server error: etcd check failed\n');
    const write = await call('/api/v1/namespaces', { method: 'POST', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'during-outage' } }), headers: { 'Content-Type': 'application/json' } });
    // Answered as kube's request timeout once the etcd client's deadline passes.
    expect(write.status).toBe(504);
    expect(JSON.parse(write.text)).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Timeout', code: 504, message: 'Timeout: request did not complete within requested timeout - context deadline exceeded' });

    await etcd.resume();
    await expect.poll(async () => (await readyz()).status, { timeout: 15_000 }).toBe(200);
    const created = await call('/api/v1/namespaces', { method: 'POST', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'after-outage' } }), headers: { 'Content-Type': 'application/json' } });
    expect(created.status).toBe(201);
    await server.close();
  }, 60_000);
});
