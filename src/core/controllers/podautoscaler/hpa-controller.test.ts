// The HPA controller through the real server on a manual Clock, with a
// kubelet double whose stats give the pods' usage (read back through
// metrics.k8s.io, as kube's controller reads metrics-server): scale-up with
// kube's event and status, the 10 % tolerance, the 5-minute scale-down
// stabilization, behaviors' rate limits, min/max, failed metrics and a
// missing target, and the TARGETS column kubectl get hpa prints.

import { afterEach, describe, expect, it } from 'vitest';
import { rfc3339 } from '../../clock';
import { KubeletConnections, type PodUsage } from '../../kubelet/connection';
import { FakeKubelet } from '../../api/streaming/testing/fake-kubelet';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';
import { HPA_CONTROLLER } from './hpa-controller';

const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';
const HPAS = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const PODS = '/api/v1/namespaces/default/pods';
const SEC = 1000;
const MIN = 60 * SEC;

interface Bed {
  readonly bed: ControllerTestBed;
  readonly kubelet: FakeKubelet;
  advance(ms: number): Promise<void>;
}
let current: Bed | undefined;
afterEach(async () => {
  // Failures are the HPA's status and events, never the controller's own errors.
  expect(current?.bed.logs ?? []).toEqual([]);
  await current?.bed.close();
  current = undefined;
});

async function start(): Promise<Bed> {
  const kubelets = new KubeletConnections();
  const kubelet = new FakeKubelet('worker');
  kubelets.register(kubelet);
  const bed = await startControllerTestBed({ enabled: [HPA_CONTROLLER], asInternalClients: true, server: { kubeletConnections: kubelets, nodes: [] } });
  const self: Bed = {
    bed,
    kubelet,
    async advance(ms) {
      // What the controller has seen so far waits on the Clock before it moves.
      await bed.idle();
      bed.ts.clock.advance(ms);
      await new Promise<void>((r) => setTimeout(r, 0));
      await bed.idle();
    },
  };
  current = self;
  await bed.ts.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker' } });
  return self;
}

async function deployment(b: Bed, replicas: number): Promise<void> {
  const res = await b.bed.ts.post(DEPLOYS, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] } },
    },
  });
  expect(res.status).toBe(201);
}

/** Running, Ready pods of the Deployment (started long enough ago to count for cpu). */
async function runningPods(b: Bed, count: number): Promise<void> {
  const startedAt = rfc3339(b.bed.ts.clock.now() - 10 * MIN);
  for (let i = 0; i < count; i++) {
    const name = `web-${i}`;
    if ((await b.bed.ts.get(`${PODS}/${name}`)).status === 200) continue;
    const created = await b.bed.ts.post(PODS, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels: { app: 'web' } },
      spec: { nodeName: 'worker', containers: [{ name: 'nginx', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] },
    });
    expect(created.status).toBe(201);
    const pod = created.body;
    pod.status = { phase: 'Running', startTime: startedAt, conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: startedAt }] };
    expect((await b.bed.ts.put(`${PODS}/${name}/status`, pod)).status).toBe(200);
  }
}

/** Each pod's cpu in millicores, as the kubelet reports it. */
function usage(b: Bed, millicores: number[]): void {
  const pods: PodUsage[] = millicores.map((m, i) => ({ namespace: 'default', name: `web-${i}`, containers: [{ name: 'nginx', cpuNanoCores: m * 1_000_000, memoryBytes: 32 * 1024 * 1024 }] }));
  b.kubelet.stats_ = { timestampMs: b.bed.ts.clock.now() - 5 * SEC, windowMs: 15 * SEC, node: { cpuNanoCores: 500_000_000, memoryBytes: 1024 ** 3 }, pods };
}

async function hpa(b: Bed, spec: Record<string, unknown> = {}): Promise<void> {
  const res = await b.bed.ts.post(HPAS, {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
      ...spec,
    },
  });
  expect(res.status).toBe(201);
}

const replicas = async (b: Bed) => (await b.bed.ts.get(`${DEPLOYS}/web`)).body.spec.replicas as number;
const status = async (b: Bed) => (await b.bed.ts.get(`${HPAS}/web`)).body.status;
const events = async (b: Bed) =>
  ((await b.bed.ts.get('/api/v1/namespaces/default/events')).body.items as { reason: string; message: string; type: string; source: { component: string }; involvedObject: { kind: string } }[]).filter(
    (e) => e.involvedObject.kind === 'HorizontalPodAutoscaler',
  );
const condition = (s: { conditions: { type: string }[] }, type: string) => s.conditions.find((c) => c.type === type);

describe('horizontal pod autoscaler controller', () => {
  it('first looks 15 s after the HPA appears, then scales up with kube’s event, status and conditions', async () => {
    const b = await start();
    await deployment(b, 1);
    await runningPods(b, 1);
    usage(b, [90]);
    await hpa(b);
    await b.bed.idle();
    expect(await status(b)).toEqual({ desiredReplicas: 0 });
    await b.advance(15 * SEC);
    expect(await replicas(b)).toBe(2);
    const s = await status(b);
    const now = rfc3339(b.bed.ts.clock.now());
    expect(s).toMatchObject({
      currentReplicas: 1,
      desiredReplicas: 2,
      lastScaleTime: now,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 90, averageValue: '90m' } } }],
    });
    expect(s.conditions).toEqual([
      { type: 'AbleToScale', status: 'True', lastTransitionTime: now, reason: 'SucceededRescale', message: 'the HPA controller was able to update the target scale to 2' },
      { type: 'ScalingActive', status: 'True', lastTransitionTime: now, reason: 'ValidMetricFound', message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)' },
      { type: 'ScalingLimited', status: 'False', lastTransitionTime: now, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' },
    ]);
    const rescale = (await events(b)).find((e) => e.reason === 'SuccessfulRescale')!;
    expect(rescale).toMatchObject({ type: 'Normal', message: 'New size: 2; reason: cpu resource utilization (percentage of request) above target', source: { component: 'horizontal-pod-autoscaler' } });
  });

  it('prints TARGETS as kubectl get hpa shows them', async () => {
    const b = await start();
    await deployment(b, 2);
    await runningPods(b, 2);
    usage(b, [12, 12]);
    await hpa(b);
    const table = async () => (await b.bed.ts.get(`${HPAS}/web`, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).body.rows[0].cells;
    expect((await table())[2]).toBe('cpu: <unknown>/50%');
    await b.advance(15 * SEC);
    expect((await table())[2]).toBe('cpu: 12%/50%');
  });

  it('leaves the size alone within the 10 % tolerance', async () => {
    const b = await start();
    await deployment(b, 2);
    await runningPods(b, 2);
    usage(b, [54, 54]);
    await hpa(b);
    await b.advance(15 * SEC);
    expect(await replicas(b)).toBe(2);
    const s = await status(b);
    expect(s).toMatchObject({ currentReplicas: 2, desiredReplicas: 2 });
    expect(s.lastScaleTime).toBeUndefined();
    expect(condition(s, 'AbleToScale')).toMatchObject({ reason: 'ReadyForNewScale', message: 'recommended size matches current size' });
  });

  it('scales down only after the 5-minute stabilization window, to the highest recent recommendation', async () => {
    const b = await start();
    await deployment(b, 3);
    await runningPods(b, 3);
    usage(b, [10, 10, 10]);
    await hpa(b);
    await b.advance(15 * SEC);
    expect(await replicas(b)).toBe(3);
    expect(condition(await status(b), 'AbleToScale')).toMatchObject({
      reason: 'ScaleDownStabilized',
      message: 'recent recommendations were higher than current one, applying the highest recent recommendation',
    });
    // The first recommendation (3) still counts at exactly 5 minutes, and is gone one resync later.
    for (let t = 0; t < 5 * MIN; t += 15 * SEC) await b.advance(15 * SEC);
    expect(await replicas(b)).toBe(3);
    await b.advance(15 * SEC);
    expect(await replicas(b)).toBe(1);
    expect((await events(b)).map((e) => e.message)).toContain('New size: 1; reason: All metrics below target');
  });

  it('keeps within minReplicas and maxReplicas and says so in ScalingLimited', async () => {
    const b = await start();
    await deployment(b, 2);
    await runningPods(b, 2);
    usage(b, [400, 400]);
    await hpa(b, { maxReplicas: 3 });
    await b.advance(15 * SEC);
    expect(await replicas(b)).toBe(3);
    expect(condition(await status(b), 'ScalingLimited')).toMatchObject({
      status: 'True',
      reason: 'TooManyReplicas',
      message: 'the desired replica count is more than the maximum replica count',
    });
  });

  it('brings a target above maxReplicas back to it without reading metrics', async () => {
    const b = await start();
    await deployment(b, 7);
    await hpa(b, { maxReplicas: 4 });
    await b.advance(15 * SEC);
    expect(await replicas(b)).toBe(4);
    expect((await events(b)).map((e) => e.message)).toContain('New size: 4; reason: Current number of replicas above Spec.MaxReplicas');
    expect((await status(b)).currentMetrics).toBeUndefined();
  });

  it('limits a scale-up by the behavior’s policies', async () => {
    const b = await start();
    await deployment(b, 1);
    await runningPods(b, 1);
    usage(b, [200]);
    await hpa(b, { maxReplicas: 10, behavior: { scaleUp: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } } });
    await b.advance(15 * SEC);
    expect(await replicas(b)).toBe(2);
    expect(condition(await status(b), 'ScalingLimited')).toMatchObject({
      status: 'True',
      reason: 'ScaleUpLimit',
      message: 'the desired replica count is increasing faster than the maximum scale rate',
    });
    // Within the policy's period the one pod it allows has been added already.
    await runningPods(b, 2);
    usage(b, [200, 200]);
    await b.advance(15 * SEC);
    expect(await replicas(b)).toBe(2);
    await b.advance(45 * SEC);
    expect(await replicas(b)).toBe(3);
  });

  it('reports metrics it cannot get: event, ScalingActive False and an unknown current metric', async () => {
    const b = await start();
    await deployment(b, 1);
    await runningPods(b, 1);
    await hpa(b);
    await b.advance(15 * SEC);
    const s = await status(b);
    expect(s.currentMetrics).toEqual([{ type: '' }]);
    expect(condition(s, 'ScalingActive')).toMatchObject({
      status: 'False',
      reason: 'FailedGetResourceMetric',
      message: 'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
    });
    const warnings = (await events(b)).filter((e) => e.type === 'Warning').map((e) => `${e.reason}: ${e.message}`);
    expect(warnings).toEqual([
      'FailedGetResourceMetric: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
      'FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
    ]);
    const table = (await b.bed.ts.get(`${HPAS}/web`, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).body.rows[0].cells;
    expect(table[2]).toBe('cpu: <unknown>/50%');
  });

  it('reports a target it cannot scale', async () => {
    const b = await start();
    await hpa(b);
    await b.advance(15 * SEC);
    const s = await status(b);
    expect(condition(s, 'AbleToScale')).toMatchObject({
      status: 'False',
      reason: 'FailedGetScale',
      message: 'the HPA controller was unable to get the target\'s current scale: deployments.apps "web" not found',
    });
    expect((await events(b)).map((e) => `${e.reason}: ${e.message}`)).toEqual(['FailedGetScale: deployments.apps "web" not found']);
  });
});
