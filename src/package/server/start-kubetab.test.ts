// kubetab/server as a test uses it: startKubeTab, kubectl against it, the
// helpers, snapshot/restore isolation, a fault of each kind seen by a client,
// CORS as a browser app sees it, and the errors of bad input. The figures
// (start-up, restore of 1,000 objects) are printed for the record.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKubectl, kubectlRunner } from '../../platform/node/testing/kubectl-runner';
import { startKubeTab, type KubeTab } from '.';

const kubectl = findKubectl();

describe.runIf(kubectl)('startKubeTab, secured (the default)', () => {
  let kube: KubeTab;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetab-pkg-'));
    const started = performance.now();
    kube = await startKubeTab({ nodes: 0 });
    const res = await fetch(`${kube.url}/api/v1/namespaces/default`, { headers: { authorization: `Bearer ${kube.token}` } }).catch(() => undefined);
    // Node's fetch does not trust the self-signed certificate: the first answered request is kubectl's below.
    void res;
    console.info(`[measured] startKubeTab (secured, kubeadm controllers, no nodes) ready in ${(performance.now() - started).toFixed(0)} ms`);
  }, 60_000);
  afterAll(async () => {
    await kube?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const k = () => kubectlRunner(kubectl!, () => ({ kubeconfig: kube.kubeconfigPath, dir }));

  it('serves kubectl with the kubeconfig it wrote, as kubernetes-admin over https', async () => {
    expect(kube.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(kube.ca).toContain('BEGIN CERTIFICATE');
    expect(kube.env.KUBECONFIG).toBe(kube.kubeconfigPath);
    expect(await k().ok(['get', 'namespaces', '-o', 'name'])).toBe('namespace/default\nnamespace/kube-node-lease\nnamespace/kube-public\nnamespace/kube-system\n');
    expect(await k().ok(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).toBe('kubernetes-admin');
  });

  it('applies YAML as the test manager; kubectl sees it', async () => {
    const [applied] = await kube.apply(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n`);
    expect(applied!.metadata.managedFields).toEqual([expect.objectContaining({ manager: 'kubetab-test', operation: 'Apply' })]);
    expect(await k().ok(['get', 'configmap', 'settings', '-o', 'jsonpath={.data.mode}'])).toBe('fast');
  });

  it('answers kubectl with a fault, as a real 403 reads', async () => {
    kube.faults.add({ verb: 'list', resource: 'pods', status: 403, times: 1 });
    const denied = await k().run(['get', 'pods']);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('Error from server (Forbidden): pods is forbidden: User "kubernetes-admin" cannot list resource "pods" in API group "" in the namespace "default"');
    expect(await k().ok(['get', 'pods'])).toBe('');
  });
});

describe('startKubeTab, open, without controllers', () => {
  let kube: KubeTab;
  beforeAll(async () => {
    const started = performance.now();
    kube = await startKubeTab({ open: true, controllers: false, corsAllowedOrigins: ['^http://app\\.test(:|$)'] });
    const first = await fetch(`${kube.url}/api/v1/namespaces/default`);
    expect(first.status).toBe(200);
    console.info(`[measured] startKubeTab (open, no controllers) to the first answered request: ${(performance.now() - started).toFixed(0)} ms`);
  }, 60_000);
  afterAll(() => kube?.close());

  it('gets, lists, waits for and deletes objects', async () => {
    expect(await kube.get({ kind: 'ConfigMap', name: 'nothing' })).toBeUndefined();
    const waiting = kube.waitFor({ kind: 'ConfigMap', namespace: 'default' }, (o, type) => type === 'MODIFIED' && (o as { data?: { n?: string } }).data?.n === '2');
    await kube.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w' }, data: { n: '1' } });
    await kube.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w' }, data: { n: '2' } });
    expect((await waiting).metadata.name).toBe('w');
    expect((await kube.list({ kind: 'ConfigMap', namespace: 'default' })).map((o) => o.metadata.name)).toContain('w');
    expect(await kube.delete({ kind: 'ConfigMap', name: 'w' })).toBe(true);
    expect(await kube.delete({ kind: 'ConfigMap', name: 'w' })).toBe(false);
    await expect(kube.waitFor({ kind: 'ConfigMap', namespace: 'default' }, (o) => o.metadata.name === 'never', { timeoutMs: 50 })).rejects.toThrow('waitFor: no ConfigMap in namespace default matched within 50 ms');
  });

  it('restores a snapshot: objects, resourceVersions, and 410 for a watch from before', async () => {
    const [kept] = await kube.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { v: '1' } });
    const snapshot = await kube.snapshot();
    await kube.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { v: 'changed' } });
    await kube.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'later' }, data: {} });
    const watch = await fetch(`${kube.url}/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${kept!.metadata.resourceVersion}`);
    const started = performance.now();
    await kube.restore(snapshot);
    console.info(`[measured] restore of a ${snapshot.items.length}-key snapshot (no controllers): ${(performance.now() - started).toFixed(0)} ms`);
    // The open watch ended with the old server.
    await watch.text();
    const restored = await kube.get({ kind: 'ConfigMap', name: 'kept' });
    expect(restored?.data).toEqual({ v: '1' });
    expect(restored?.metadata.resourceVersion).toBe(kept!.metadata.resourceVersion);
    expect(await kube.get({ kind: 'ConfigMap', name: 'later' })).toBeUndefined();
    // Resuming from before the restore: compacted history, as after an etcd restore.
    const resumed = await fetch(`${kube.url}/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${kept!.metadata.resourceVersion}`);
    const event = JSON.parse((await resumed.text()).trim());
    expect(event).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
    // Writes go on above every revision handed out before.
    const [after] = await kube.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' }, data: {} });
    expect(Number(after!.metadata.resourceVersion)).toBeGreaterThan(snapshot.revision);
  });

  it('restores 1,000 objects in milliseconds', async () => {
    await kube.reset();
    const base = await kube.snapshot();
    const many = Array.from({ length: 1000 }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { i: String(i) } }));
    await kube.apply(many);
    const big = await kube.snapshot();
    expect(big.items.length).toBe(base.items.length + 1000);
    await kube.restore(base);
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await kube.restore(big);
      times.push(performance.now() - started);
    }
    expect((await kube.list({ kind: 'ConfigMap', namespace: 'default' })).length).toBe(1000);
    console.info(`[measured] restore of ${big.items.length} keys (1,000 ConfigMaps, no controllers): ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
  });

  it('keeps faults across restores; the app sees a Status, a delay, a broken watch', async () => {
    const snapshot = await kube.snapshot();
    const fault = kube.faults.add({ verb: 'get', resource: 'configmaps', name: 'x', status: 404 });
    await kube.restore(snapshot);
    expect(kube.faults.list().map((f) => f.id)).toHaveLength(1);
    const r = await fetch(`${kube.url}/api/v1/namespaces/default/configmaps/x`);
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ reason: 'NotFound', message: 'configmaps "x" not found' });
    expect(kube.faults.remove(kube.faults.list()[0]!.id)).toBe(true);
    void fault;

    kube.faults.add({ verb: 'list', resource: 'configmaps', delayMs: 150, times: 1 });
    let started = performance.now();
    expect((await fetch(`${kube.url}/api/v1/namespaces/default/configmaps`)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);

    kube.faults.add({ verb: 'watch', resource: 'configmaps', closeWatchAfter: { events: 1, abrupt: true }, times: 1 });
    const watch = await fetch(`${kube.url}/api/v1/namespaces/default/configmaps?watch=1`);
    expect(watch.status).toBe(200);
    await expect(watch.text()).rejects.toThrow();
    started = performance.now();
    void started;
  });

  it('answers a browser app of an allowed origin as kube-apiserver --cors-allowed-origins does', async () => {
    const preflight = await fetch(`${kube.url}/api/v1/namespaces/default/configmaps?watch=1`, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.test:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://app.test:5173');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, GET, OPTIONS, PUT, DELETE, PATCH');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since');
    expect(preflight.headers.get('access-control-expose-headers')).toBe('Date');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    const actual = await fetch(`${kube.url}/api/v1/namespaces/default`, { headers: { origin: 'http://app.test:5173' } });
    expect(actual.status).toBe(200);
    expect(actual.headers.get('access-control-allow-origin')).toBe('http://app.test:5173');
    const foreign = await fetch(`${kube.url}/api/v1/namespaces/default`, { method: 'OPTIONS', headers: { origin: 'http://other.test' } });
    expect(foreign.status).toBe(405);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('bad input', () => {
  it('names what to fix', async () => {
    await expect(startKubeTab({ nodez: 1 } as never)).rejects.toThrow('startKubeTab: unknown option "nodez" (known: open, port, host, nodes,');
    await expect(startKubeTab({ nodes: -1 })).rejects.toThrow('startKubeTab: nodes: a count must be an integer >= 0, not -1');
    await expect(startKubeTab({ open: true, corsAllowedOrigins: ['localhost'] })).rejects.toThrow('--cors-allowed-origins has an invalid regular expression: regular expression does not pin to start/end of host');
    await expect(startKubeTab({ open: true, authorizationMode: 'RBAC' })).rejects.toThrow('authorizationMode and open do not go together');
    const kube = await startKubeTab({ open: true, controllers: false });
    try {
      const snapshot = await kube.snapshot();
      await expect(kube.restore({ ...snapshot, kubetabVersion: '0.0.1' })).rejects.toThrow(/restore: the snapshot was taken by KubeTab 0\.0\.1 and this is KubeTab \S+: take the snapshot again with this version/);
      await expect(kube.restore({ ...snapshot, nodes: ['kubetab-control-plane'] })).rejects.toThrow('restore: the snapshot was taken on a cluster with nodes [kubetab-control-plane] and this one has [none]');
      await expect(kube.restore({} as never)).rejects.toThrow('restore: not a KubeTab snapshot');
      expect(() => kube.faults.add({ resource: 'widgets', status: 500 })).toThrow('invalid fault: resource "widgets" matches nothing');
    } finally {
      await kube.close();
    }
  });
});
