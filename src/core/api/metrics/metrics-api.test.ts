// metrics.k8s.io/v1beta1 through the server, with a kubelet double whose
// stats the test sets: the objects kubectl top reads (shapes, quantities,
// window, timestamps, labels), selectors, NotFound texts, tables, discovery
// and the verbs metrics-server does not serve.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { KubeletConnections } from '../../kubelet/connection';
import { FakeKubelet } from '../streaming/testing/fake-kubelet';
import { formatBytes, formatNanoCores } from './quantities';

const METRICS = '/apis/metrics.k8s.io/v1beta1';
let t: TestServer;
let worker: FakeKubelet;
let other: FakeKubelet;

const node = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels } });
const pod = (name: string, namespace: string, nodeName: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels },
  spec: { nodeName, containers: [{ name: 'app', image: 'nginx' }, { name: 'sidecar', image: 'busybox' }] },
});

beforeEach(async () => {
  const kubelets = new KubeletConnections();
  worker = new FakeKubelet('worker');
  other = new FakeKubelet('other');
  kubelets.register(worker);
  kubelets.register(other);
  t = await startTestServer({}, undefined, [], { kubeletConnections: kubelets, nodes: [] });
  await t.post('/api/v1/nodes', node('worker', { 'kubernetes.io/hostname': 'worker', tier: 'a' }));
  await t.post('/api/v1/nodes', node('other', { tier: 'b' }));
  await t.post('/api/v1/nodes', node('silent'));
  await t.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
  await t.post('/api/v1/namespaces/default/pods', pod('web', 'default', 'worker', { app: 'web' }));
  await t.post('/api/v1/namespaces/team/pods', pod('db', 'team', 'other', { app: 'db' }));
  await t.post('/api/v1/namespaces/default/pods', pod('pending', 'default', 'worker'));
  const now = t.clock.now();
  worker.stats_ = {
    timestampMs: now - 3_250,
    windowMs: 20_044,
    node: { cpuNanoCores: 183_369_935, memoryBytes: 1_419_030_528 },
    pods: [
      {
        namespace: 'default',
        name: 'web',
        containers: [
          { name: 'app', cpuNanoCores: 5_000_000, memoryBytes: 12_345 * 1024 },
          { name: 'sidecar', cpuNanoCores: 123_456, memoryBytes: 1000 },
        ],
      },
      { namespace: 'default', name: 'pending', containers: [] },
    ],
  };
  other.stats_ = {
    timestampMs: now,
    windowMs: 15_000,
    node: { cpuNanoCores: 1_500_000_000, memoryBytes: 2 * 1024 ** 3 },
    pods: [{ namespace: 'team', name: 'db', containers: [{ name: 'app', cpuNanoCores: 0, memoryBytes: 300 * 1024 ** 2 }] }],
  };
});
afterEach(async () => {
  await t.close();
});

describe('quantities as metrics-server writes them', () => {
  it('writes cpu nanocores and memory bytes in canonical form', () => {
    expect(formatNanoCores(183_369_935)).toBe('183369935n');
    expect(formatNanoCores(5_000_000)).toBe('5m');
    expect(formatNanoCores(1_500_000_000)).toBe('1500m');
    expect(formatNanoCores(2_000_000_000)).toBe('2');
    expect(formatNanoCores(123_000)).toBe('123u');
    expect(formatNanoCores(0)).toBe('0');
    expect(formatBytes(12_345 * 1024)).toBe('12345Ki');
    expect(formatBytes(300 * 1024 ** 2)).toBe('300Mi');
    expect(formatBytes(12_345)).toBe('12345');
    expect(formatBytes(1000)).toBe('1k');
    expect(formatBytes(512)).toBe('512');
    expect(formatBytes(0)).toBe('0');
  });
});

describe('metrics.k8s.io/v1beta1 nodes', () => {
  it('gets a NodeMetrics with the node labels, the sample time and window, and the usage', async () => {
    const res = await t.get(`${METRICS}/nodes/worker`);
    expect(res.status).toBe(200);
    const created = new Date(Math.floor(t.clock.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    const sampled = new Date(Math.floor((t.clock.now() - 3_250) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    expect(res.body).toEqual({
      kind: 'NodeMetrics',
      apiVersion: 'metrics.k8s.io/v1beta1',
      metadata: { name: 'worker', creationTimestamp: created, labels: { 'kubernetes.io/hostname': 'worker', tier: 'a' } },
      timestamp: sampled,
      window: '20.044s',
      usage: { cpu: '183369935n', memory: '1385772Ki' },
    });
  });

  it('lists the nodes that have metrics, by name, with labelSelector and fieldSelector', async () => {
    const all = await t.get(`${METRICS}/nodes`);
    expect(all.body.kind).toBe('NodeMetricsList');
    expect(all.body.metadata).toEqual({});
    expect(all.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['other', 'worker']);
    expect(all.body.items[0].usage).toEqual({ cpu: '1500m', memory: '2Gi' });
    expect(all.body.items[0].window).toBe('15s');
    const labelled = await t.get(`${METRICS}/nodes?labelSelector=tier%3Db`);
    expect(labelled.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['other']);
    const named = await t.get(`${METRICS}/nodes?fieldSelector=metadata.name%3Dworker`);
    expect(named.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['worker']);
    const unsupported = await t.get(`${METRICS}/nodes?fieldSelector=spec.unschedulable%3Dfalse`);
    expect(unsupported.status).toBe(400);
  });

  it('answers NotFound as metrics-server does: for the node, then for its metrics', async () => {
    const missing = await t.get(`${METRICS}/nodes/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('node "nope" not found');
    const silent = await t.get(`${METRICS}/nodes/silent`);
    expect(silent.status).toBe(404);
    expect(silent.body.message).toBe('nodemetrics.metrics.k8s.io "silent" not found');
    expect(silent.body.details).toEqual({ name: 'silent', group: 'metrics.k8s.io', kind: 'nodemetrics' });
  });

  it('serves a Table with cpu, memory and Window columns', async () => {
    const res = await t.get(`${METRICS}/nodes`, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(res.body.kind).toBe('Table');
    expect(res.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'cpu', 'memory', 'Window']);
    expect(res.body.rows.map((r: { cells: unknown[] }) => r.cells)).toEqual([
      ['other', '1500m', '2Gi', '15s'],
      ['worker', '183369935n', '1385772Ki', '20.044s'],
    ]);
  });

  it('refuses the verbs metrics-server does not serve', async () => {
    expect((await t.del(`${METRICS}/nodes/worker`)).status).toBe(405);
    expect((await t.post(`${METRICS}/nodes`, { kind: 'NodeMetrics' })).status).toBe(405);
    expect((await t.get(`${METRICS}/nodes?watch=1`)).status).toBe(405);
  });
});

describe('metrics.k8s.io/v1beta1 pods', () => {
  it('gets a PodMetrics with each container of the pod', async () => {
    const res = await t.get(`${METRICS}/namespaces/default/pods/web`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('PodMetrics');
    expect(res.body.metadata).toMatchObject({ name: 'web', namespace: 'default', labels: { app: 'web' } });
    expect(res.body.window).toBe('20.044s');
    expect(res.body.containers).toEqual([
      { name: 'app', usage: { cpu: '5m', memory: '12345Ki' } },
      { name: 'sidecar', usage: { cpu: '123456n', memory: '1k' } },
    ]);
  });

  it('lists pods in a namespace and across namespaces, by namespace and name, with selectors', async () => {
    const inDefault = await t.get(`${METRICS}/namespaces/default/pods`);
    expect(inDefault.body.kind).toBe('PodMetricsList');
    expect(inDefault.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['web']);
    const all = await t.get(`${METRICS}/pods`);
    expect(all.body.items.map((i: { metadata: { namespace: string; name: string } }) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual(['default/web', 'team/db']);
    const selected = await t.get(`${METRICS}/pods?labelSelector=app%3Ddb`);
    expect(selected.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['db']);
    const byName = await t.get(`${METRICS}/namespaces/default/pods?fieldSelector=metadata.name%3Dweb`);
    expect(byName.body.items).toHaveLength(1);
  });

  it('answers NotFound for a missing pod and for a pod without metrics', async () => {
    const missing = await t.get(`${METRICS}/namespaces/default/pods/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('pods "nope" not found');
    const pending = await t.get(`${METRICS}/namespaces/default/pods/pending`);
    expect(pending.status).toBe(404);
    expect(pending.body.message).toBe('podmetrics.metrics.k8s.io "default/pending" not found');
  });

  it('leaves out the pods of a kubelet that does not answer', async () => {
    other.stats_ = undefined;
    const all = await t.get(`${METRICS}/pods`);
    expect(all.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['web']);
    const nodes = await t.get(`${METRICS}/nodes`);
    expect(nodes.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['worker']);
  });

  it('adds up the containers in the pod Table', async () => {
    const res = await t.get(`${METRICS}/namespaces/default/pods`, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(res.body.rows[0].cells).toEqual(['web', '5123456n', '12346Ki', '20.044s'].map((c, i) => (i === 2 ? formatBytes(12_345 * 1024 + 1000) : c)));
  });
});

describe('discovery', () => {
  it('lists metrics.k8s.io last in /apis and in aggregated discovery, with get and list', async () => {
    const groups = (await t.get('/apis')).body.groups.map((g: { name: string }) => g.name);
    expect(groups[groups.length - 1]).toBe('metrics.k8s.io');
    const list = (await t.get(METRICS)).body;
    expect(list.resources).toEqual([
      { name: 'nodes', singularName: '', namespaced: false, kind: 'NodeMetrics', verbs: ['get', 'list'] },
      { name: 'pods', singularName: '', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list'] },
    ]);
    const aggregated = (await t.get('/apis', { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' })).body;
    const metrics = aggregated.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'metrics.k8s.io');
    expect(metrics.versions[0].version).toBe('v1beta1');
    expect(metrics.versions[0].resources.map((r: { resource: string }) => r.resource)).toEqual(['nodes', 'pods']);
  });

  it('publishes the group in /openapi/v3 and /openapi/v2', async () => {
    const index = (await t.get('/openapi/v3')).body;
    expect(Object.keys(index.paths)).toContain('apis/metrics.k8s.io/v1beta1');
    const doc = (await t.get('/openapi/v3/apis/metrics.k8s.io/v1beta1')).body;
    expect(doc.components.schemas['io.k8s.metrics.v1beta1.PodMetrics'].properties.containers.type).toBe('array');
    expect(Object.keys(doc.paths)).toContain('/apis/metrics.k8s.io/v1beta1/namespaces/{namespace}/pods/{name}');
    const v2 = (await t.get('/openapi/v2')).body;
    expect(v2.definitions['io.k8s.metrics.v1beta1.NodeMetrics']).toBeDefined();
  });

  it('is not served by a server without kubelets', async () => {
    const bare = await startTestServer();
    try {
      expect((await bare.get(METRICS)).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
