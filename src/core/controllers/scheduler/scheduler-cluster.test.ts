// The scheduler through the real server on a kind-shaped cluster (a tainted
// control plane and two workers of 4 cpu, 8Gi, 110 pods): what a client sees
// — spec.nodeName, the PodScheduled condition with kube's exact message, the
// events — for requests, taints, selectors, pod (anti-)affinity, spreading,
// host ports, volumes, preemption, and a burst of pods. Waits are on the
// cluster Clock and on idle(), never on sleeps.

import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../clock';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

const NS = '/api/v1/namespaces/default';
const SIZE = { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' };
const CP_TAINTED =
  '1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }';

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

function node(name: string, controlPlane = false) {
  return {
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...(controlPlane ? { 'node-role.kubernetes.io/control-plane': '' } : {}) } },
    spec: controlPlane ? { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } : {},
    status: { capacity: SIZE, allocatable: SIZE, conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }] },
  };
}

async function kindCluster(controllers = ['kube-scheduler']): Promise<TestServer> {
  s = await startTestServer({}, manualClock(), controllers, { nodes: [] });
  for (const n of [node('kubetab-control-plane', true), node('kubetab-worker'), node('kubetab-worker2')]) expect((await s.post('/api/v1/nodes', n)).status).toBe(201);
  await s.server.idle();
  return s;
}

type Spec = Record<string, unknown>;
const container = (cpu?: string, extra: Spec = {}) => ({ name: 'c', image: 'nginx', ...(cpu ? { resources: { requests: { cpu } } } : {}), ...extra });
const podBody = (name: string, spec: Spec = {}, labels?: Record<string, string>) => ({ metadata: { name, ...(labels ? { labels } : {}) }, spec: { containers: [container()], ...spec } });

async function create(t: TestServer, name: string, spec: Spec = {}, labels?: Record<string, string>): Promise<void> {
  const res = await t.post(`${NS}/pods`, podBody(name, spec, labels));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const get = async (t: TestServer, name: string): Promise<any> => (await t.get(`${NS}/pods/${name}`)).body;
const nodeOf = async (t: TestServer, name: string): Promise<string | undefined> => (await get(t, name)).spec.nodeName;
const condition = async (t: TestServer, name: string) => ((await get(t, name)).status.conditions ?? []).find((c: { type: string }) => c.type === 'PodScheduled');
const events = async (t: TestServer) => (await t.get('/apis/events.k8s.io/v1/namespaces/default/events')).body.items as { reason: string; note: string; regarding: { name: string }; series?: { count: number } }[];

describe('scheduling on a kind-shaped cluster', () => {
  it('fills the workers by requests, then explains exactly why nothing fits, and retries when a pod goes away', async () => {
    const t = await kindCluster();
    await create(t, 'a', { containers: [container('3')] });
    await create(t, 'b', { containers: [container('3')] });
    await t.server.idle();
    expect([await nodeOf(t, 'a'), await nodeOf(t, 'b')].sort()).toEqual(['kubetab-worker', 'kubetab-worker2']);
    await create(t, 'c', { containers: [container('3')] });
    await t.server.idle();
    const message = `0/3 nodes are available: ${CP_TAINTED}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`;
    expect(await condition(t, 'c')).toMatchObject({ status: 'False', reason: 'Unschedulable', message, lastProbeTime: null });
    const failed = (await events(t)).find((e) => e.reason === 'FailedScheduling' && e.regarding.name === 'c');
    expect(failed?.note).toBe(message);
    expect(await nodeOf(t, 'c')).toBeUndefined();

    // A freed worker: the waiting pod is retried once its back-off (1 s) has passed on the clock.
    const freed = await nodeOf(t, 'a');
    expect((await t.del(`${NS}/pods/a`, { gracePeriodSeconds: 0 })).status).toBe(200);
    await t.server.idle();
    expect(await nodeOf(t, 'c')).toBeUndefined();
    t.clock.advance(1000);
    await t.server.idle();
    expect(await nodeOf(t, 'c')).toBe(freed);
    const scheduled = (await events(t)).find((e) => e.reason === 'Scheduled' && e.regarding.name === 'c');
    expect(scheduled?.note).toBe(`Successfully assigned default/c to ${freed}`);
  });

  it('honours tolerations and nodeSelector', async () => {
    const t = await kindCluster();
    const onControlPlane = { nodeSelector: { 'node-role.kubernetes.io/control-plane': '' } };
    await create(t, 'cp', { ...onControlPlane, tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }] });
    await create(t, 'no-toleration', onControlPlane);
    await create(t, 'nowhere', { nodeSelector: { disktype: 'ssd' } });
    await t.server.idle();
    expect(await nodeOf(t, 'cp')).toBe('kubetab-control-plane');
    expect((await condition(t, 'no-toleration')).message).toBe(
      `0/3 nodes are available: ${CP_TAINTED}, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.`,
    );
    expect((await condition(t, 'nowhere')).message).toBe(
      `0/3 nodes are available: ${CP_TAINTED}, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.`,
    );
    // Labelling a worker is a node update that lets the pod in (after its back-off).
    expect((await t.patch('/api/v1/nodes/kubetab-worker2', { metadata: { labels: { disktype: 'ssd' } } }, 'application/merge-patch+json')).status).toBe(200);
    t.clock.advance(1000);
    await t.server.idle();
    expect(await nodeOf(t, 'nowhere')).toBe('kubetab-worker2');
  });

  it('retries a pod whose own spec changed (a toleration added), and folds repeated failures into an event series', async () => {
    const t = await kindCluster();
    await create(t, 'admin', { nodeSelector: { 'node-role.kubernetes.io/control-plane': '' } });
    await t.server.idle();
    expect((await condition(t, 'admin')).reason).toBe('Unschedulable');
    // Another node change that does not help: a second attempt after the back-off, the same message.
    expect((await t.patch('/api/v1/nodes/kubetab-worker', { metadata: { labels: { extra: 'x' } } }, 'application/merge-patch+json')).status).toBe(200);
    t.clock.advance(1000);
    await t.server.idle();
    expect((await t.patch('/api/v1/nodes/kubetab-worker', { metadata: { labels: { extra: 'y' } } }, 'application/merge-patch+json')).status).toBe(200);
    t.clock.advance(2000);
    await t.server.idle();
    const failures = (await events(t)).filter((e) => e.reason === 'FailedScheduling' && e.regarding.name === 'admin');
    expect(failures.some((e) => e.series?.count === 2)).toBe(true);
    const toleration = { tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }] };
    expect((await t.patch(`${NS}/pods/admin`, { spec: toleration }, 'application/strategic-merge-patch+json')).status).toBe(200);
    t.clock.advance(4000);
    await t.server.idle();
    expect(await nodeOf(t, 'admin')).toBe('kubetab-control-plane');
  });

  it('keeps pods with required anti-affinity apart and pods with affinity together', async () => {
    const t = await kindCluster();
    const apart = { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' }] } } };
    for (const name of ['db-0', 'db-1', 'db-2']) await create(t, name, apart, { app: 'db' });
    await t.server.idle();
    expect([await nodeOf(t, 'db-0'), await nodeOf(t, 'db-1')].sort()).toEqual(['kubetab-worker', 'kubetab-worker2']);
    expect((await condition(t, 'db-2')).message).toBe(
      `0/3 nodes are available: ${CP_TAINTED}, 2 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`,
    );
    const near = { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' }] } } };
    await create(t, 'sidecar', { ...near, nodeSelector: { 'kubernetes.io/hostname': await nodeOf(t, 'db-1') } });
    await create(t, 'lost', { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'nothing' } }, topologyKey: 'kubernetes.io/hostname' }] } } });
    await t.server.idle();
    expect(await nodeOf(t, 'sidecar')).toBe(await nodeOf(t, 'db-1'));
    expect((await condition(t, 'lost')).message).toBe(
      `0/3 nodes are available: ${CP_TAINTED}, 2 node(s) didn't match pod affinity rules. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.`,
    );
  });

  it('spreads the replicas a Service selects over the workers', async () => {
    const t = await kindCluster();
    expect((await t.post(`${NS}/services`, { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } })).status).toBe(201);
    await t.server.idle();
    for (let i = 0; i < 6; i++) await create(t, `web-${i}`, {}, { app: 'web' });
    await t.server.idle();
    const placed = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => nodeOf(t, `web-${i}`)));
    expect(placed.filter((n) => n === 'kubetab-worker')).toHaveLength(3);
    expect(placed.filter((n) => n === 'kubetab-worker2')).toHaveLength(3);
  });

  it('a burst of pods never overcommits a node: the scheduler counts pods it is still binding', async () => {
    const t = await kindCluster();
    for (let i = 0; i < 60; i++) await create(t, `burst-${i}`, { containers: [container('150m')] });
    await t.server.idle();
    const items = (await t.get(`${NS}/pods`)).body.items as { spec: { nodeName?: string } }[];
    const per = (n: string) => items.filter((p) => p.spec.nodeName === n).length;
    // 4000m / 150m = 26 pods per worker.
    expect([per('kubetab-worker'), per('kubetab-worker2'), per('kubetab-control-plane')]).toEqual([26, 26, 0]);
    const waiting = items.filter((p) => !p.spec.nodeName);
    expect(waiting).toHaveLength(8);
  });

  it('host ports: one pod per node and port', async () => {
    const t = await kindCluster();
    const port = { containers: [container(undefined, { ports: [{ containerPort: 80, hostPort: 8080 }] })] };
    for (const name of ['p1', 'p2', 'p3']) await create(t, name, port);
    await t.server.idle();
    expect([await nodeOf(t, 'p1'), await nodeOf(t, 'p2')].sort()).toEqual(['kubetab-worker', 'kubetab-worker2']);
    expect((await condition(t, 'p3')).message).toBe(
      `0/3 nodes are available: ${CP_TAINTED}, 2 node(s) didn't have free ports for the requested pod ports. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`,
    );
  });

  it('claims: a missing one keeps the pod waiting; a WaitForFirstConsumer one learns the chosen node, and the pod is bound once the claim is', async () => {
    const t = await kindCluster();
    const withClaim = (claimName: string) => ({ volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] });
    await create(t, 'needs-missing', withClaim('missing'));
    await t.server.idle();
    expect((await condition(t, 'needs-missing')).message).toBe(
      '0/3 nodes are available: persistentvolumeclaim "missing" not found. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    expect((await t.post('/apis/storage.k8s.io/v1/storageclasses', { metadata: { name: 'local' }, provisioner: 'rancher.io/local-path', volumeBindingMode: 'WaitForFirstConsumer' })).status).toBe(201);
    const claim = { metadata: { name: 'data' }, spec: { storageClassName: 'local', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    expect((await t.post(`${NS}/persistentvolumeclaims`, claim)).status).toBe(201);
    await create(t, 'needs-data', withClaim('data'));
    await t.server.idle();
    // PreBind: the claim learns the node; the pod waits for the PV controller to bind it.
    expect((await t.get(`${NS}/persistentvolumeclaims/data`)).body.metadata.annotations['volume.kubernetes.io/selected-node']).toBe('kubetab-worker');
    t.clock.advance(5000);
    await t.server.idle();
    expect(await nodeOf(t, 'needs-data')).toBeUndefined();
    // What the PV controller does once the provisioner has made the volume.
    const pv = {
      metadata: { name: 'pvc-data' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], storageClassName: 'local', hostPath: { path: '/var/local-path-provisioner/pvc-data' }, claimRef: { namespace: 'default', name: 'data' } },
    };
    expect((await t.post('/api/v1/persistentvolumes', pv)).status).toBe(201);
    const bound = await t.patch(`${NS}/persistentvolumeclaims/data`, { metadata: { annotations: { 'pv.kubernetes.io/bind-completed': 'yes' } }, spec: { volumeName: 'pvc-data' } }, 'application/merge-patch+json');
    expect(bound.status).toBe(200);
    await t.server.idle();
    t.clock.advance(1000);
    await t.server.idle();
    expect(await nodeOf(t, 'needs-data')).toBe('kubetab-worker');
  });

  it('claims: a provisioning that fails (the selected node dropped) or never ends sends the pod back with SchedulerError', async () => {
    const t = await kindCluster();
    expect((await t.post('/apis/storage.k8s.io/v1/storageclasses', { metadata: { name: 'local' }, provisioner: 'rancher.io/local-path', volumeBindingMode: 'WaitForFirstConsumer' })).status).toBe(201);
    const claim = { metadata: { name: 'data' }, spec: { storageClassName: 'local', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    expect((await t.post(`${NS}/persistentvolumeclaims`, claim)).status).toBe(201);
    await create(t, 'waits', { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] });
    await t.server.idle();
    expect((await t.get(`${NS}/persistentvolumeclaims/data`)).body.metadata.annotations['volume.kubernetes.io/selected-node']).toBe('kubetab-worker');
    // A provisioner that fails takes the annotation away, as the PV controller does, to ask for another node.
    expect((await t.patch(`${NS}/persistentvolumeclaims/data`, { metadata: { annotations: { 'volume.kubernetes.io/selected-node': null } } }, 'application/merge-patch+json')).status).toBe(200);
    await t.server.idle();
    t.clock.advance(1000);
    await t.server.idle();
    expect(await nodeOf(t, 'waits')).toBeUndefined();
    expect(await condition(t, 'waits')).toMatchObject({ status: 'False', reason: 'SchedulerError', message: 'running PreBind plugin "VolumeBinding": binding volumes: provisioning failed for PVC "data"' });
    // Retried after the back-off: the node is selected again, and this time nothing binds the claim for bindTimeoutSeconds.
    t.clock.advance(2000);
    await t.server.idle();
    expect((await t.get(`${NS}/persistentvolumeclaims/data`)).body.metadata.annotations['volume.kubernetes.io/selected-node']).toBe('kubetab-worker');
    for (let i = 0; i < 61; i++) {
      t.clock.advance(10_000);
      await t.server.idle();
    }
    expect(await nodeOf(t, 'waits')).toBeUndefined();
    expect((await condition(t, 'waits')).message).toBe('running PreBind plugin "VolumeBinding": binding volumes: context deadline exceeded');
  });

  it('preempts a lower-priority pod for a higher-priority one', async () => {
    const t = await kindCluster();
    expect((await t.post('/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: 'high' }, value: 1000 })).status).toBe(201);
    await create(t, 'low-1', { containers: [container('3')] });
    await create(t, 'low-2', { containers: [container('3')] });
    await t.server.idle();
    await create(t, 'important', { priorityClassName: 'high', containers: [container('3')] });
    await t.server.idle();
    const important = await get(t, 'important');
    expect(important.status.nominatedNodeName).toBe('kubetab-worker');
    expect(important.status.conditions.find((c: { type: string }) => c.type === 'PodScheduled').message).toBe(`0/3 nodes are available: ${CP_TAINTED}, 2 Insufficient cpu.`);
    const victimName = (await nodeOf(t, 'low-1')) === 'kubetab-worker' ? 'low-1' : 'low-2';
    const victim = await get(t, victimName);
    expect(victim.metadata.deletionTimestamp).toBeDefined();
    expect(victim.status.conditions.find((c: { type: string }) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'PreemptionByScheduler',
      message: 'default-scheduler: preempting to accommodate a higher priority pod',
    });
    expect((await events(t)).find((e) => e.reason === 'Preempted')?.note).toBe(`Preempted by pod ${important.metadata.uid} on node kubetab-worker`);
  });
});
