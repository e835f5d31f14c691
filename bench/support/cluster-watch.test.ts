// The cluster benchmark's observers (no server: the benchmark itself runs only under `npm run bench`).

import { describe, expect, it } from 'vitest';
import { clusterSeconds, deploymentAvailable, LineSplitter, RunningPods } from './cluster-watch';

describe('cluster benchmark observers', () => {
  it('splits a watch stream into whole lines across chunks', () => {
    const lines = new LineSplitter();
    expect(lines.push('{"a":1}\n{"b"')).toEqual(['{"a":1}']);
    expect(lines.push(':2}\n\n{"c":3}\n')).toEqual(['{"b":2}', '{"c":3}']);
  });

  it('counts pods Running by name, once each, and forgets deleted ones', () => {
    const running = new RunningPods();
    const pod = (name: string, phase: string) => ({ metadata: { name }, status: { phase } });
    running.observe('ADDED', pod('a', 'Pending'));
    running.observe('MODIFIED', pod('a', 'Running'));
    running.observe('MODIFIED', pod('a', 'Running'));
    running.observe('ADDED', pod('b', 'Running'));
    expect(running.count).toBe(2);
    running.observe('DELETED', pod('b', 'Running'));
    running.observe('MODIFIED', pod('a', 'Failed'));
    expect(running.count).toBe(0);
  });

  it('sees a Deployment available only when its latest generation has every replica updated and available', () => {
    const deployment = (generation: number, status: Record<string, unknown>) => ({ metadata: { generation }, status });
    expect(deploymentAvailable(deployment(1, { observedGeneration: 1, updatedReplicas: 10, availableReplicas: 9 }), 10)).toBe(false);
    expect(deploymentAvailable(deployment(2, { observedGeneration: 1, updatedReplicas: 10, availableReplicas: 10 }), 10)).toBe(false);
    expect(deploymentAvailable(deployment(2, { observedGeneration: 2, updatedReplicas: 10, availableReplicas: 10 }), 10)).toBe(true);
    expect(clusterSeconds('2024-12-11T12:00:00Z', '2024-12-11T12:01:05Z')).toBe(65);
  });
});
