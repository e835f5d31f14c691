// The shared workload pieces on their own: kube's order of pods to delete,
// availability after minReadySeconds, expectations, slow-start batches and
// pods made from a template.

import { describe, expect, it } from 'vitest';
import { manualClock } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { availableAtMs, ControllerExpectations, isPodAvailable, podFromTemplate, podNamePrefix, podsToDelete, slowStartBatch } from './index';

const NOW = Date.parse('2024-06-01T12:00:00Z');
const ago = (s: number) => new Date(NOW - s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

function pod(name: string, o: { node?: string; phase?: string; readyFor?: number; restarts?: number; age?: number; cost?: string; uid?: string } = {}): KubeObject {
  const conditions = o.readyFor !== undefined ? [{ type: 'Ready', status: 'True', lastTransitionTime: ago(o.readyFor) }] : [{ type: 'Ready', status: 'False' }];
  return {
    metadata: {
      name,
      uid: o.uid ?? name,
      creationTimestamp: ago(o.age ?? 1000),
      ...(o.cost !== undefined ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': o.cost } } : {}),
    },
    spec: o.node ? { nodeName: o.node } : {},
    status: { phase: o.phase ?? 'Running', conditions, containerStatuses: [{ name: 'c', restartCount: o.restarts ?? 0 }] },
  };
}

const names = (pods: KubeObject[]) => pods.map((p) => p.metadata!.name);

describe('pods to delete first (ActivePodsWithRanks)', () => {
  it('unscheduled, then Pending, then not Ready, then lower deletion cost', () => {
    const pods = [
      pod('running-ready', { node: 'n1', readyFor: 100 }),
      pod('unscheduled'),
      pod('pending', { node: 'n1', phase: 'Pending' }),
      pod('not-ready', { node: 'n1' }),
      pod('cheap', { node: 'n1', readyFor: 100, cost: '-5' }),
    ];
    expect(names(podsToDelete(pods, [], 4, NOW))).toEqual(['unscheduled', 'pending', 'not-ready', 'cheap']);
  });

  it('doubled-up nodes first, then Ready for less time (log scale), more restarts, newer', () => {
    const a = pod('a', { node: 'busy', readyFor: 100 });
    const b = pod('b', { node: 'quiet', readyFor: 100 });
    const related = [a, pod('a2', { node: 'busy', readyFor: 100 }), b];
    expect(names(podsToDelete([b, a], related, 1, NOW))).toEqual(['a']);
    const young = pod('young', { node: 'n', readyFor: 10 });
    const old = pod('old', { node: 'n', readyFor: 10_000 });
    expect(names(podsToDelete([old, young], [], 1, NOW))).toEqual(['young']);
    const crashy = pod('crashy', { node: 'n', readyFor: 100, restarts: 3, uid: 'z' });
    const calm = pod('calm', { node: 'n', readyFor: 100, uid: 'a' });
    expect(names(podsToDelete([calm, crashy], [], 1, NOW))).toEqual(['crashy']);
    const newer = pod('newer', { node: 'n', readyFor: 100, age: 200 });
    const older = pod('older', { node: 'n', readyFor: 100, age: 100_000 });
    expect(names(podsToDelete([older, newer], [], 1, NOW))).toEqual(['newer']);
  });
});

describe('availability', () => {
  it('counts a Ready pod as available strictly after minReadySeconds', () => {
    const p = pod('p', { readyFor: 10 });
    expect(isPodAvailable(p, 0, NOW)).toBe(true);
    expect(isPodAvailable(p, 10, NOW)).toBe(false);
    expect(isPodAvailable(p, 9, NOW)).toBe(true);
    expect(availableAtMs(p, 10, NOW)).toBe(NOW + 1);
    expect(isPodAvailable(pod('n'), 0, NOW)).toBe(false);
  });
});

describe('expectations', () => {
  it('waits for each expected creation and named deletion, and expires after five minutes', () => {
    const clock = manualClock(NOW);
    const e = new ControllerExpectations(clock);
    expect(e.satisfied('ns/rs')).toBe(true);
    e.expectCreations('ns/rs', 2);
    e.creationObserved('ns/rs');
    expect(e.satisfied('ns/rs')).toBe(false);
    e.creationObserved('ns/rs');
    expect(e.satisfied('ns/rs')).toBe(true);
    e.expectDeletions('ns/rs', ['ns/a', 'ns/b']);
    e.deletionObserved('ns/rs', 'ns/a');
    e.deletionObserved('ns/rs', 'ns/a');
    e.deletionObserved('ns/rs', 'ns/other');
    expect(e.satisfied('ns/rs')).toBe(false);
    clock.advance(5 * 60 * 1000 + 1);
    expect(e.satisfied('ns/rs')).toBe(true);
  });
});

describe('slow start', () => {
  it('sends batches of 1, 2, 4… and stops at the first failing batch', async () => {
    const batches: number[] = [];
    let current = 0;
    const ok = await slowStartBatch(10, 1, async () => {
      // Calls of one batch start together, before any of them resolves.
      if (current === 0) queueMicrotask(() => (batches.push(current), (current = 0)));
      current++;
    });
    expect(ok).toEqual({ successes: 10 });
    expect(batches).toEqual([1, 2, 4, 3]);
    let n = 0;
    const failing = await slowStartBatch(10, 1, async () => {
      n++;
      if (n >= 3) throw new Error('quota');
    });
    expect(failing.successes).toBe(2);
    expect(String(failing.error)).toContain('quota');
    expect(n).toBe(3); // batches of 1 and 2, the second with the failure
  });
});

describe('pods from a template', () => {
  it('carries labels, annotations and the controller reference, named <owner>-', () => {
    const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'u', controller: true, blockOwnerDeletion: true };
    const p = podFromTemplate({ metadata: { labels: { app: 'web' }, annotations: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, 'web', ref);
    expect(p.metadata).toEqual({ generateName: 'web-', labels: { app: 'web' }, annotations: { a: 'b' }, ownerReferences: [ref] });
    expect(p.spec).toEqual({ containers: [{ name: 'c', image: 'nginx' }] });
    // kube's maskTrailingDash drops two characters before checking the length.
    expect(podNamePrefix('x'.repeat(253))).toBe(`${'x'.repeat(253)}-`);
    expect(podNamePrefix('x'.repeat(254))).toBe('x'.repeat(254));
  });
});
