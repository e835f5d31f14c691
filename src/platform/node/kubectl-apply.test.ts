// kubectl 1.32's apply flows against the Node server, as on a real cluster:
// client-side apply (last-applied annotation, three-way strategic merge),
// `apply --server-side` with its output, a conflict with kubectl's text,
// `--force-conflicts`, the migration from client-side apply's manager, and
// `kubectl patch` of the strategic type merging containers by name.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKubeconfig } from './kubeconfig';
import { startNodeHost, type NodeHost } from './node-host';
import { findKubectl, kubectlRunner } from './testing/kubectl-runner';

const KUBECTL = findKubectl();
if (!KUBECTL) console.warn('kubectl-apply.test.ts: kubectl is not installed (not on PATH, KUBECTL unset): the kubectl tests are skipped.');

let host: NodeHost;
let dir: string;
let kubeconfig: string;
const k = kubectlRunner(KUBECTL ?? 'kubectl', () => ({ kubeconfig, dir }));

function deployment(replicas: number, image: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: ${image}
      - name: sidecar
        image: busybox:1.36
`;
}

const managers = (obj: { metadata: { managedFields?: { manager: string; operation: string }[] } }) =>
  (obj.metadata.managedFields ?? []).map((m) => `${m.manager}/${m.operation}`).sort();

describe.skipIf(!KUBECTL)('kubectl apply against the Node server', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetab-kubectl-apply-'));
    kubeconfig = join(dir, 'kubeconfig');
    host = await startNodeHost({ port: 0 });
    await writeKubeconfig(kubeconfig, { server: host.url });
  });
  afterAll(async () => {
    await host?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('client-side apply creates, then configures through a three-way merge', async () => {
    expect(await k.ok(['apply', '-f', '-'], deployment(2, 'nginx:1.25'))).toBe('deployment.apps/web created\n');
    expect(await k.ok(['apply', '-f', '-'], deployment(2, 'nginx:1.26'))).toBe('deployment.apps/web configured\n');
    expect(await k.ok(['apply', '-f', '-'], deployment(2, 'nginx:1.26'))).toBe('deployment.apps/web unchanged\n');
    const obj = JSON.parse(await k.ok(['get', 'deployment', 'web', '-o', 'json', '--show-managed-fields']));
    expect(obj.spec.template.spec.containers.map((c: { name: string; image: string }) => `${c.name}=${c.image}`)).toEqual(['nginx=nginx:1.26', 'sidecar=busybox:1.36']);
    expect(JSON.parse(obj.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).spec.replicas).toBe(2);
    expect(managers(obj)).toContain('kubectl-client-side-apply/Update');
  });

  it('apply --server-side takes over from client-side apply and prints serverside-applied', async () => {
    expect(await k.ok(['apply', '--server-side', '-f', '-'], deployment(2, 'nginx:1.26'))).toBe('deployment.apps/web serverside-applied\n');
    const obj = JSON.parse(await k.ok(['get', 'deployment', 'web', '-o', 'json', '--show-managed-fields']));
    expect(managers(obj)).toContain('kubectl/Apply');
    expect(managers(obj)).not.toContain('kubectl-client-side-apply/Update');
  });

  it('a second manager with another value conflicts; --force-conflicts takes the field', async () => {
    const conflict = await k.run(['apply', '--server-side', '--field-manager=other', '-f', '-'], deployment(5, 'nginx:1.26'));
    expect(conflict.code).toBe(1);
    expect(conflict.stderr.split('\n')[0]).toBe('error: Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
    expect(JSON.parse(await k.ok(['get', 'deployment', 'web', '-o', 'json'])).spec.replicas).toBe(2);
    expect(await k.ok(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', '-'], deployment(5, 'nginx:1.26'))).toBe(
      'deployment.apps/web serverside-applied\n',
    );
    const obj = JSON.parse(await k.ok(['get', 'deployment', 'web', '-o', 'json', '--show-managed-fields']));
    expect(obj.spec.replicas).toBe(5);
    const owners = obj.metadata.managedFields.filter((m: { fieldsV1: { 'f:spec'?: Record<string, unknown> } }) => m.fieldsV1['f:spec']?.['f:replicas']);
    expect(owners.map((m: { manager: string }) => m.manager)).toEqual(['other']);
  });

  it('kubectl patch (strategic) merges containers by name and leaves the others', async () => {
    expect(await k.ok(['patch', 'deployment', 'web', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"busybox:1.37"}]}}}}'])).toBe(
      'deployment.apps/web patched\n',
    );
    const obj = JSON.parse(await k.ok(['get', 'deployment', 'web', '-o', 'json']));
    expect(obj.spec.template.spec.containers.map((c: { name: string; image: string }) => `${c.name}=${c.image}`)).toEqual(['nginx=nginx:1.26', 'sidecar=busybox:1.37']);
  });
});
