// How the node-lifecycle controller judges a node: signs of life are counted
// from when the controller notices them, so a controller that starts late
// (a server reopened the next day) gives every node the full grace period.

import { describe, expect, it } from 'vitest';
import { assessNode } from './node-health';

const T0 = Date.UTC(2024, 11, 11, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

function node(heartbeatMs: number, status = 'True') {
  const c = (type: string, s: string) => ({ type, status: s, lastHeartbeatTime: iso(heartbeatMs), lastTransitionTime: iso(T0 - 3_600_000) });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n', creationTimestamp: iso(T0 - 86_400_000) },
    status: { conditions: [c('MemoryPressure', 'False'), c('DiskPressure', 'False'), c('PIDPressure', 'False'), c('Ready', status)] },
  };
}

describe('assessNode', () => {
  it('gives a node first seen the whole grace period, however old its lease (a restart the next day)', () => {
    const yesterday = T0 - 86_400_000;
    const first = assessNode(node(yesterday), undefined, iso(yesterday), T0);
    expect(first.statusUpdate).toBeUndefined();
    const at49 = assessNode(node(yesterday), first.health, iso(yesterday), T0 + 49_000);
    expect(at49.statusUpdate).toBeUndefined();
    const at51 = assessNode(node(yesterday), at49.health, iso(yesterday), T0 + 51_000);
    expect(at51.currentReady).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    expect(at51.observedReady.status).toBe('True');
  });

  it('a renewed lease counts as a sign of life', () => {
    const first = assessNode(node(T0), undefined, iso(T0), T0);
    const renewed = assessNode(node(T0), first.health, new Date(T0 + 40_000).toISOString(), T0 + 40_000);
    expect(assessNode(node(T0), renewed.health, new Date(T0 + 40_000).toISOString(), T0 + 80_000).statusUpdate).toBeUndefined();
    expect(assessNode(node(T0), renewed.health, new Date(T0 + 40_000).toISOString(), T0 + 91_000).statusUpdate).toBeDefined();
  });

  it('a node that never posted status gets the start-up grace from its creation, then NodeStatusNeverUpdated', () => {
    const bare = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n', creationTimestamp: iso(T0) } };
    expect(assessNode(bare, undefined, undefined, T0 + 59_000).statusUpdate).toBeUndefined();
    const late = assessNode(bare, undefined, undefined, T0 + 61_000);
    const conditions = (late.statusUpdate!['status'] as { conditions: { type: string; status: string; reason: string; message: string }[] }).conditions;
    expect(conditions.map((c) => [c.type, c.status, c.reason, c.message])).toEqual(
      ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((t) => [t, 'Unknown', 'NodeStatusNeverUpdated', 'Kubelet never posted node status.']),
    );
  });
});
