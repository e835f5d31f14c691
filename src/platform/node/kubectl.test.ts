// Issue 2, Where it runs 2: the Node server with the kubeconfig it writes is
// usable by kubectl 1.32 for get, get -w, get -o yaml|json, create, apply
// (client-side create), replace, patch --type merge|json, delete, label,
// annotate, api-resources, api-versions, get --raw and --chunk-size.
// Every assertion is on what kubectl prints, as a user would read it.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKubectl, kubectlRunner } from './testing/kubectl-runner';
import { writeKubeconfig } from './kubeconfig';
import { startNodeHost, type NodeHost } from './node-host';

const KUBECTL = findKubectl();
if (!KUBECTL) console.warn('kubectl.test.ts: kubectl is not installed (not on PATH, KUBECTL unset): the kubectl tests are skipped.');

let host: NodeHost;
let dir: string;
let kubeconfig: string;
const { run: kubectl, ok } = kubectlRunner(KUBECTL ?? 'kubectl', () => ({ kubeconfig, dir }));

function manifest(name: string, body: string): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, body);
  return path;
}

/** A namespace from a manifest (kubectl sends manifests as JSON; `create namespace` has its own test). */
async function createNamespace(name: string): Promise<void> {
  expect(await ok(['create', '-f', '-'], `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`)).toBe(`namespace/${name} created\n`);
}

function configMapYaml(name: string, data: Record<string, string>, extraMeta = ''): string {
  const lines = Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`);
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\n${extraMeta}data:\n${lines.join('\n')}\n`;
}

describe.skipIf(!KUBECTL)('kubectl 1.32 against the Node server', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetab-kubectl-'));
    kubeconfig = join(dir, 'kubeconfig');
    host = await startNodeHost({ port: 0 });
    await writeKubeconfig(kubeconfig, { server: host.url });
  });
  afterAll(async () => {
    await host?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('version: the server is 1.32', async () => {
    const out = JSON.parse(await ok(['version', '-o', 'json']));
    expect(out.serverVersion.major).toBe('1');
    expect(out.serverVersion.minor).toBe('32');
    expect(out.serverVersion.gitVersion).toMatch(/^v1\.32\./);
  });

  it('api-versions lists the core group version', async () => {
    const lines = (await ok(['api-versions'])).split('\n');
    expect(lines).toContain('v1');
  });

  it('api-resources lists the declared kinds with short names, scope and kind', async () => {
    const out = await ok(['api-resources']);
    expect(out).toMatch(/^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND\s*$/m);
    expect(out).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap\s*$/m);
    expect(out).toMatch(/^namespaces\s+ns\s+v1\s+false\s+Namespace\s*$/m);
    expect(out).toMatch(/^pods\s+po\s+v1\s+true\s+Pod\s*$/m);
    expect(out).toMatch(/^secrets\s+v1\s+true\s+Secret\s*$/m);
  });

  it('get namespaces shows the built-in ones', async () => {
    const out = await ok(['get', 'namespaces']);
    expect(out).toMatch(/^NAME\s+/);
    expect(out).toMatch(/^default\s+/m);
    expect(out).toMatch(/^kube-system\s+/m);
  });

  it('create -f creates and get shows the object', async () => {
    const path = manifest('created', configMapYaml('kt-created', { a: '1' }));
    expect(await ok(['create', '-f', path])).toBe('configmap/kt-created created\n');
    const out = await ok(['get', 'configmap', 'kt-created']);
    expect(out).toMatch(/^NAME\s+/);
    expect(out).toMatch(/^kt-created\s+/m);
    const again = await kubectl(['create', '-f', path]);
    expect(again.code).not.toBe(0);
    expect(again.stderr.trim()).toBe(`Error from server (AlreadyExists): error when creating "${path}": configmaps "kt-created" already exists`);
  });

  it('create from stdin; create namespace and create secret generic (typed requests)', async () => {
    expect(await ok(['create', '-f', '-'], configMapYaml('kt-stdin', { x: 'y' }))).toBe('configmap/kt-stdin created\n');
    expect(await ok(['create', 'namespace', 'kt-team'])).toBe('namespace/kt-team created\n');
    expect(await ok(['create', 'secret', 'generic', 'kt-secret', '-n', 'kt-team', '--from-literal=password=s3cret'])).toBe(
      'secret/kt-secret created\n',
    );
    const secret = JSON.parse(await ok(['get', 'secret', 'kt-secret', '-n', 'kt-team', '-o', 'json']));
    expect(secret.data.password).toBe(Buffer.from('s3cret').toString('base64'));
    expect(secret.type).toBe('Opaque');
  });

  it('get -o yaml and -o json print the stored object', async () => {
    await ok(['create', '-f', manifest('formats', configMapYaml('kt-formats', { key: 'value' }))]);
    const yaml = await ok(['get', 'configmap', 'kt-formats', '-o', 'yaml']);
    expect(yaml).toMatch(/^apiVersion: v1$/m);
    expect(yaml).toMatch(/^kind: ConfigMap$/m);
    expect(yaml).toMatch(/^ {2}name: kt-formats$/m);
    expect(yaml).toMatch(/^ {2}key: value$/m);
    expect(yaml).toMatch(/^ {2}resourceVersion: "\d+"$/m);
    expect(yaml).toMatch(/^ {2}uid: [0-9a-f-]{36}$/m);
    const json = JSON.parse(await ok(['get', 'configmap', 'kt-formats', '-o', 'json']));
    expect(json).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kt-formats', namespace: 'default' }, data: { key: 'value' } });
    expect(json.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('apply -f creates (client-side) and records the last applied configuration; unchanged on a second apply', async () => {
    const path = manifest('applied', configMapYaml('kt-applied', { mode: 'apply' }));
    expect(await ok(['apply', '-f', path])).toBe('configmap/kt-applied created\n');
    const json = JSON.parse(await ok(['get', 'configmap', 'kt-applied', '-o', 'json']));
    const lastApplied = JSON.parse(json.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
    expect(lastApplied.data).toEqual({ mode: 'apply' });
    expect(await ok(['apply', '-f', path])).toBe('configmap/kt-applied unchanged\n');
  });

  it('replace -f replaces the object', async () => {
    await ok(['create', '-f', manifest('replaced', configMapYaml('kt-replaced', { v: 'old' }))]);
    const path = manifest('replaced-2', configMapYaml('kt-replaced', { v: 'new' }));
    expect(await ok(['replace', '-f', path])).toBe('configmap/kt-replaced replaced\n');
    expect(await ok(['get', 'configmap', 'kt-replaced', '-o', 'jsonpath={.data.v}'])).toBe('new');
  });

  it('patch --type merge and --type json', async () => {
    await ok(['create', '-f', manifest('patched', configMapYaml('kt-patched', { a: '1', b: '2' }))]);
    expect(await ok(['patch', 'configmap', 'kt-patched', '--type', 'merge', '-p', '{"data":{"b":null,"c":"3"}}'])).toBe(
      'configmap/kt-patched patched\n',
    );
    expect(JSON.parse(await ok(['get', 'configmap', 'kt-patched', '-o', 'jsonpath={.data}']))).toEqual({ a: '1', c: '3' });
    expect(
      await ok(['patch', 'configmap', 'kt-patched', '--type', 'json', '-p', '[{"op":"test","path":"/data/a","value":"1"},{"op":"replace","path":"/data/a","value":"9"}]']),
    ).toBe('configmap/kt-patched patched\n');
    expect(await ok(['get', 'configmap', 'kt-patched', '-o', 'jsonpath={.data.a}'])).toBe('9');
    // A failing `test` operation changes nothing: kube-apiserver answers 422 with no kind or name
    // (a generic server response), which kubectl reports as an invalid request.
    const failed = await kubectl(['patch', 'configmap', 'kt-patched', '--type', 'json', '-p', '[{"op":"test","path":"/data/a","value":"1"},{"op":"remove","path":"/data/a"}]']);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain('The request is invalid: the server rejected our request due to an error in our request');
    expect(await ok(['get', 'configmap', 'kt-patched', '-o', 'jsonpath={.data.a}'])).toBe('9');
  });

  it('label and annotate, and get -l selects by label', async () => {
    await ok(['create', '-f', manifest('labelled', configMapYaml('kt-labelled', { a: '1' }))]);
    expect(await ok(['label', 'configmap', 'kt-labelled', 'tier=web'])).toBe('configmap/kt-labelled labeled\n');
    expect(await ok(['annotate', 'configmap', 'kt-labelled', 'owner=team-a'])).toBe('configmap/kt-labelled annotated\n');
    const json = JSON.parse(await ok(['get', 'configmap', 'kt-labelled', '-o', 'json']));
    expect(json.metadata.labels).toEqual({ tier: 'web' });
    expect(json.metadata.annotations.owner).toBe('team-a');
    const selected = await ok(['get', 'configmaps', '-l', 'tier=web', '-o', 'name']);
    expect(selected).toBe('configmap/kt-labelled\n');
    const existing = await kubectl(['label', 'configmap', 'kt-labelled', 'tier=db']);
    expect(existing.code).not.toBe(0);
    expect(existing.stderr).toContain("'tier' already has a value (web), and --overwrite is false");
  });

  it('delete removes the object; get then reports NotFound', async () => {
    await ok(['create', '-f', manifest('deleted', configMapYaml('kt-deleted', { a: '1' }))]);
    expect(await ok(['delete', 'configmap', 'kt-deleted'])).toBe('configmap "kt-deleted" deleted\n');
    const gone = await kubectl(['get', 'configmap', 'kt-deleted']);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr.trim()).toBe('Error from server (NotFound): configmaps "kt-deleted" not found');
  });

  it('get --raw returns the server\'s own JSON', async () => {
    await ok(['create', '-f', manifest('raw', configMapYaml('kt-raw', { r: 'aw' }))]);
    const object = JSON.parse(await ok(['get', '--raw', '/api/v1/namespaces/default/configmaps/kt-raw']));
    expect(object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { r: 'aw' } });
    const version = JSON.parse(await ok(['get', '--raw', '/version']));
    expect(version.gitVersion).toMatch(/^v1\.32\./);
    expect(await ok(['get', '--raw', '/healthz'])).toBe('ok');
  });

  it('--chunk-size pages the list with limit and continue and prints every object', async () => {
    await createNamespace('kt-chunks');
    for (let i = 0; i < 5; i++) {
      await ok(['create', '-n', 'kt-chunks', '-f', '-'], configMapYaml(`chunk-${i}`, { i: String(i) }).replace('namespace: default', 'namespace: kt-chunks'));
    }
    // The root-CA publisher puts kube-root-ca.crt in every namespace, as on a real cluster: leave it out.
    const run = await kubectl(['get', 'configmaps', '-n', 'kt-chunks', '--chunk-size=2', '-o', 'name', '-v=6', '--field-selector=metadata.name!=kube-root-ca.crt']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe([0, 1, 2, 3, 4].map((i) => `configmap/chunk-${i}\n`).join(''));
    // kubectl logs each request at -v=6: three pages of at most 2.
    const pages = run.stderr.split('\n').filter((line) => /GET http\S+\/namespaces\/kt-chunks\/configmaps\?\S*limit=2\S* 200 OK/.test(line));
    expect(pages.length).toBe(3);
    expect(pages.filter((line) => line.includes('continue=')).length).toBe(2);
  });

  it('get -w prints the list, then each change as it happens', async () => {
    await createNamespace('kt-watch');
    await ok(['create', '-n', 'kt-watch', '-f', '-'], configMapYaml('watch-0', { a: '0' }).replace('namespace: default', 'namespace: kt-watch'));
    const child = spawn(KUBECTL!, ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), 'get', 'configmaps', '-n', 'kt-watch', '-w', '-o', 'name', '--field-selector=metadata.name!=kube-root-ca.crt'], {
      env: { ...process.env, HOME: dir, KUBECONFIG: kubeconfig },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // One listener for the whole run: output that arrives between two waits must not be lost.
    const waiters = new Set<() => void>();
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      for (const check of waiters) check();
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const waitFor = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!stdout.includes(text)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`kubectl get -w did not print ${JSON.stringify(text)}; stdout:\n${stdout}\nstderr:\n${stderr}`));
        }, 15_000);
        waiters.add(check);
        check();
      });
    try {
      await waitFor('configmap/watch-0\n');
      await ok(['create', '-n', 'kt-watch', '-f', '-'], configMapYaml('watch-1', { a: '1' }).replace('namespace: default', 'namespace: kt-watch'));
      await waitFor('configmap/watch-1\n');
      await ok(['delete', 'configmap', 'watch-0', '-n', 'kt-watch']);
      await waitFor('configmap/watch-0\nconfigmap/watch-1\nconfigmap/watch-0\n');
      expect(stdout).toBe('configmap/watch-0\nconfigmap/watch-1\nconfigmap/watch-0\n');
    } finally {
      child.kill();
    }
  });
});
