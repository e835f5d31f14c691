// Pod garbage collection: pods bound to a node that is deleted are marked
// Failed with DisruptionTarget and deleted after the quarantine; terminated
// pods above the threshold go oldest (evicted first).

import { afterEach, describe, expect, it } from 'vitest';
import { startBatchTestBed, type BatchTestBed } from '../job/job-test-support';
import { outOfServiceTerminatingPods, terminatedPodsToDelete, unscheduledTerminatingPods } from './pod-gc-policy';

const PODS = '/api/v1/namespaces/default/pods';
let bed: BatchTestBed | undefined;
afterEach(async () => {
  expect(bed?.logs.filter((l) => /error|failed/i.test(l)) ?? []).toEqual([]);
  await bed?.close();
  bed = undefined;
});

const pod = (name: string, created: string, phase: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name, creationTimestamp: created, ...((extra.metadata as object) ?? {}) },
  spec: { nodeName: 'n1', ...((extra.spec as object) ?? {}) },
  status: { phase, ...((extra.status as object) ?? {}) },
});

describe('pod GC policy', () => {
  it('deletes terminated pods beyond the threshold, evicted first, then oldest', () => {
    const pods = [
      pod('a', '2024-12-11T12:00:03Z', 'Succeeded'),
      pod('b', '2024-12-11T12:00:01Z', 'Failed'),
      pod('c', '2024-12-11T12:00:02Z', 'Running'),
      pod('d', '2024-12-11T12:00:09Z', 'Failed', { status: { reason: 'Evicted' } }),
      pod('e', '2024-12-11T12:00:05Z', 'Succeeded'),
    ];
    expect(terminatedPodsToDelete(pods, 2).map((p) => p.metadata?.name)).toEqual(['d', 'b']);
    expect(terminatedPodsToDelete(pods, 4)).toEqual([]);
    expect(terminatedPodsToDelete(pods, 0)).toEqual([]);
  });

  it('finds unscheduled terminating pods and terminating pods on out-of-service nodes', () => {
    const terminating = { metadata: { deletionTimestamp: '2024-12-11T12:00:00Z' } };
    const pods = [pod('x', '2024-12-11T12:00:00Z', 'Running', terminating), pod('y', '2024-12-11T12:00:00Z', 'Pending', { ...terminating, spec: { nodeName: '' } })];
    expect(unscheduledTerminatingPods(pods).map((p) => p.metadata?.name)).toEqual(['y']);
    const node = (taint: boolean, ready: string) => ({
      metadata: { name: 'n1' },
      spec: taint ? { taints: [{ key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute' }] } : {},
      status: { conditions: [{ type: 'Ready', status: ready }] },
    });
    expect(outOfServiceTerminatingPods(pods, new Map([['n1', node(true, 'False')]])).map((p) => p.metadata?.name)).toEqual(['x']);
    expect(outOfServiceTerminatingPods(pods, new Map([['n1', node(true, 'True')]]))).toEqual([]);
    expect(outOfServiceTerminatingPods(pods, new Map([['n1', node(false, 'False')]]))).toEqual([]);
  });
});

describe('pod GC controller', () => {
  it('fails and deletes the pods of a deleted node after the 40 s quarantine', async () => {
    const b = (bed = await startBatchTestBed(['podgc']));
    expect((await b.ts.post('/api/v1/nodes', { metadata: { name: 'n1' } })).status).toBe(201);
    const res = await b.ts.post(PODS, {
      metadata: { name: 'orphan', finalizers: ['example.com/hold'] },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] },
    });
    expect(res.status).toBe(201);
    await b.ts.del('/api/v1/nodes/n1');
    await b.idle();
    await b.advance(20_000);
    // Quarantined: still untouched.
    expect((await b.ts.get(`${PODS}/orphan`)).body.metadata.deletionTimestamp).toBeUndefined();
    await b.advance(20_000);
    await b.advance(20_000);
    const got = (await b.ts.get(`${PODS}/orphan`)).body;
    expect(got.metadata.deletionTimestamp).toBeDefined();
    expect(got.status.phase).toBe('Failed');
    expect(got.status.conditions).toContainEqual(
      expect.objectContaining({ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' }),
    );
    expect(got.metadata.managedFields.some((m: { manager: string; subresource?: string }) => m.manager === 'PodGC' && m.subresource === 'status')).toBe(true);
  });
});
