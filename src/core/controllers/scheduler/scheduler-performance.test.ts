// Scheduling cost: 1,000 replicas of one ReplicaSet (so that default
// spreading counts matching pods on every attempt) placed one after the
// other on a kind-shaped cluster through the scheduler's cache, each assumed
// on its node before the next decision, as the controller does. The work
// per pod is bounded by the per-node aggregates, not by a pass over every
// pod for every node.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import { schedule, type ClusterView } from './framework';
import { podInfo } from './pod-info';
import { SchedulerCache } from './scheduler-cache';

/** A kind node whose kubelet takes 500 pods (--max-pods), so that all 1,000 fit on the two workers. */
const SIZE = { cpu: '16', memory: '32Gi', pods: '500' };
const node = (name: string, taints: unknown[] = []): KubeObject => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  spec: { taints },
  status: { allocatable: SIZE, conditions: [{ type: 'Ready', status: 'True' }] },
});

const rs: KubeObject = { metadata: { name: 'web-1', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web' } } } };
const view: ClusterView = {
  namespaceLabels: () => ({}),
  claim: () => undefined,
  volume: () => undefined,
  storageClass: () => undefined,
  services: () => [],
  replicaSet: () => rs,
  statefulSet: () => undefined,
  replicationController: () => undefined,
};

describe('scheduling cost', () => {
  it('places 1,000 pods on 3 nodes in well under a second of CPU, spread evenly over the workers', () => {
    const cache = new SchedulerCache();
    cache.setNode(node('kubetab-control-plane', [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]));
    cache.setNode(node('kubetab-worker'));
    cache.setNode(node('kubetab-worker2'));
    const placed = new Map<string, number>();
    let unschedulable = 0;
    const start = performance.now();
    for (let i = 0; i < 1000; i++) {
      const pod: KubeObject = {
        metadata: { name: `web-${i}`, namespace: 'default', uid: `u${i}`, labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'rs', controller: true }] },
        spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
      };
      const info = podInfo(pod);
      const decision = schedule(info, cache.nodeList(), view);
      if (decision.kind === 'bind') {
        cache.assume(info, decision.node);
        placed.set(decision.node, (placed.get(decision.node) ?? 0) + 1);
      } else unschedulable++;
    }
    const ms = performance.now() - start;
    expect(Object.fromEntries(placed)).toEqual({ 'kubetab-worker': 500, 'kubetab-worker2': 500 });
    expect(unschedulable).toBe(0);
    expect(ms).toBeLessThan(1500);
  });
});
