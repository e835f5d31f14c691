// Issue 3 through kubectl 1.32: explain from the served OpenAPI, get of
// common kinds with their printer columns (and -o wide), create with an
// unknown field (strict server-side validation), and a CustomResourceDefinition's
// whole life: established, listed, served with its printer columns, explained,
// deleted with its objects.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKubeconfig } from './kubeconfig';
import { startNodeHost, type NodeHost } from './node-host';
import { findKubectl, kubectlRunner } from './testing/kubectl-runner';

const KUBECTL = findKubectl();
if (!KUBECTL) console.warn('kubectl-kinds.test.ts: kubectl is not installed (not on PATH, KUBECTL unset): the kubectl tests are skipped.');

let host: NodeHost;
let dir: string;
let kubeconfig: string;
const k = kubectlRunner(KUBECTL ?? 'kubectl', () => ({ kubeconfig, dir }));

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab, shortNames: [ct]}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              replicas: {type: integer, minimum: 1}
    additionalPrinterColumns:
    - {name: Spec, type: string, jsonPath: .spec.cronSpec}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
`;

describe.skipIf(!KUBECTL)('kinds through kubectl', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetab-kubectl-kinds-'));
    kubeconfig = join(dir, 'kubeconfig');
    // No simulated nodes: the Deployment's pods stay Pending, so its columns do not race a rollout.
    host = await startNodeHost({ port: 0, nodes: [] });
    await writeKubeconfig(kubeconfig, { server: host.url });
  });
  afterAll(async () => {
    await host?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('explain reads fields and types from the served OpenAPI', async () => {
    const out = await k.ok(['explain', 'deployment.spec.strategy']);
    expect(out).toMatch(/^GROUP:\s+apps$/m);
    expect(out).toMatch(/^KIND:\s+Deployment$/m);
    expect(out).toMatch(/^FIELD: strategy <DeploymentStrategy>$/m);
    expect(out).toMatch(/^\s+rollingUpdate\s+<RollingUpdateDeployment>$/m);
  });

  it('get prints each kind\'s own columns, and more with -o wide', async () => {
    await k.ok(['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=2']);
    await k.ok(['expose', 'deployment', 'web', '--port=80']);
    await k.ok(['create', 'configmap', 'conf', '--from-literal=a=1', '--from-literal=b=2']);
    const deploy = await k.ok(['get', 'deployments']);
    expect(deploy.split('\n')[0]).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/);
    // UP-TO-DATE is 0 until the deployment controller's first status write, then 2.
    expect(deploy).toMatch(/^web\s+0\/2\s+[02]\s+0\s+\S+$/m);
    const wide = await k.ok(['get', 'deployments', '-o', 'wide']);
    expect(wide.split('\n')[0]).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR$/);
    expect(wide).toMatch(/^web\s+0\/2\s+[02]\s+0\s+\S+\s+nginx\s+nginx:1\.25\s+app=web$/m);
    const svc = await k.ok(['get', 'services', 'web']);
    expect(svc.split('\n')[0]).toMatch(/^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE$/);
    expect(svc).toMatch(/^web\s+ClusterIP\s+10\.\d+\.\d+\.\d+\s+<none>\s+80\/TCP\s+\S+$/m);
    const cm = await k.ok(['get', 'configmap', 'conf']);
    expect(cm).toMatch(/^conf\s+2\s+\S+$/m);
    const ns = await k.ok(['get', 'namespace', 'kube-system']);
    expect(ns).toMatch(/^kube-system\s+Active\s+\S+$/m);
  });

  it('create with an unknown field is refused by the server (kubectl asks for Strict)', async () => {
    const run = await k.run(['create', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: strict\n  colour: blue\n');
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      'Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.colour"',
    );
    const warned = await k.run(['create', '--validate=warn', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: strict\n  colour: blue\n');
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('Warning: unknown field "metadata.colour"');
  });

  it('a CustomResourceDefinition\'s whole life', async () => {
    expect(await k.ok(['apply', '-f', '-'], CRD)).toBe('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n');
    await k.ok(['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=30s']);
    expect(await k.ok(['api-resources', '--api-group=stable.example.com'])).toMatch(/^crontabs\s+ct\s+stable\.example\.com\/v1\s+true\s+CronTab$/m);
    expect(await k.ok(['apply', '-f', '-'], 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  cronSpec: "0 3 * * *"\n  replicas: 2\n')).toBe(
      'crontab.stable.example.com/nightly created\n',
    );
    const got = await k.ok(['get', 'ct']);
    // With additionalPrinterColumns the table has exactly those (no implicit Age), as kube-apiserver builds it.
    expect(got.split('\n')[0]).toMatch(/^NAME\s+SPEC\s+REPLICAS$/);
    expect(got).toMatch(/^nightly\s+0 3 \* \* \*\s+2$/m);
    const invalid = await k.run(['apply', '-f', '-'], 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: bad\nspec:\n  replicas: 0\n');
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1');
    expect(await k.ok(['explain', 'crontab.spec'])).toMatch(/^\s+cronSpec\s+<string>$/m);
    expect(await k.ok(['delete', 'crd', 'crontabs.stable.example.com'])).toBe('customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted\n');
    const gone = await k.run(['get', 'crontabs.stable.example.com']);
    expect(gone.code).toBe(1);
  });
});
