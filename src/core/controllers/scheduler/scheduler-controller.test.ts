// The default-scheduler stand-in (issue "Every kind of a 1.32 server": Pod
// status.phase Pending with PodScheduled false until something schedules
// it): through HTTP, an unschedulable pod gets kube-scheduler's condition and
// FailedScheduling event; a fitting Ready node gets it bound, with the
// Scheduled event; the filter reasons and their message are kube's.

import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../clock';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

const PODS = '/api/v1/namespaces/default/pods';
/** A kind node's size: the scheduler counts requests and pods against allocatable. */
const SIZE = { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' };
const pod = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });
const node = (name: string, opts: { ready?: 'True' | 'False' | undefined; labels?: Record<string, string>; unschedulable?: boolean; taints?: unknown[] } = {}) => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(opts.labels ?? {}) } },
  spec: { ...(opts.unschedulable ? { unschedulable: true } : {}), ...(opts.taints ? { taints: opts.taints } : {}) },
  status: {
    capacity: SIZE,
    allocatable: SIZE,
    ...(opts.ready === undefined && 'ready' in opts ? {} : { conditions: [{ type: 'Ready', status: opts.ready ?? 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }] }),
  },
});

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

async function start(): Promise<TestServer> {
  s = await startTestServer({}, manualClock(), ['kube-scheduler'], { nodes: [] });
  return s;
}

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 3000): Promise<T> {
  const end = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 20));
    v = await read();
  }
  return v;
}

const scheduledCondition = (p: { status?: { conditions?: { type: string }[] } }) => p.status?.conditions?.find((c) => c.type === 'PodScheduled');

describe('scheduler', () => {
  it('leaves a pod Pending with PodScheduled=False when there is no node, and says so in an event', async () => {
    const t = await start();
    await t.post(PODS, pod('p'));
    const got = await eventually(
      async () => (await t.get(`${PODS}/p`)).body,
      (p) => scheduledCondition(p) !== undefined,
    );
    expect(got.status.phase).toBe('Pending');
    expect(scheduledCondition(got)).toEqual({
      type: 'PodScheduled',
      status: 'False',
      lastProbeTime: null,
      lastTransitionTime: '2024-12-11T12:00:00Z',
      reason: 'Unschedulable',
      message: 'no nodes available to schedule pods',
    });
    const events = await eventually(
      async () => (await t.get('/apis/events.k8s.io/v1/namespaces/default/events')).body.items,
      (items: unknown[]) => items.length > 0,
    );
    expect(events[0]).toMatchObject({
      reason: 'FailedScheduling',
      type: 'Warning',
      action: 'Scheduling',
      reportingController: 'default-scheduler',
      note: 'no nodes available to schedule pods',
      regarding: { kind: 'Pod', name: 'p', namespace: 'default', apiVersion: 'v1' },
    });
  });

  it('binds a waiting pod once a Ready node appears, and records Scheduled', async () => {
    const t = await start();
    await t.post(PODS, pod('p'));
    await eventually(async () => (await t.get(`${PODS}/p`)).body, (p) => scheduledCondition(p) !== undefined);
    expect((await t.post('/api/v1/nodes', node('node-1'))).status).toBe(201);
    // The pod waits out its back-off (1 s after the first failure) on the cluster clock.
    t.clock.advance(1000);
    const bound = await eventually(async () => (await t.get(`${PODS}/p`)).body, (p) => p.spec.nodeName !== undefined);
    expect(bound.spec.nodeName).toBe('node-1');
    expect(scheduledCondition(bound)).toMatchObject({ type: 'PodScheduled', status: 'True' });
    const events = await eventually(
      async () => (await t.get('/apis/events.k8s.io/v1/namespaces/default/events')).body.items as { reason: string; note: string }[],
      (items) => items.some((e) => e.reason === 'Scheduled'),
    );
    expect(events.find((e) => e.reason === 'Scheduled')!.note).toBe('Successfully assigned default/p to node-1');
  });

  it("explains with kube's message why no node fits", async () => {
    const t = await start();
    await t.post('/api/v1/nodes', node('ready-1', { labels: { disk: 'hdd' } }));
    await t.post('/api/v1/nodes', node('ready-2', { labels: { disk: 'hdd' } }));
    await t.post('/api/v1/nodes', node('down', { ready: 'False', labels: { disk: 'ssd' } }));
    await t.post('/api/v1/nodes', node('cordoned', { unschedulable: true, labels: { disk: 'ssd' } }));
    await t.post(PODS, pod('p', { nodeSelector: { disk: 'ssd' } }));
    const got = await eventually(async () => (await t.get(`${PODS}/p`)).body, (p) => scheduledCondition(p) !== undefined);
    expect((scheduledCondition(got) as { message?: string }).message).toBe(
      "0/4 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 1 node(s) were unschedulable, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
    );
    expect(got.spec.nodeName).toBeUndefined();
  });

  it('places pods on the node with the fewest pods, honouring nodeSelector and tolerations', async () => {
    const t = await start();
    await t.post('/api/v1/nodes', node('a'));
    await t.post('/api/v1/nodes', node('b'));
    await t.post('/api/v1/nodes', node('tainted', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }));
    await t.post(PODS, pod('one'));
    await eventually(async () => (await t.get(`${PODS}/one`)).body, (p) => p.spec.nodeName !== undefined);
    await t.post(PODS, pod('two'));
    const two = await eventually(async () => (await t.get(`${PODS}/two`)).body, (p) => p.spec.nodeName !== undefined);
    const one = (await t.get(`${PODS}/one`)).body;
    expect([one.spec.nodeName, two.spec.nodeName].sort()).toEqual(['a', 'b']);
    await t.post(PODS, pod('gpu', { nodeSelector: { 'kubernetes.io/hostname': 'tainted' }, tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }));
    const gpu = await eventually(async () => (await t.get(`${PODS}/gpu`)).body, (p) => p.spec.nodeName !== undefined);
    expect(gpu.spec.nodeName).toBe('tainted');
  });

  it('leaves pods of another scheduler, gated pods and bound pods alone', async () => {
    const t = await start();
    await t.post(PODS, pod('other', { schedulerName: 'my-scheduler' }));
    await t.post(PODS, pod('gated', { schedulingGates: [{ name: 'example.com/wait' }] }));
    await t.post(PODS, pod('bound', { nodeName: 'somewhere' }));
    await t.post(PODS, pod('mine'));
    await eventually(async () => (await t.get(`${PODS}/mine`)).body, (p) => scheduledCondition(p) !== undefined);
    await t.server.idle();
    expect((await t.get(`${PODS}/other`)).body.status.conditions).toBeUndefined();
    expect(scheduledCondition((await t.get(`${PODS}/gated`)).body)).toMatchObject({ reason: 'SchedulingGated' });
    expect((await t.get(`${PODS}/bound`)).body.status.conditions).toBeUndefined();
  });
});
