// services/pods/nodes proxy through the server, against a kubelet double
// whose port-forward reaches a small HTTP server in the pod: the Service's
// Endpoints lead to a ready pod and its port, the request is written as
// HTTP/1.1 and the answer streamed back, HTML links are moved under the
// proxy path, and the errors are kube-apiserver's.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { KubeletConnections, KubeletError, type PodRef, type PortStream } from '../../kubelet/connection';
import { FakeKubelet } from '../streaming/testing/fake-kubelet';

const NS = '/api/v1/namespaces/default';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A kubelet whose pods serve HTTP on port 80 (and nothing elsewhere). */
class HttpKubelet extends FakeKubelet {
  readonly requests: string[] = [];
  override async portForward(pod: PodRef, port: number): Promise<PortStream> {
    if (port !== 80) throw new KubeletError(500, `failed to connect to localhost:${port} inside namespace: connection refused`);
    const listeners: ((d: Uint8Array) => void)[] = [];
    let close!: () => void;
    const closed = new Promise<void>((r) => (close = r));
    let request = '';
    return {
      write: (data) => {
        request += decoder.decode(data);
        if (!request.includes('\r\n\r\n')) return;
        this.requests.push(request);
        const path = request.split(' ')[1] ?? '/';
        const body =
          path === '/chunked'
            ? ''
            : `<html><body><a href="/about">about</a> <a href='docs/x'>docs</a> <img src="http://other.example/i.png">${pod.name}</body></html>`;
        queueMicrotask(() => {
          if (path === '/chunked') {
            const head = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n';
            for (const part of [head, '5\r\nhello\r\n', '6\r\n world\r\n', '0\r\n\r\n']) listeners.forEach((l) => l(encoder.encode(part)));
          } else if (path === '/moved') {
            listeners.forEach((l) => l(encoder.encode('HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n')));
          } else {
            listeners.forEach((l) => l(encoder.encode(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: ${encoder.encode(body).length}\r\n\r\n${body}`)));
          }
          close();
        });
      },
      end: () => close(),
      onData: (l) => listeners.push(l),
      closed,
    };
  }
}

let t: TestServer;
let kubelet: HttpKubelet;

beforeEach(async () => {
  const kubelets = new KubeletConnections();
  kubelet = new HttpKubelet('worker');
  kubelets.register(kubelet);
  t = await startTestServer({}, undefined, [], { kubeletConnections: kubelets });
  for (const name of ['worker', 'stopped']) {
    await t.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { addresses: [{ type: 'InternalIP', address: '172.18.0.2' }] } });
  }
  await t.post(`${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-a' }, spec: { nodeName: 'worker', containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] } });
  await t.patch(`${NS}/pods/web-a/status`, { status: { phase: 'Running', podIP: '10.244.1.3', podIPs: [{ ip: '10.244.1.3' }] } }, 'application/merge-patch+json');
});
afterEach(async () => t.close());

async function endpoints(name: string, subsets: unknown[]): Promise<void> {
  await t.post(`${NS}/services`, { metadata: { name }, spec: { ports: [{ name: 'http', port: 80, targetPort: 80 }, { name: 'other', port: 81 }] } });
  expect((await t.post(`${NS}/endpoints`, { metadata: { name }, subsets })).status).toBe(201);
}

const podAddress = { ip: '10.244.1.3', nodeName: 'worker', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-a' } };

describe('services/proxy', () => {
  it('reaches a ready pod of the Service and rewrites its page under the proxy path', async () => {
    await endpoints('web', [{ addresses: [podAddress], ports: [{ name: 'http', port: 80 }, { name: 'other', port: 81 }] }]);
    const res = await t.get(`${NS}/services/web:80/proxy/index.html?x=1`, { 'X-Custom': 'kept', Connection: 'close' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.text).toBe(
      '<html><body><a href="/api/v1/namespaces/default/services/web:80/proxy/about">about</a> <a href="docs/x">docs</a> <img src="http://other.example/i.png">web-a</body></html>',
    );
    const sent = kubelet.requests[0]!;
    expect(sent.startsWith('GET /index.html?x=1 HTTP/1.1\r\n')).toBe(true);
    expect(sent).toContain('X-Forwarded-Uri: /api/v1/namespaces/default/services/web:80/proxy/index.html\r\n');
    expect(sent).toContain('X-Custom: kept\r\n');
    expect(sent).not.toContain('Connection:');
  });

  it('streams a chunked answer and moves a redirect under the proxy path', async () => {
    await endpoints('web', [{ addresses: [podAddress], ports: [{ name: 'http', port: 80 }] }]);
    const chunked = await t.get(`${NS}/services/web:http/proxy/chunked`);
    expect(chunked.text).toBe('hello world');
    const moved = await t.get(`${NS}/services/web:http/proxy/moved`);
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toBe('/api/v1/namespaces/default/services/web:http/proxy/elsewhere');
  });

  it('redirects a proxy without path to the one with a slash', async () => {
    await endpoints('web', [{ addresses: [podAddress], ports: [{ name: 'http', port: 80 }] }]);
    const res = await t.request('GET', `${NS}/services/web:http/proxy?a=b`);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`${NS}/services/web:http/proxy/?a=b`);
  });

  it("answers as kube-apiserver when nothing can be reached", async () => {
    await endpoints('web', [{ notReadyAddresses: [podAddress], ports: [{ name: 'http', port: 80 }] }]);
    let res = await t.get(`${NS}/services/web/proxy/`);
    expect(res.status).toBe(503);
    expect(res.body.message).toBe('no endpoints available for service "web"');
    res = await t.get(`${NS}/services/web:8080/proxy/`);
    expect(res.body.message).toBe('no service port 8080 found for service "web"');
    await t.post(`${NS}/services`, { metadata: { name: 'lonely' }, spec: { ports: [{ port: 80 }] } });
    res = await t.get(`${NS}/services/lonely/proxy/`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('endpoints "lonely" not found');
  });

  it('reports a refused connection', async () => {
    await endpoints('web', [{ addresses: [podAddress], ports: [{ name: 'other', port: 81 }] }]);
    const res = await t.get(`${NS}/services/web:other/proxy/`);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ reason: 'ServiceUnavailable', message: 'error trying to reach service: dial tcp 10.244.1.3:81: connect: connection refused' });
  });
});

describe('pods/proxy', () => {
  it("reaches the pod's first container port, and refuses a pod without IP", async () => {
    const res = await t.get(`${NS}/pods/web-a/proxy/`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('web-a');
    await t.post(`${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pending' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    const pending = await t.get(`${NS}/pods/pending/proxy/`);
    expect(pending.status).toBe(400);
    expect(pending.body.message).toBe('address not allowed');
  });
});

describe('nodes/proxy', () => {
  it("serves the kubelet's endpoints", async () => {
    const health = await t.get('/api/v1/nodes/worker/proxy/healthz');
    expect(health.status).toBe(200);
    expect(health.text).toBe('ok');
    const pods = await t.get('/api/v1/nodes/worker/proxy/pods');
    expect(pods.body.kind).toBe('PodList');
    expect(pods.body.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(['web-a']);
    expect((await t.get('/api/v1/nodes/worker/proxy/nothing')).text).toBe('404 page not found\n');
    const stopped = await t.get('/api/v1/nodes/stopped/proxy/healthz');
    expect(stopped.status).toBe(503);
    expect(stopped.body.message).toBe('error trying to reach service: dial tcp 172.18.0.2:10250: connect: connection refused');
  });
});
