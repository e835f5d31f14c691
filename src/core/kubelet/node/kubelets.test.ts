// The simulated nodes through a secured server (Node,RBAC, NodeRestriction)
// with the node controllers: what a client sees of registration, status,
// leases, events and static pods, and of a node whose kubelet stops — Unknown,
// tainted, its pods marked not ready and evicted after their toleration — and
// starts again. Time moves only on the manual Clock.

import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../clock';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

const NODE_CONTROLLERS = ['kube-apiserver-bootstrap', 'node-ipam-controller', 'node-lifecycle-controller', 'taint-eviction-controller', 'ttl-controller', 'serviceaccount-controller'];
const SECURE = { 'authorization-mode': 'Node,RBAC' };

let ts: TestServer | undefined;
afterEach(async () => {
  await ts?.close();
  ts = undefined;
});

async function settle(t: TestServer): Promise<void> {
  await t.server.idle();
  await t.server.idle();
}

/** Moves the Clock in node-monitor-period steps, letting every client catch up after each. */
async function advance(t: TestServer, ms: number, step = 5_000): Promise<void> {
  for (let done = 0; done < ms; done += step) {
    t.clock.advance(Math.min(step, ms - done));
    await settle(t);
  }
}

async function untilReady(t: TestServer, names: string[]): Promise<void> {
  for (let i = 0; i < 50; i++) {
    await settle(t);
    const nodes = (await t.get('/api/v1/nodes')).body.items as { metadata: { name: string }; status?: { conditions?: { type: string; status: string }[] }; spec?: { taints?: { key: string }[] } }[];
    const ready = nodes.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') && !n.spec?.taints?.some((x) => x.key === 'node.kubernetes.io/not-ready'));
    if (names.every((n) => ready.some((r) => r.metadata.name === n))) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('nodes did not become Ready');
}

const ALL = ['kubetab-control-plane', 'kubetab-worker', 'kubetab-worker2'];

describe('kubelets of a kind-shaped cluster', () => {
  it('register the nodes, as kind shows them', async () => {
    ts = await startTestServer(SECURE, manualClock(), NODE_CONTROLLERS);
    await untilReady(ts, ALL);
    const cp = (await ts.get('/api/v1/nodes/kubetab-control-plane')).body;
    expect(cp.metadata.labels).toEqual({
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': 'kubetab-control-plane',
      'kubernetes.io/os': 'linux',
      'node-role.kubernetes.io/control-plane': '',
      'node.kubernetes.io/exclude-from-external-load-balancers': '',
    });
    expect(cp.metadata.annotations).toMatchObject({
      'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///run/containerd/containerd.sock',
      'node.alpha.kubernetes.io/ttl': '0',
      'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
    });
    expect(cp.spec).toEqual({
      podCIDR: '10.244.0.0/24',
      podCIDRs: ['10.244.0.0/24'],
      providerID: 'kind://docker/kubetab/kubetab-control-plane',
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    });
    expect(cp.status.addresses).toEqual([
      { address: '172.18.0.2', type: 'InternalIP' },
      { address: 'kubetab-control-plane', type: 'Hostname' },
    ]);
    expect(cp.status.capacity).toEqual({ cpu: '4', 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '8Gi', pods: '110' });
    expect(cp.status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 10250 } });
    expect(cp.status.nodeInfo).toMatchObject({ kubeletVersion: 'v1.32.0', osImage: 'Debian GNU/Linux 12 (bookworm)', operatingSystem: 'linux', architecture: 'amd64' });
    expect(cp.status.conditions.map((c: { type: string; status: string; reason: string }) => [c.type, c.status, c.reason])).toEqual([
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID'],
      ['Ready', 'True', 'KubeletReady'],
    ]);
    const workers = await Promise.all(['kubetab-worker', 'kubetab-worker2'].map(async (n) => (await ts!.get(`/api/v1/nodes/${n}`)).body));
    expect(workers.map((w) => w.spec.podCIDR).sort()).toEqual(['10.244.1.0/24', '10.244.2.0/24']);
    expect(workers.map((w) => w.spec.taints ?? [])).toEqual([[], []]);

    // kubectl get nodes: the table kind shows.
    const table = (await ts.get('/api/v1/nodes', { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).body;
    expect(table.rows.map((r: { cells: unknown[] }) => [r.cells[0], r.cells[1], r.cells[2], r.cells[4]])).toEqual([
      ['kubetab-control-plane', 'Ready', 'control-plane', 'v1.32.0'],
      ['kubetab-worker', 'Ready', '<none>', 'v1.32.0'],
      ['kubetab-worker2', 'Ready', '<none>', 'v1.32.0'],
    ]);

    const lease = (await ts.get('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/kubetab-worker')).body;
    expect(lease.spec).toMatchObject({ holderIdentity: 'kubetab-worker', leaseDurationSeconds: 40 });
    expect(lease.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'kubetab-worker', uid: workers[0].metadata.uid }]);

    // kubectl describe node's events: the kubelet's (uid = node name) and the node controller's (uid = node uid),
    // which records RegisteredNode at its next monitor pass.
    await advance(ts, 5_000);
    const events = (await ts.get('/api/v1/events?fieldSelector=involvedObject.name=kubetab-control-plane')).body.items as { reason: string; message: string; source: { component: string } }[];
    const seen = events.map((e) => `${e.source.component} ${e.reason}: ${e.message}`);
    expect(seen).toEqual(
      expect.arrayContaining([
        'kubelet Starting: Starting kubelet.',
        'kubelet NodeAllocatableEnforced: Updated Node Allocatable limit across pods',
        'kubelet NodeHasSufficientMemory: Node kubetab-control-plane status is now: NodeHasSufficientMemory',
        'kubelet NodeHasNoDiskPressure: Node kubetab-control-plane status is now: NodeHasNoDiskPressure',
        'kubelet NodeHasSufficientPID: Node kubetab-control-plane status is now: NodeHasSufficientPID',
        'kubelet NodeReady: Node kubetab-control-plane status is now: NodeReady',
        'node-controller RegisteredNode: Node kubetab-control-plane event: Registered Node kubetab-control-plane in Controller',
      ]),
    );

    // The control plane's static pods, mirrored in kube-system.
    const pods = (await ts.get('/api/v1/namespaces/kube-system/pods')).body.items as { metadata: { name: string; labels: Record<string, string>; annotations: Record<string, string>; ownerReferences: unknown[] }; spec: { nodeName: string; priorityClassName: string } }[];
    expect(pods.map((p) => p.metadata.name).sort()).toEqual(['etcd-kubetab-control-plane', 'kube-apiserver-kubetab-control-plane', 'kube-controller-manager-kubetab-control-plane', 'kube-scheduler-kubetab-control-plane']);
    for (const p of pods) {
      expect(p.metadata.labels.tier).toBe('control-plane');
      expect(p.metadata.annotations['kubernetes.io/config.source']).toBe('file');
      expect(p.metadata.annotations['kubernetes.io/config.mirror']).toBe(p.metadata.annotations['kubernetes.io/config.hash']);
      expect(p.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'kubetab-control-plane', uid: cp.metadata.uid, controller: true }]);
      expect(p.spec).toMatchObject({ nodeName: 'kubetab-control-plane', priorityClassName: 'system-node-critical' });
    }
  });

  it('renews each lease every 10 s of the Clock', async () => {
    ts = await startTestServer(SECURE, manualClock(), NODE_CONTROLLERS);
    await untilReady(ts, ALL);
    const renewed = async () => Date.parse((await ts!.get('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/kubetab-worker2')).body.spec.renewTime);
    const first = await renewed();
    await advance(ts, 9_000, 9_000);
    expect(await renewed()).toBe(first);
    await advance(ts, 1_000, 1_000);
    expect(await renewed()).toBe(first + 10_000);
  });

  it('a stopped node goes Unknown, is tainted, its pods evicted after 300 s; started again it is Ready', async () => {
    ts = await startTestServer(SECURE, manualClock(), NODE_CONTROLLERS);
    await untilReady(ts, ALL);
    await ts.post('/api/v1/namespaces/default/pods', { metadata: { name: 'web' }, spec: { nodeName: 'kubetab-worker', containers: [{ name: 'c', image: 'nginx' }] } });
    const pod = (await ts.get('/api/v1/namespaces/default/pods/web')).body;
    expect(pod.spec.tolerations).toEqual(
      expect.arrayContaining([{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }]),
    );
    // As its kubelet would report it running.
    const now = new Date(ts.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    await ts.put('/api/v1/namespaces/default/pods/web/status', { ...pod, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }] } });

    await ts.server.nodes.stopNode('kubetab-worker');
    expect(ts.server.nodes.running()).toEqual(['kubetab-control-plane', 'kubetab-worker2']);
    await advance(ts, 45_000);
    expect((await ts.get('/api/v1/nodes/kubetab-worker')).body.status.conditions.find((c: { type: string }) => c.type === 'Ready').status).toBe('True');
    await advance(ts, 15_000);
    const node = (await ts.get('/api/v1/nodes/kubetab-worker')).body;
    expect(node.status.conditions.map((c: { type: string; status: string; reason: string; message: string }) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['MemoryPressure', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.'],
      ['DiskPressure', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.'],
      ['PIDPressure', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.'],
      ['Ready', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.'],
    ]);
    // The NoSchedule taint follows the condition at once; the NoExecute one at the next monitor pass, as in kube.
    expect(node.spec.taints.map((t: { key: string; effect: string }) => `${t.key}:${t.effect}`)).toEqual(['node.kubernetes.io/unreachable:NoSchedule']);
    await advance(ts, 5_000);
    const tainted = (await ts.get('/api/v1/nodes/kubetab-worker')).body;
    expect(tainted.spec.taints.map((t: { key: string; effect: string }) => `${t.key}:${t.effect}`).sort()).toEqual(['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule']);
    expect(tainted.spec.taints.every((t: { timeAdded?: string }) => typeof t.timeAdded === 'string')).toBe(true);
    const notReady = (await ts.get('/api/v1/namespaces/default/pods/web')).body;
    expect(notReady.status.conditions.find((c: { type: string }) => c.type === 'Ready').status).toBe('False');
    const podEvents = (await ts.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=web')).body.items.map((e: { reason: string; message: string }) => `${e.reason}: ${e.message}`);
    expect(podEvents).toContain('NodeNotReady: Node is not ready');

    // 300 s of toleration, counted from the taint.
    await advance(ts, 290_000, 290_000);
    expect((await ts.get('/api/v1/namespaces/default/pods/web')).body.metadata.deletionTimestamp).toBeUndefined();
    await advance(ts, 15_000, 15_000);
    const evicted = (await ts.get('/api/v1/namespaces/default/pods/web')).body;
    expect(evicted.metadata.deletionTimestamp).toBeDefined();
    expect(evicted.status.conditions).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' })]),
    );
    const eviction = (await ts.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=web')).body.items.map((e: { reason: string; message: string }) => `${e.reason}: ${e.message}`);
    expect(eviction).toContain('TaintManagerEviction: Marking for deletion Pod default/web');

    ts.server.nodes.startNode('kubetab-worker');
    await untilReady(ts, ['kubetab-worker']);
    await advance(ts, 5_000);
    const back = (await ts.get('/api/v1/nodes/kubetab-worker')).body;
    expect(back.spec.taints ?? []).toEqual([]);
    expect(back.status.conditions.find((c: { type: string }) => c.type === 'Ready').reason).toBe('KubeletReady');
  });
});
