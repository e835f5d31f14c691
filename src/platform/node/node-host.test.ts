// The Node host: in memory by default, on disk with a data directory (issue 2,
// Where it runs 2: "a documented flag keeps the data on disk across restarts"),
// and --etcd-compaction-interval sets how long history is kept.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION_MS, retentionFromFlags, startNodeHost, type NodeHost } from './node-host';

const hosts: NodeHost[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(dataDir?: string): Promise<NodeHost> {
  const host = await startNodeHost({ port: 0, dataDir });
  hosts.push(host);
  return host;
}

/** In a namespace of the test's own: `default` is created by the server shortly after it starts. */
async function createConfigMap(url: string, name: string): Promise<any> {
  const ns = await fetch(`${url}/api/v1/namespaces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'host-test' } }),
  });
  expect([201, 409]).toContain(ns.status);
  const response = await fetch(`${url}/api/v1/namespaces/host-test/configmaps`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } }),
  });
  expect(response.status).toBe(201);
  return response.json();
}

describe('node host', () => {
  it('keeps objects across a restart with a data directory, with the same resourceVersion', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubetab-data-'));
    dirs.push(dir);
    const first = await start(dir);
    const created = await createConfigMap(first.url, 'kept');
    await first.close();
    hosts.splice(hosts.indexOf(first), 1);

    const second = await start(dir);
    const response = await fetch(`${second.url}/api/v1/namespaces/host-test/configmaps/kept`);
    expect(response.status).toBe(200);
    const read = (await response.json()) as any;
    expect(read.metadata.uid).toBe(created.metadata.uid);
    expect(read.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it('forgets everything on restart without a data directory', async () => {
    const first = await start();
    await createConfigMap(first.url, 'forgotten');
    const second = await start();
    const response = await fetch(`${second.url}/api/v1/namespaces/host-test/configmaps/forgotten`);
    expect(response.status).toBe(404);
  });

  it('answers a body over 3 MiB with the core\'s 413 without reading it all, and keeps serving', async () => {
    // Issue 2, bad input: "a request over 3 MiB (as kube-apiserver)"; the adapter streams the body, the core stops reading.
    const host = await start();
    const big = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { x: 'y'.repeat(3.5 * 1024 * 1024) } });
    const response = await fetch(`${host.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
    expect((await fetch(`${host.url}/version`)).status).toBe(200);
  });

  it('reads the history window from --etcd-compaction-interval', () => {
    expect(retentionFromFlags({})).toBe(DEFAULT_RETENTION_MS);
    expect(retentionFromFlags({ 'etcd-compaction-interval': '1m' })).toBe(60_000);
    // kube-apiserver: 0 disables compaction.
    expect(retentionFromFlags({ 'etcd-compaction-interval': '0' })).toBe(Number.POSITIVE_INFINITY);
    expect(() => retentionFromFlags({ 'etcd-compaction-interval': '5' })).toThrow('missing unit');
  });
});
