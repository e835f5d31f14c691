// The Deployment controller (with the ReplicaSet controller and the garbage
// collector) against a real KubeTab server, observed as a client — and
// kubectl — would: ReplicaSets per template with kube's names, labels and
// annotations; conditions, counts and events; rolling updates within
// maxSurge/maxUnavailable; Recreate; rollback as kubectl 1.32 does it;
// scaling; pause and resume; the progress deadline on the cluster clock;
// revision history cleanup; orphaning and adoption. This test plays the
// kubelet: it marks pods Ready through pods/status.

import { afterEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';

let bed: ControllerTestBed;
afterEach(async () => bed?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const NS = '/api/v1/namespaces/default';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const RS = '/apis/apps/v1/namespaces/default/replicasets';
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';

async function start(): Promise<void> {
  bed = await startControllerTestBed({ enabled: ['deployment-controller', 'replicaset-controller', 'garbage-collector-controller'] });
}

function deployment(name: string, replicas: number, spec: Record<string, unknown> = {}, image = 'nginx:1.25') {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } },
      ...spec,
    },
  };
}

const get = async (path: string): Promise<Any> => (await bed.ts.get(path)).body;
const replicaSets = async (app: string): Promise<Any[]> => (await get(`${RS}?labelSelector=app%3D${app}`)).items;
const pods = async (app: string): Promise<Any[]> => (await get(`${NS}/pods?labelSelector=app%3D${app}`)).items;
const cond = (d: Any, type: string) => (d.status.conditions ?? []).find((c: Any) => c.type === type);
const nowText = () => new Date(bed.ts.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Plays the kubelet: every pod of the app that is not Ready becomes Running and Ready now. */
async function readyAll(app: string): Promise<number> {
  let n = 0;
  for (const pod of await pods(app)) {
    if (pod.metadata.deletionTimestamp) continue;
    if ((pod.status.conditions ?? []).some((c: Any) => c.type === 'Ready' && c.status === 'True')) continue;
    const status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: nowText(), lastProbeTime: null }] };
    expect((await bed.ts.patch(`${NS}/pods/${pod.metadata.name}/status`, { status }, MERGE)).status).toBe(200);
    n++;
  }
  await bed.idle();
  return n;
}

async function events(name: string): Promise<Any[]> {
  return (await get(`${NS}/events?fieldSelector=involvedObject.name%3D${name}`)).items;
}

/** What `kubectl rollout status` decides from a Deployment (kubectl 1.32's DeploymentStatusViewer). */
function rolloutStatus(d: Any): string {
  if (d.metadata.generation > (d.status.observedGeneration ?? 0)) return 'Waiting for deployment spec update to be observed...';
  if (cond(d, 'Progressing')?.reason === 'ProgressDeadlineExceeded') return `deployment "${d.metadata.name}" exceeded its progress deadline`;
  const s = d.status;
  if ((s.updatedReplicas ?? 0) < d.spec.replicas) return 'waiting: updated';
  if ((s.replicas ?? 0) > (s.updatedReplicas ?? 0)) return 'waiting: old replicas pending termination';
  if ((s.availableReplicas ?? 0) < (s.updatedReplicas ?? 0)) return 'waiting: available';
  return `deployment "${d.metadata.name}" successfully rolled out`;
}

describe('deployment controller', () => {
  it('creates a ReplicaSet named after the template hash, its pods, and becomes Available once they are Ready', async () => {
    await start();
    expect((await bed.ts.post(DEPLOY, deployment('web', 3))).status).toBe(201);
    await bed.idle();
    const [rs, ...others] = await replicaSets('web');
    expect(others).toHaveLength(0);
    const d0 = await get(`${DEPLOY}/web`);
    const hash = rs.metadata.labels['pod-template-hash'];
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    expect(rs.metadata.name).toBe(`web-${hash}`);
    expect(rs.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d0.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(rs.spec.selector).toEqual({ matchLabels: { app: 'web', 'pod-template-hash': hash } });
    expect(rs.spec.template.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.metadata.annotations).toEqual({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
    });
    expect(d0.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
    const created = await pods('web');
    expect(created).toHaveLength(3);
    expect(created[0].metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(d0.status).toMatchObject({ observedGeneration: 1, replicas: 3, updatedReplicas: 3, unavailableReplicas: 3 });
    expect(cond(d0, 'Available')).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' });
    expect(cond(d0, 'Progressing')).toMatchObject({ status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "web-${hash}" is progressing.` });
    expect(rolloutStatus(d0)).toBe('waiting: available');
    const evs = await events('web');
    expect(evs.map((e: Any) => [e.reason, e.message, e.source.component])).toContainEqual(['ScalingReplicaSet', `Scaled up replica set web-${hash} to 3`, 'deployment-controller']);

    await readyAll('web');
    const d = await get(`${DEPLOY}/web`);
    expect(d.status).toMatchObject({ observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    expect(d.status.unavailableReplicas).toBeUndefined();
    expect(cond(d, 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' });
    expect(cond(d, 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "web-${hash}" has successfully progressed.` });
    expect(rolloutStatus(d)).toBe('deployment "web" successfully rolled out');
  });

  it('rolls out a new template within maxSurge and maxUnavailable, then rolls back as kubectl rollout undo does', async () => {
    await start();
    await bed.ts.post(DEPLOY, deployment('web', 4, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }));
    await bed.idle();
    await readyAll('web');
    const [first] = await replicaSets('web');

    // kubectl set image
    await bed.ts.patch(`${DEPLOY}/web`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.26' }] } } } }, 'application/strategic-merge-patch+json');
    await bed.idle();
    for (let step = 0; step < 10; step++) {
      const live = (await pods('web')).filter((p: Any) => !p.metadata.deletionTimestamp);
      const ready = live.filter((p: Any) => (p.status.conditions ?? []).some((c: Any) => c.type === 'Ready' && c.status === 'True'));
      expect(live.length).toBeLessThanOrEqual(5); // replicas + maxSurge
      expect(ready.length).toBeGreaterThanOrEqual(4); // replicas - maxUnavailable
      if ((await readyAll('web')) === 0) break;
    }
    const d = await get(`${DEPLOY}/web`);
    expect(rolloutStatus(d)).toBe('deployment "web" successfully rolled out');
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
    const rss = await replicaSets('web');
    expect(rss).toHaveLength(2);
    const second = rss.find((r: Any) => r.metadata.uid !== first.metadata.uid);
    expect(second.spec.replicas).toBe(4);
    expect(second.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
    expect(rss.find((r: Any) => r.metadata.uid === first.metadata.uid).spec.replicas).toBe(0);
    const messages = (await events('web')).map((e: Any) => e.message);
    expect(messages).toContain(`Scaled up replica set ${second.metadata.name} to 1`);
    expect(messages).toContain(`Scaled down replica set ${first.metadata.name} to 3 from 4`);
    expect(messages).toContain(`Scaled up replica set ${second.metadata.name} to 2 from 1`);
    expect((await pods('web')).every((p: Any) => p.spec.containers[0].image === 'nginx:1.26')).toBe(true);

    // kubectl rollout undo: a JSON patch of the template (hash label dropped) and the annotations.
    const template = structuredClone(first.spec.template);
    delete template.metadata.labels['pod-template-hash'];
    const undo = [
      { op: 'replace', path: '/spec/template', value: template },
      { op: 'replace', path: '/metadata/annotations', value: { 'deployment.kubernetes.io/revision': '2' } },
    ];
    expect((await bed.ts.patch(`${DEPLOY}/web`, undo, JSON_PATCH)).status).toBe(200);
    await bed.idle();
    for (let i = 0; i < 10 && (await readyAll('web')) > 0; i++);
    const back = await get(`${DEPLOY}/web`);
    expect(rolloutStatus(back)).toBe('deployment "web" successfully rolled out');
    expect(back.metadata.annotations['deployment.kubernetes.io/revision']).toBe('3');
    const old = await get(`${RS}/${first.metadata.name}`);
    expect(old.spec.replicas).toBe(4);
    expect(old.metadata.annotations['deployment.kubernetes.io/revision']).toBe('3');
    expect(old.metadata.annotations['deployment.kubernetes.io/revision-history']).toBe('1');
    expect((await get(`${RS}/${second.metadata.name}`)).spec.replicas).toBe(0);
    expect((await pods('web')).every((p: Any) => p.spec.containers[0].image === 'nginx:1.25')).toBe(true);
  });

  it('scales through the scale subresource (generation bumped) and spreads a scale during a rollout proportionally', async () => {
    await start();
    await bed.ts.post(DEPLOY, deployment('web', 10, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } } }));
    await bed.idle();
    await readyAll('web');
    expect((await bed.ts.patch(`${DEPLOY}/web/scale`, { spec: { replicas: 4 } }, MERGE)).status).toBe(200);
    await bed.idle();
    let d = await get(`${DEPLOY}/web`);
    expect(d.metadata.generation).toBe(2);
    expect(d.status).toMatchObject({ observedGeneration: 2, replicas: 4, updatedReplicas: 4, availableReplicas: 4 });
    const [rs] = await replicaSets('web');
    expect(rs.metadata.annotations['deployment.kubernetes.io/desired-replicas']).toBe('4');
    expect((await events('web')).map((e: Any) => e.message)).toContain(`Scaled down replica set ${rs.metadata.name} to 4 from 10`);

    // A rollout that cannot progress (new pods never Ready), then a scale: both ReplicaSets grow in proportion.
    await bed.ts.patch(`${DEPLOY}/web`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'broken' }] } } } }, 'application/strategic-merge-patch+json');
    await bed.idle();
    const during = await replicaSets('web');
    const sizes = () => during.map((r: Any) => r.spec.replicas).sort((a: number, b: number) => a - b);
    // At most replicas + maxSurge = 4 + 3 pods' worth of ReplicaSets.
    expect(sizes().reduce((a: number, b: number) => a + b, 0)).toBeLessThanOrEqual(7);
    await bed.ts.patch(`${DEPLOY}/web/scale`, { spec: { replicas: 8 } }, MERGE);
    await bed.idle();
    d = await get(`${DEPLOY}/web`);
    const after = await replicaSets('web');
    const total = after.reduce((n: number, r: Any) => n + r.spec.replicas, 0);
    expect(total).toBe(8 + 3);
    expect(after.every((r: Any) => r.metadata.annotations['deployment.kubernetes.io/desired-replicas'] === '8')).toBe(true);
    expect(after.every((r: Any) => r.metadata.annotations['deployment.kubernetes.io/max-replicas'] === '11')).toBe(true);
  });

  it('pauses and resumes: no rollout while paused, Progressing Unknown DeploymentPaused / DeploymentResumed', async () => {
    await start();
    await bed.ts.post(DEPLOY, deployment('web', 2));
    await bed.idle();
    await readyAll('web');
    await bed.ts.patch(`${DEPLOY}/web`, { spec: { paused: true } }, MERGE);
    await bed.idle();
    let d = await get(`${DEPLOY}/web`);
    expect(cond(d, 'Progressing')).toMatchObject({ status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' });
    await bed.ts.patch(`${DEPLOY}/web`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.26' }] } } } }, 'application/strategic-merge-patch+json');
    await bed.idle();
    expect(await replicaSets('web')).toHaveLength(1);
    d = await get(`${DEPLOY}/web`);
    expect(d.status.observedGeneration).toBe(d.metadata.generation);

    await bed.ts.patch(`${DEPLOY}/web`, { spec: { paused: null } }, MERGE);
    await bed.idle();
    expect(await replicaSets('web')).toHaveLength(2);
    for (let i = 0; i < 10 && (await readyAll('web')) > 0; i++);
    d = await get(`${DEPLOY}/web`);
    expect(rolloutStatus(d)).toBe('deployment "web" successfully rolled out');
    expect(cond(d, 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' });
  });

  it('reports ProgressDeadlineExceeded when the cluster clock passes the deadline without progress', async () => {
    await start();
    await bed.ts.post(DEPLOY, deployment('web', 2, { progressDeadlineSeconds: 60 }));
    await bed.idle();
    const [rs] = await replicaSets('web');
    bed.ts.clock.advance(30_000);
    await bed.idle();
    expect(cond(await get(`${DEPLOY}/web`), 'Progressing').reason).toBe('ReplicaSetUpdated');
    bed.ts.clock.advance(32_000);
    await bed.idle();
    const d = await get(`${DEPLOY}/web`);
    expect(cond(d, 'Progressing')).toMatchObject({ status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${rs.metadata.name}" has timed out progressing.` });
    expect(rolloutStatus(d)).toBe('deployment "web" exceeded its progress deadline');
    // Progress afterwards completes the rollout.
    await readyAll('web');
    expect(cond(await get(`${DEPLOY}/web`), 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' });
  });

  it('Recreate: scales the old ReplicaSet to zero and waits for its pods before creating the new one', async () => {
    await start();
    await bed.ts.post(DEPLOY, deployment('web', 2, { strategy: { type: 'Recreate' } }));
    await bed.idle();
    await readyAll('web');
    const [first] = await replicaSets('web');
    await bed.ts.patch(`${DEPLOY}/web`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.26' }] } } } }, 'application/strategic-merge-patch+json');
    await bed.idle();
    const rss = await replicaSets('web');
    expect(rss).toHaveLength(2);
    expect((await get(`${RS}/${first.metadata.name}`)).spec.replicas).toBe(0);
    const live = await pods('web');
    expect(live).toHaveLength(2);
    expect(live.every((p: Any) => p.spec.containers[0].image === 'nginx:1.26')).toBe(true);
    await readyAll('web');
    expect(rolloutStatus(await get(`${DEPLOY}/web`))).toBe('deployment "web" successfully rolled out');
  });

  it('keeps revisionHistoryLimit old ReplicaSets', async () => {
    await start();
    await bed.ts.post(DEPLOY, deployment('web', 1, { revisionHistoryLimit: 1 }));
    await bed.idle();
    for (const image of ['nginx:1', 'nginx:2', 'nginx:3']) {
      await readyAll('web');
      await bed.ts.patch(`${DEPLOY}/web`, { spec: { template: { spec: { containers: [{ name: 'c', image }] } } } }, 'application/strategic-merge-patch+json');
      await bed.idle();
      for (let i = 0; i < 5 && (await readyAll('web')) > 0; i++);
    }
    const rss = await replicaSets('web');
    expect(rss.map((r: Any) => r.metadata.annotations['deployment.kubernetes.io/revision']).sort()).toEqual(['3', '4']);
  });

  it('orphans its ReplicaSets on an orphan delete, and a new Deployment adopts them', async () => {
    await start();
    await bed.ts.post(DEPLOY, deployment('web', 2));
    await bed.idle();
    const [rs] = await replicaSets('web');
    await bed.ts.del(`${DEPLOY}/web`, { propagationPolicy: 'Orphan' });
    await bed.idle();
    const orphan = await get(`${RS}/${rs.metadata.name}`);
    expect(orphan.metadata.ownerReferences ?? []).toEqual([]);
    expect(await pods('web')).toHaveLength(2);

    await bed.ts.post(DEPLOY, deployment('web', 2));
    await bed.idle();
    const d = await get(`${DEPLOY}/web`);
    const adopted = await get(`${RS}/${rs.metadata.name}`);
    expect(adopted.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(await replicaSets('web')).toHaveLength(1);
    expect(await pods('web')).toHaveLength(2);
  });

  it('a restart (kubectl.kubernetes.io/restartedAt) is a new template and a new ReplicaSet', async () => {
    await start();
    await bed.ts.post(DEPLOY, deployment('web', 1));
    await bed.idle();
    await readyAll('web');
    await bed.ts.patch(`${DEPLOY}/web`, { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': nowText() } } } } }, 'application/strategic-merge-patch+json');
    await bed.idle();
    for (let i = 0; i < 5 && (await readyAll('web')) > 0; i++);
    const rss = await replicaSets('web');
    expect(rss).toHaveLength(2);
    const live = (await pods('web')).filter((p: Any) => !p.metadata.deletionTimestamp);
    expect(live).toHaveLength(1);
    expect(live[0].metadata.annotations['kubectl.kubernetes.io/restartedAt']).toBeDefined();
  });
});
