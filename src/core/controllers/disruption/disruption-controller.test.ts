// The disruption controller and the eviction subresource against a real
// server: a PodDisruptionBudget's status follows its pods (this test plays
// the kubelet through pods/status), percentages are taken of the pods'
// controller's scale, and an eviction decrements disruptionsAllowed,
// records the pod in disruptedPods and marks it DisruptionTarget — or is
// refused with 429 when the budget allows no disruption.

import { afterEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';
import { createNode, createPod, NS, runPod, type Any } from '../endpoints/testing/cluster-objects';
import { scaledValue } from './pdb-status';

let bed: ControllerTestBed;
afterEach(async () => bed?.close());

const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

async function start(): Promise<void> {
  bed = await startControllerTestBed({ enabled: ['disruption'] });
  await createNode(bed.ts, 'worker');
}

async function pdb(name: string, spec: Record<string, unknown>): Promise<Any> {
  const res = await bed.ts.post(PDBS, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec } });
  expect(res.status).toBe(201);
  return res.body;
}

const status = async (name: string) => (await bed.ts.get(`${PDBS}/${name}`)).body.status;
const evict = (name: string) => bed.ts.post(`${NS}/pods/${name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } });

describe('pdb arithmetic', () => {
  it('rounds percentages up, as intstr.GetScaledValueFromIntOrPercent with roundUp', () => {
    expect(scaledValue('50%', 3, true)).toBe(2);
    expect(scaledValue('34%', 3, true)).toBe(2);
    expect(scaledValue(2, 10, true)).toBe(2);
    expect(() => scaledValue('5', 3, true)).toThrow('invalid value for IntOrString: invalid type: string is not a percentage');
  });
});

describe('disruption controller', () => {
  it('counts healthy pods against minAvailable and sets DisruptionAllowed', async () => {
    await start();
    await pdb('web', { minAvailable: 2 });
    for (const [i, name] of ['a', 'b', 'c'].entries()) {
      await createPod(bed.ts, name);
      await runPod(bed.ts, name, `10.244.1.${i + 2}`, i < 2);
    }
    await bed.idle();
    let s = await status('web');
    expect(s).toMatchObject({ currentHealthy: 2, desiredHealthy: 2, expectedPods: 3, disruptionsAllowed: 0, observedGeneration: 1 });
    expect(s.conditions).toEqual([{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration: 1, lastTransitionTime: expect.any(String) }]);
    await runPod(bed.ts, 'c', '10.244.1.4', true);
    await bed.idle();
    s = await status('web');
    expect(s).toMatchObject({ currentHealthy: 3, disruptionsAllowed: 1 });
    expect(s.conditions[0]).toMatchObject({ status: 'True', reason: 'SufficientPods' });
    const table = await bed.ts.get(`${PDBS}/web`, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.rows[0].cells.slice(0, 4)).toEqual(['web', '2', 'N/A', 1]);
  });

  it('takes a percentage of the scale of the pods\' controller', async () => {
    await start();
    const rs = await bed.ts.post('/apis/apps/v1/namespaces/default/replicasets', {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web' },
      spec: { replicas: 4, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const owner = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.body.metadata.uid, controller: true }];
    await createPod(bed.ts, 'a', { ownerReferences: owner });
    await runPod(bed.ts, 'a', '10.244.1.2', true);
    await pdb('web', { maxUnavailable: '50%' });
    await bed.idle();
    expect(await status('web')).toMatchObject({ expectedPods: 4, desiredHealthy: 2, currentHealthy: 1, disruptionsAllowed: 0 });
  });

  it('fails safe when a pod\'s controller cannot be found', async () => {
    await start();
    await createPod(bed.ts, 'a', { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone', uid: 'no-such-uid', controller: true }] });
    await runPod(bed.ts, 'a', '10.244.1.2', true);
    await pdb('web', { minAvailable: '50%' });
    await bed.idle();
    const s = await status('web');
    expect(s.disruptionsAllowed).toBe(0);
    expect(s.conditions[0]).toMatchObject({ type: 'DisruptionAllowed', status: 'False', reason: 'SyncFailed', message: 'found no controllers for pod "a"' });
  });
});

describe('eviction', () => {
  it('decrements the budget, records the pod and marks it, then refuses with 429', async () => {
    await start();
    await pdb('web', { minAvailable: 1 });
    for (const [i, name] of ['a', 'b'].entries()) {
      await createPod(bed.ts, name);
      await runPod(bed.ts, name, `10.244.1.${i + 2}`, true);
    }
    await bed.idle();
    expect((await status('web')).disruptionsAllowed).toBe(1);
    const first = await evict('a');
    expect(first.status).toBe(201);
    // The pod is deleted gracefully: it stays, terminating, with the DisruptionTarget condition.
    const pod = (await bed.ts.get(`${NS}/pods/a`)).body;
    expect(pod.metadata.deletionTimestamp).toBeDefined();
    expect(pod.status.conditions.find((c: Any) => c.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' });
    await bed.idle();
    const s = await status('web');
    expect(s.disruptionsAllowed).toBe(0);
    expect(s.currentHealthy).toBe(1);

    const refused = await evict('b');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 1 healthy pods and has 1 currently' }] },
    });
    expect((await bed.ts.get(`${NS}/pods/b`)).body.metadata.deletionTimestamp).toBeUndefined();
  });

  it('lets a not-ready pod go while the budget is healthy', async () => {
    await start();
    await pdb('web', { minAvailable: 1 });
    await createPod(bed.ts, 'a');
    await runPod(bed.ts, 'a', '10.244.1.2', true);
    await createPod(bed.ts, 'sick');
    await runPod(bed.ts, 'sick', '10.244.1.3', false);
    await bed.idle();
    expect((await evict('sick')).status).toBe(201);
    expect((await status('web')).disruptionsAllowed).toBe(0);
  });
});
