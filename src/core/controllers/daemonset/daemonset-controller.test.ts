// The DaemonSet controller through the real server, with the scheduler
// running and the test playing the kubelet: a pod on each worker but not on
// the tainted control plane (unless tolerated), each pinned by node affinity
// and carrying the daemon tolerations; status counts; a rolling update one
// node at a time; ControllerRevisions.

import { afterEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';
import { createKindNodes, finishTerminating, markRunningReady } from '../statefulset/testing/stand-in-kubelet';

const NS = 'default';
const DS = `/apis/apps/v1/namespaces/${NS}/daemonsets`;
const PODS = `/api/v1/namespaces/${NS}/pods`;

let bed: ControllerTestBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

async function start(): Promise<ControllerTestBed> {
  bed = await startControllerTestBed({ enabled: ['daemonset', 'kube-scheduler'] });
  await createKindNodes(bed.ts);
  await bed.idle();
  return bed;
}

const agent = (podSpec: Record<string, unknown> = {}) => ({
  metadata: { name: 'agent' },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'busybox:1.36' }], ...podSpec } },
  },
});

interface Pod {
  metadata: { name: string; labels: Record<string, string>; deletionTimestamp?: string; uid: string };
  spec: { nodeName?: string; tolerations: unknown[]; affinity: unknown; containers: { image: string }[] };
}

async function livePods(b: ControllerTestBed): Promise<Pod[]> {
  return ((await b.ts.get(PODS)).body.items as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
}

async function markAllReady(b: ControllerTestBed): Promise<void> {
  for (const pod of await livePods(b)) await markRunningReady(b.ts, NS, pod.metadata.name);
  await b.idle();
}

describe('DaemonSet controller', () => {
  it('runs one pod on each worker, not on the tainted control plane, pinned by node affinity', async () => {
    const b = await start();
    expect((await b.ts.post(DS, agent())).status).toBe(201);
    await b.idle();
    const pods = await livePods(b);
    expect(pods.map((p) => p.spec.nodeName).sort()).toEqual(['kubetab-worker', 'kubetab-worker2']);
    const pod = pods.find((p) => p.spec.nodeName === 'kubetab-worker')!;
    expect(pod.metadata.name).toMatch(/^agent-[a-z0-9]{5}$/);
    expect(pod.spec.affinity).toEqual({
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['kubetab-worker'] }] }] } },
    });
    expect(pod.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
    ]);

    const revisions = (await b.ts.get(`/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items;
    expect(revisions).toHaveLength(1);
    const hash = revisions[0].metadata.labels['controller-revision-hash'];
    expect(revisions[0].metadata.name).toBe(`agent-${hash}`);
    expect(revisions[0].revision).toBe(1);
    expect(pod.metadata.labels).toMatchObject({ app: 'agent', 'controller-revision-hash': hash });

    let ds = (await b.ts.get(`${DS}/agent`)).body;
    expect(ds.status).toEqual({ currentNumberScheduled: 2, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 0, observedGeneration: 1, updatedNumberScheduled: 2, numberUnavailable: 2 });
    await markAllReady(b);
    ds = (await b.ts.get(`${DS}/agent`)).body;
    expect(ds.status).toEqual({ currentNumberScheduled: 2, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 2, observedGeneration: 1, updatedNumberScheduled: 2, numberAvailable: 2 });

    const events = (await b.ts.get(`/api/v1/namespaces/${NS}/events`)).body.items.filter((e: { source: { component: string } }) => e.source.component === 'daemonset-controller');
    expect(events.map((e: { reason: string; message: string }) => `${e.reason} ${e.message}`).sort()).toEqual(pods.map((p) => `SuccessfulCreate Created pod: ${p.metadata.name}`).sort());
  });

  it('runs on the control plane too when the template tolerates its taint', async () => {
    const b = await start();
    await b.ts.post(DS, agent({ tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }] }));
    await b.idle();
    expect((await livePods(b)).map((p) => p.spec.nodeName).sort()).toEqual(['kubetab-control-plane', 'kubetab-worker', 'kubetab-worker2']);
    expect((await b.ts.get(`${DS}/agent`)).body.status.desiredNumberScheduled).toBe(3);
  });

  it('follows node labels: a node selector picks nodes, and a node that stops matching loses its pod', async () => {
    const b = await start();
    await b.ts.post(DS, agent({ nodeSelector: { disk: 'ssd' } }));
    await b.idle();
    expect(await livePods(b)).toEqual([]);
    await b.ts.patch('/api/v1/nodes/kubetab-worker2', { metadata: { labels: { disk: 'ssd' } } }, 'application/merge-patch+json');
    await b.idle();
    expect((await livePods(b)).map((p) => p.spec.nodeName)).toEqual(['kubetab-worker2']);
    await b.ts.patch('/api/v1/nodes/kubetab-worker2', { metadata: { labels: { disk: null } } }, 'application/merge-patch+json');
    await b.idle();
    await finishTerminating(b.ts, NS);
    await b.idle();
    expect(await livePods(b)).toEqual([]);
    expect((await b.ts.get(`${DS}/agent`)).body.status).toMatchObject({ desiredNumberScheduled: 0, currentNumberScheduled: 0 });
  });

  it('rolls a new template out one node at a time (maxUnavailable 1)', async () => {
    const b = await start();
    await b.ts.post(DS, agent());
    await b.idle();
    await markAllReady(b);
    const oldHash = (await livePods(b))[0]!.metadata.labels['controller-revision-hash'];

    await b.ts.patch(`${DS}/agent`, { spec: { template: { spec: { containers: [{ name: 'agent', image: 'busybox:1.37' }] } } } }, 'application/strategic-merge-patch+json');
    await b.idle();
    const terminating = ((await b.ts.get(PODS)).body.items as Pod[]).filter((p) => p.metadata.deletionTimestamp);
    expect(terminating).toHaveLength(1);
    let ds = (await b.ts.get(`${DS}/agent`)).body;
    expect(ds.status).toMatchObject({ observedGeneration: 2, desiredNumberScheduled: 2 });
    // Zero, so left out as kube's omitempty does.
    expect(ds.status.updatedNumberScheduled).toBeUndefined();

    // The kubelet finishes the old pod; a new one takes its node; once it is ready the other node follows.
    for (let round = 0; round < 2; round++) {
      await finishTerminating(b.ts, NS);
      await b.idle();
      await markAllReady(b);
    }
    await finishTerminating(b.ts, NS);
    await b.idle();
    await markAllReady(b);
    const pods = await livePods(b);
    expect(pods).toHaveLength(2);
    const newHash = pods[0]!.metadata.labels['controller-revision-hash'];
    expect(newHash).not.toBe(oldHash);
    expect(pods.every((p) => p.metadata.labels['controller-revision-hash'] === newHash && p.spec.containers[0]!.image === 'busybox:1.37')).toBe(true);
    expect(pods.map((p) => p.spec.nodeName).sort()).toEqual(['kubetab-worker', 'kubetab-worker2']);
    ds = (await b.ts.get(`${DS}/agent`)).body;
    expect(ds.status).toMatchObject({ desiredNumberScheduled: 2, currentNumberScheduled: 2, updatedNumberScheduled: 2, numberReady: 2, numberAvailable: 2 });
    const revisions = (await b.ts.get(`/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items;
    expect(revisions.map((r: { metadata: { name: string }; revision: number }) => [r.metadata.name, r.revision]).sort()).toEqual([[`agent-${oldHash}`, 1], [`agent-${newHash}`, 2]].sort());
  });
});
