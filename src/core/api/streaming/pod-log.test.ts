// pods/log through the server, against a KubeletConnection double: option
// decoding and validation, container choice, the empty answer for a pod not
// on a node, a node whose kubelet does not answer, the kubelet's refusals,
// and a followed log streaming as the container writes.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { KubeletConnections } from '../../kubelet/connection';
import { FakeKubelet } from './testing/fake-kubelet';

const PODS = '/api/v1/namespaces/default/pods';
let t: TestServer;
let kubelets: KubeletConnections;
let kubelet: FakeKubelet;

const node = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  status: { addresses: [{ type: 'InternalIP', address: '172.18.0.3' }, { type: 'Hostname', address: name }], daemonEndpoints: { kubeletEndpoint: { Port: 10250 } } },
});

const pod = (name: string, containers: string[], extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: containers.map((c) => ({ name: c, image: 'busybox' })), ...extra },
});

beforeEach(async () => {
  kubelets = new KubeletConnections();
  kubelet = new FakeKubelet('worker');
  kubelets.register(kubelet);
  t = await startTestServer({}, undefined, [], { kubeletConnections: kubelets });
  expect((await t.post('/api/v1/nodes', node('worker'))).status).toBe(201);
  expect((await t.post('/api/v1/nodes', node('stopped'))).status).toBe(201);
});
afterEach(async () => {
  await t.close();
});

describe('pods/log', () => {
  it("streams the container's log as text/plain with the options passed to the kubelet", async () => {
    await t.post(PODS, pod('p', ['app'], { nodeName: 'worker' }));
    kubelet.logs.set('default/p/app', 'one\ntwo\n');
    const res = await t.get(`${PODS}/p/log?tailLines=1&timestamps=true&limitBytes=100&previous=false`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.text).toBe('one\ntwo\n');
    const { pod: ref, options } = kubelet.logRequests[0]!;
    expect(ref).toMatchObject({ namespace: 'default', name: 'p' });
    expect(options).toMatchObject({ container: 'app', tailLines: 1, timestamps: true, limitBytes: 100, previous: false, follow: false });
  });

  it('turns sinceSeconds into a time on the cluster clock, and sinceTime into whole seconds', async () => {
    await t.post(PODS, pod('p', ['app'], { nodeName: 'worker' }));
    await t.get(`${PODS}/p/log?sinceSeconds=60`);
    expect(kubelet.logRequests[0]!.options.sinceTimeMs).toBe(t.clock.now() - 60_000);
    await t.get(`${PODS}/p/log?sinceTime=2024-05-01T10:00:00.750Z`);
    expect(kubelet.logRequests[1]!.options.sinceTimeMs).toBe(Date.parse('2024-05-01T10:00:00Z'));
  });

  it('validates the options as PodLogOptions', async () => {
    await t.post(PODS, pod('p', ['app'], { nodeName: 'worker' }));
    const negative = await t.get(`${PODS}/p/log?tailLines=-1`);
    expect(negative.status).toBe(422);
    expect(negative.body.message).toBe('PodLogOptions "p" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0');
    const both = await t.get(`${PODS}/p/log?sinceSeconds=5&sinceTime=2024-05-01T10:00:00Z`);
    expect(both.status).toBe(422);
    expect(both.body.message).toBe('PodLogOptions "p" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
    expect((await t.get(`${PODS}/p/log?limitBytes=0`)).body.message).toBe('PodLogOptions "p" is invalid: limitBytes: Invalid value: 0: must be greater than 0');
    expect((await t.get(`${PODS}/p/log?sinceSeconds=0`)).body.message).toBe('PodLogOptions "p" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0');
    const bad = await t.get(`${PODS}/p/log?tailLines=ten`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('strconv.ParseInt: parsing "ten": invalid syntax');
    expect(kubelet.logRequests).toHaveLength(0);
  });

  it('chooses the container as kube-apiserver does', async () => {
    await t.post(PODS, pod('two', ['a', 'b'], { nodeName: 'worker', initContainers: [{ name: 'i', image: 'busybox' }] }));
    const which = await t.get(`${PODS}/two/log`);
    expect(which.status).toBe(400);
    expect(which.body.message).toBe('a container name must be specified for pod two, choose one of: [i a b]');
    const wrong = await t.get(`${PODS}/two/log?container=c`);
    expect(wrong.body.message).toBe('container c is not valid for pod two');
    expect((await t.get(`${PODS}/two/log?container=i`)).status).toBe(200);
    expect(kubelet.logRequests[0]!.options.container).toBe('i');
    expect((await t.get(`${PODS}/missing/log`)).status).toBe(404);
  });

  it('answers an empty 204 for a pod without a node', async () => {
    await t.post(PODS, pod('pending', ['app']));
    const res = await t.get(`${PODS}/pending/log?follow=true`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(kubelet.logRequests).toHaveLength(0);
  });

  it("passes on the kubelet's refusal and a kubelet that does not answer", async () => {
    await t.post(PODS, pod('p', ['app'], { nodeName: 'worker' }));
    kubelet.waiting.set('default/p/app', 'ContainerCreating');
    const waiting = await t.get(`${PODS}/p/log`);
    expect(waiting.status).toBe(400);
    expect(waiting.body).toMatchObject({ reason: 'BadRequest', message: 'container "app" in pod "p" is waiting to start: ContainerCreating' });

    await t.post(PODS, pod('q', ['app'], { nodeName: 'stopped' }));
    const down = await t.get(`${PODS}/q/log?follow=true&tailLines=5`);
    expect(down.status).toBe(500);
    expect(down.body.reason).toBeUndefined();
    expect(down.body.message).toBe(
      'Get "https://172.18.0.3:10250/containerLogs/default/q/app?follow=true&tailLines=5": dial tcp 172.18.0.3:10250: connect: connection refused',
    );

    await t.post(PODS, pod('r', ['app'], { nodeName: 'gone' }));
    const gone = await t.get(`${PODS}/r/log`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('nodes "gone" not found');
  });

  it('follows: each chunk reaches the client as the container writes it', async () => {
    await t.post(PODS, pod('p', ['app'], { nodeName: 'worker' }));
    kubelet.logs.set('default/p/app', 'first\n');
    const res = await t.server.handle(new Request(`http://kubetab.test${PODS}/p/log?follow=true`));
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decode = (v: Uint8Array | undefined) => new TextDecoder().decode(v);
    expect(decode((await reader.read()).value)).toBe('first\n');
    kubelet.follow('second\n');
    expect(decode((await reader.read()).value)).toBe('second\n');
    kubelet.endFollows();
    expect((await reader.read()).done).toBe(true);
  });
});
