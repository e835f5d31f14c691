// What a kubelet would do to pods, for the workload controllers' tests until
// KubeTab's kubelets run them: nodes that report Ready, pods marked Running
// and Ready through pods/status, and graceful deletions finished (a second
// delete with grace 0). Everything goes through the API, as a kubelet's
// requests do.

import type { TestServer } from '../../../../test-support/api-harness';
import { rfc3339 } from '../../../clock';

export interface NodeShape {
  readonly labels?: Record<string, string>;
  readonly taints?: readonly { key: string; value?: string; effect: string }[];
}

export async function createNode(ts: TestServer, name: string, shape: NodeShape = {}): Promise<void> {
  const res = await ts.post('/api/v1/nodes', {
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...(shape.labels ?? {}) } },
    spec: shape.taints ? { taints: shape.taints } : {},
    status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }] },
  });
  if (res.status !== 201) throw new Error(`node ${name}: ${res.status} ${res.text}`);
  // The server keeps a new node's status only through nodes/status, as the kubelet then reports it.
  const resources = { cpu: '8', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' };
  const status = { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }] };
  const ready = await ts.put(`/api/v1/nodes/${name}/status`, { ...res.body, status });
  if (ready.status !== 200) throw new Error(`node ${name} status: ${ready.status} ${ready.text}`);
}

/** kind's three nodes: a tainted control plane and two workers. */
export async function createKindNodes(ts: TestServer): Promise<void> {
  await createNode(ts, 'kubetab-control-plane', {
    labels: { 'node-role.kubernetes.io/control-plane': '' },
    taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
  });
  await createNode(ts, 'kubetab-worker');
  await createNode(ts, 'kubetab-worker2');
}

/** The pod's status as a kubelet reports a started, ready pod. */
export async function markRunningReady(ts: TestServer, namespace: string, name: string): Promise<void> {
  const path = `/api/v1/namespaces/${namespace}/pods/${name}`;
  const pod = (await ts.get(path)).body;
  const now = rfc3339(ts.clock.now());
  const conditions = ['PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'Ready', 'PodScheduled'].map((type) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: now }));
  const res = await ts.put(`${path}/status`, { ...pod, status: { ...pod.status, phase: 'Running', conditions, startTime: now, podIP: '10.244.1.10' } });
  if (res.status !== 200) throw new Error(`status of ${name}: ${res.status} ${res.text}`);
}

/** The kubelet's end of every graceful deletion under way in the namespace. */
export async function finishTerminating(ts: TestServer, namespace: string): Promise<string[]> {
  const items = (await ts.get(`/api/v1/namespaces/${namespace}/pods`)).body.items as { metadata: { name: string; uid: string; deletionTimestamp?: string } }[];
  const done: string[] = [];
  for (const pod of items) {
    if (!pod.metadata.deletionTimestamp) continue;
    await ts.del(`/api/v1/namespaces/${namespace}/pods/${pod.metadata.name}`, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } });
    done.push(pod.metadata.name);
  }
  return done;
}

/** kind's default StorageClass (local-path, WaitForFirstConsumer), so the scheduler places pods whose claims are not bound yet. */
export async function createStandardStorageClass(ts: TestServer): Promise<void> {
  const res = await ts.post('/apis/storage.k8s.io/v1/storageclasses', {
    metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    provisioner: 'rancher.io/local-path',
    volumeBindingMode: 'WaitForFirstConsumer',
    reclaimPolicy: 'Delete',
  });
  if (res.status !== 201) throw new Error(`storage class: ${res.status} ${res.text}`);
}
