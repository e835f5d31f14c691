// kubectl 1.32's typed clients get protobuf answers, as from a real
// kube-apiserver (decision 0280): they send
// `Accept: application/vnd.kubernetes.protobuf,application/json` and read
// the object, the list or the Status error from protobuf. Checked on what
// kubectl prints and on the response Content-Type its -v=8 log shows.
// kubectl's dynamic and raw calls (get, get --raw) ask for JSON and keep it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKubectl, kubectlRunner } from './testing/kubectl-runner';
import { startSecureKubectlHost, type SecureKubectlHost } from './testing/secure-kubectl-host';

const KUBECTL = findKubectl();
if (!KUBECTL) console.warn('kubectl-protobuf.test.ts: kubectl is not installed (not on PATH, KUBECTL unset): the kubectl tests are skipped.');

let server: SecureKubectlHost;
const { run: kubectl, ok } = kubectlRunner(KUBECTL ?? 'kubectl', () => ({ kubeconfig: server.kubeconfig, dir: server.dir }));

interface Exchange {
  request: string;
  accept?: string;
  /** The request body's Content-Type. */
  sent?: string;
  /** The response's Content-Type. */
  received?: string;
}

/** The requests of a -v=8 log with their Accept and the two Content-Types (request headers, then response headers). */
function exchanges(log: string): Exchange[] {
  const out: Exchange[] = [];
  let inResponse = false;
  for (const line of log.split('\n')) {
    if (!line.includes('round_trippers.go')) continue;
    const request = /\] (GET|POST|PUT|PATCH|DELETE) https?:\/\/[^/]+(\S*)/.exec(line);
    if (request) {
      out.push({ request: `${request[1]} ${request[2]!.replace(/\?.*$/, '')}` });
      inResponse = false;
      continue;
    }
    const current = out[out.length - 1];
    if (!current) continue;
    if (line.includes('Response Status:')) inResponse = true;
    const header = /\]\s+(Accept|Content-Type): (.*)$/.exec(line);
    if (!header) continue;
    if (header[1] === 'Accept') current.accept = header[2];
    else if (inResponse) current.received = header[2];
    else current.sent = header[2];
  }
  return out;
}

const PB = 'application/vnd.kubernetes.protobuf';
const KUBECTL_TYPED_ACCEPT = 'application/vnd.kubernetes.protobuf,application/json';

describe.skipIf(!KUBECTL)('kubectl typed calls get protobuf from the Node server', () => {
  beforeAll(async () => {
    server = await startSecureKubectlHost('kubetab-kubectl-protobuf-');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('create configmap: 201 in protobuf; again: the 409 Status in protobuf, its message printed', async () => {
    const first = await kubectl(['create', 'configmap', 'pb', '--from-literal=a=b', '-v=8']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('configmap/pb created\n');
    expect(exchanges(first.stderr).find((e) => e.request === 'POST /api/v1/namespaces/default/configmaps')).toEqual({
      request: 'POST /api/v1/namespaces/default/configmaps',
      accept: KUBECTL_TYPED_ACCEPT,
      sent: PB,
      received: PB,
    });
    const again = await kubectl(['create', 'configmap', 'pb', '--from-literal=a=b', '-v=8']);
    expect(again.code).toBe(1);
    expect(exchanges(again.stderr).find((e) => e.request === 'POST /api/v1/namespaces/default/configmaps')?.received).toBe(PB);
    expect(again.stderr).toMatch(/error: failed to create configmap: configmaps "pb" already exists\n$/);
    expect(await ok(['get', 'configmap', 'pb', '-o', 'jsonpath={.data.a}'])).toBe('b');
  });

  it('auth whoami, auth can-i and create token read their protobuf answers', async () => {
    const whoami = await kubectl(['auth', 'whoami', '-v=8']);
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.stdout).toMatch(/^Username\s+kubernetes-admin$/m);
    expect(exchanges(whoami.stderr)).toContainEqual({ request: 'POST /apis/authentication.k8s.io/v1/selfsubjectreviews', accept: KUBECTL_TYPED_ACCEPT, sent: PB, received: PB });
    const canI = await kubectl(['auth', 'can-i', 'create', 'pods', '-v=8']);
    expect(canI.stdout.trim()).toBe('yes');
    expect(exchanges(canI.stderr)).toContainEqual({ request: 'POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews', accept: KUBECTL_TYPED_ACCEPT, sent: PB, received: PB });
    const token = await kubectl(['create', 'token', 'default', '-v=8']);
    expect(token.code, token.stderr).toBe(0);
    expect(token.stdout).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+\n?$/);
    expect(exchanges(token.stderr)).toContainEqual({ request: 'POST /api/v1/namespaces/default/serviceaccounts/default/token', accept: KUBECTL_TYPED_ACCEPT, sent: PB, received: PB });
  });

  it('get --raw asks for JSON (application/json, */*) and gets JSON, /apis included', async () => {
    const raw = await kubectl(['get', '--raw', '/api/v1/namespaces/default', '-v=8']);
    expect(raw.code, raw.stderr).toBe(0);
    expect(JSON.parse(raw.stdout)).toMatchObject({ kind: 'Namespace', metadata: { name: 'default' } });
    expect(exchanges(raw.stderr)).toEqual([{ request: 'GET /api/v1/namespaces/default', accept: 'application/json, */*', received: 'application/json' }]);
    expect(JSON.parse(await ok(['get', '--raw', '/apis'])).kind).toBe('APIGroupList');
  });

  it('drain: the typed PodList is protobuf, the eviction (a JSON client) JSON', async () => {
    const manifest = [
      'apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: on-a\n  namespace: default\nspec:\n  nodeName: node-a\n  containers:\n  - name: c\n    image: nginx',
    ].join('\n---\n');
    await ok(['apply', '-f', '-'], manifest);
    const drain = await kubectl(['drain', 'node-a', '--force', '--dry-run=server', '-v=8']);
    expect(drain.code, drain.stderr).toBe(0);
    expect(drain.stdout).toContain('evicting pod default/on-a (server dry run)');
    expect(drain.stdout).toContain('node/node-a drained (server dry run)');
    const list = exchanges(drain.stderr).find((e) => e.request === 'GET /api/v1/pods');
    expect(list).toEqual({ request: 'GET /api/v1/pods', accept: KUBECTL_TYPED_ACCEPT, received: PB });
    // drain's eviction client is built for JSON (`application/json, */*`): it gets JSON.
    expect(exchanges(drain.stderr).find((e) => e.request === 'POST /api/v1/namespaces/default/pods/on-a/eviction')).toEqual({
      request: 'POST /api/v1/namespaces/default/pods/on-a/eviction',
      accept: 'application/json, */*',
      sent: 'application/json',
      received: 'application/json',
    });
  });

  it('typed creates of other kinds (namespace, deployment, quota) read back the same through JSON', async () => {
    await ok(['create', 'namespace', 'pbns']);
    await ok(['create', 'deployment', 'web', '--image=nginx', '-n', 'pbns']);
    await ok(['create', 'quota', 'q', '--hard=pods=2,cpu=1500m', '-n', 'pbns']);
    expect(await ok(['get', 'quota', 'q', '-n', 'pbns', '-o', 'jsonpath={.spec.hard.cpu}'])).toBe('1500m');
    expect(await ok(['get', 'deployment', 'web', '-n', 'pbns', '-o', 'jsonpath={.spec.template.spec.containers[0].image}'])).toBe('nginx');
  });
});
