// The ReplicaSet and ReplicationController controllers against a real
// KubeTab server, observed as a client would: pods created from the
// template with kube's names, labels, owner references and events; status
// counts as pods become Ready (this test plays the kubelet through
// pods/status); scale down in kube's order; adoption and release by labels;
// ReplicaFailure when quota refuses a pod; minReadySeconds on the clock.

import { afterEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';

let bed: ControllerTestBed;
afterEach(async () => bed?.close());

const NS = '/api/v1/namespaces/default';
const RS = '/apis/apps/v1/namespaces/default/replicasets';
const MERGE = 'application/merge-patch+json';

async function start(...more: string[]): Promise<void> {
  bed = await startControllerTestBed({ enabled: ['replicaset-controller', 'replicationcontroller-controller', 'garbage-collector-controller', ...more] });
}

function replicaSet(name: string, replicas: number, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      ...extra,
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

async function podsOf(app: string): Promise<Any[]> {
  const res = await bed.ts.get(`${NS}/pods?labelSelector=app%3D${app}`);
  return res.body.items;
}

/** Plays the kubelet: the pod runs and its Ready condition turns True now (on the cluster clock). */
async function markReady(pod: Any, ready = true): Promise<void> {
  const now = new Date(bed.ts.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const status = {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: now, lastProbeTime: null }],
  };
  const res = await bed.ts.patch(`${NS}/pods/${pod.metadata.name}/status`, { status }, MERGE);
  expect(res.status).toBe(200);
}

async function events(name: string): Promise<Any[]> {
  const res = await bed.ts.get(`${NS}/events?fieldSelector=involvedObject.name%3D${name}`);
  return res.body.items;
}

describe('replicaset controller', () => {
  it('creates the pods of a ReplicaSet from its template, owned by it, with events', async () => {
    await start();
    expect((await bed.ts.post(RS, replicaSet('web', 3))).status).toBe(201);
    await bed.idle();
    const pods = await podsOf('web');
    expect(pods).toHaveLength(3);
    const rs = (await bed.ts.get(`${RS}/web`)).body;
    for (const pod of pods) {
      expect(pod.metadata.generateName).toBe('web-');
      expect(pod.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
      expect(pod.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    }
    expect(rs.status).toMatchObject({ replicas: 3, fullyLabeledReplicas: 3, observedGeneration: 1 });
    expect(rs.status.readyReplicas ?? 0).toBe(0);
    const evs = await events('web');
    expect(evs.filter((e: Any) => e.reason === 'SuccessfulCreate').map((e: Any) => e.message).sort()).toEqual(pods.map((p: Any) => `Created pod: ${p.metadata.name}`).sort());
    expect(evs[0].source).toEqual({ component: 'replicaset-controller' });
  });

  it('counts Ready and available pods, waiting minReadySeconds on the cluster clock', async () => {
    await start();
    await bed.ts.post(RS, replicaSet('web', 2, { minReadySeconds: 10 }));
    await bed.idle();
    for (const pod of await podsOf('web')) await markReady(pod);
    await bed.idle();
    let rs = (await bed.ts.get(`${RS}/web`)).body;
    expect(rs.status).toMatchObject({ replicas: 2, readyReplicas: 2 });
    expect(rs.status.availableReplicas).toBeUndefined();
    bed.ts.clock.advance(11_000);
    await bed.idle();
    rs = (await bed.ts.get(`${RS}/web`)).body;
    expect(rs.status).toMatchObject({ replicas: 2, readyReplicas: 2, availableReplicas: 2 });
  });

  it('scales down deleting not-ready pods first, and records SuccessfulDelete', async () => {
    await start();
    await bed.ts.post(RS, replicaSet('web', 3));
    await bed.idle();
    const pods = await podsOf('web');
    await markReady(pods[0]);
    await markReady(pods[2]);
    await bed.idle();
    expect((await bed.ts.patch(`${RS}/web/scale`, { spec: { replicas: 2 } }, MERGE)).status).toBe(200);
    await bed.idle();
    const left = (await podsOf('web')).map((p: Any) => p.metadata.name).sort();
    expect(left).toEqual([pods[0].metadata.name, pods[2].metadata.name].sort());
    const evs = await events('web');
    expect(evs.some((e: Any) => e.reason === 'SuccessfulDelete' && e.message === `Deleted pod: ${pods[1].metadata.name}`)).toBe(true);
  });

  it('replaces a deleted pod and never over-creates under a burst of events', async () => {
    await start();
    await bed.ts.post(RS, replicaSet('web', 5));
    await bed.idle();
    const pods = await podsOf('web');
    await Promise.all(pods.slice(0, 3).map((p: Any) => bed.ts.del(`${NS}/pods/${p.metadata.name}`)));
    await bed.idle();
    expect(await podsOf('web')).toHaveLength(5);
  });

  it('adopts a matching orphan and releases a pod whose labels stop matching', async () => {
    await start();
    await bed.ts.post(`${NS}/pods`, { metadata: { name: 'orphan', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await bed.ts.post(RS, replicaSet('web', 2));
    await bed.idle();
    const rs = (await bed.ts.get(`${RS}/web`)).body;
    const orphan = (await bed.ts.get(`${NS}/pods/orphan`)).body;
    expect(orphan.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(await podsOf('web')).toHaveLength(2);

    await bed.ts.patch(`${NS}/pods/orphan`, { metadata: { labels: { app: 'other' } } }, MERGE);
    await bed.idle();
    const released = (await bed.ts.get(`${NS}/pods/orphan`)).body;
    expect(released.metadata.ownerReferences ?? []).toEqual([]);
    expect(await podsOf('web')).toHaveLength(2);
  });

  it('reports ReplicaFailure FailedCreate when quota refuses a pod, and the FailedCreate event', async () => {
    await start('resourcequota');
    await bed.ts.post(`${NS}/resourcequotas`, { metadata: { name: 'q' }, spec: { hard: { pods: '1' } } });
    await bed.idle();
    await bed.ts.post(RS, replicaSet('web', 2));
    await bed.idle();
    const rs = (await bed.ts.get(`${RS}/web`)).body;
    expect(rs.status.replicas).toBe(1);
    const failure = rs.status.conditions.find((c: Any) => c.type === 'ReplicaFailure');
    expect(failure).toMatchObject({ status: 'True', reason: 'FailedCreate' });
    expect(failure.message).toContain('exceeded quota: q');
    const evs = await events('web');
    const failed = evs.find((e: Any) => e.reason === 'FailedCreate');
    expect(failed.type).toBe('Warning');
    expect(failed.message).toMatch(/^Error creating: pods "web-[a-z0-9]*" is forbidden: exceeded quota: q/);

    // Room again: the pod is created and the condition goes.
    await bed.ts.del(`${NS}/resourcequotas/q`);
    await bed.ts.patch(`${RS}/web`, { metadata: { annotations: { nudge: '1' } } }, MERGE);
    await bed.idle();
    const after = (await bed.ts.get(`${RS}/web`)).body;
    expect(after.status.replicas).toBe(2);
    expect((after.status.conditions ?? []).some((c: Any) => c.type === 'ReplicaFailure')).toBe(false);
  });

  it('runs ReplicationControllers the same way, with their own event source', async () => {
    await start();
    const rc = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'legacy' },
      spec: { replicas: 2, selector: { app: 'legacy' }, template: { metadata: { labels: { app: 'legacy' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    expect((await bed.ts.post(`${NS}/replicationcontrollers`, rc)).status).toBe(201);
    await bed.idle();
    const pods = await podsOf('legacy');
    expect(pods).toHaveLength(2);
    expect(pods[0].metadata.ownerReferences[0]).toMatchObject({ apiVersion: 'v1', kind: 'ReplicationController', name: 'legacy', controller: true });
    await markReady(pods[0]);
    await bed.idle();
    const got = (await bed.ts.get(`${NS}/replicationcontrollers/legacy`)).body;
    expect(got.status).toMatchObject({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1 });
    const evs = await events('legacy');
    expect(evs[0].source.component).toBe('replication-controller');
  });

  it('deletes the pods with their ReplicaSet (garbage collector)', async () => {
    await start();
    await bed.ts.post(RS, replicaSet('web', 2));
    await bed.idle();
    await bed.ts.del(`${RS}/web`);
    await bed.idle();
    expect(await podsOf('web')).toHaveLength(0);
  });
});
