// The DaemonSet controller's pure parts: which nodes should run a daemon pod
// (taints, tolerations incl. the automatic ones, selectors, affinity), the
// node pin, and the rolling update's choices.

import { describe, expect, it } from 'vitest';
import { daemonPodTemplate, isPodUpdated } from './daemon-pods';
import { nodeShouldRunDaemonPod, pinnedToNode, targetNodeName } from './node-eligibility';
import { rollingUpdatePlan } from './plan';

const node = (name: string, taints: unknown[] = [], labels: Record<string, string> = {}) => ({ metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } }, spec: { taints } });
const ds = (podSpec: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) => ({
  metadata: { name: 'agent', namespace: 'default', uid: 'ds-uid' },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...podSpec } },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    ...spec,
  },
});

describe('node eligibility', () => {
  it('skips a NoSchedule taint the pod does not tolerate, keeping a running pod unless NoExecute', () => {
    expect(nodeShouldRunDaemonPod(node('cp', [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]), ds())).toEqual({ shouldRun: false, shouldContinueRunning: true });
    expect(nodeShouldRunDaemonPod(node('n', [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }]), ds())).toEqual({ shouldRun: false, shouldContinueRunning: false });
    expect(nodeShouldRunDaemonPod(node('n', [{ key: 'x', effect: 'PreferNoSchedule' }]), ds())).toEqual({ shouldRun: true, shouldContinueRunning: true });
  });

  it('tolerates the node conditions daemon pods always tolerate', () => {
    for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
      expect(nodeShouldRunDaemonPod(node('n', [{ key, effect: 'NoExecute' }]), ds()).shouldRun).toBe(true);
    }
    expect(nodeShouldRunDaemonPod(node('n', [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]), ds()).shouldRun).toBe(true);
    const network = node('n', [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }]);
    expect(nodeShouldRunDaemonPod(network, ds()).shouldRun).toBe(false);
    expect(nodeShouldRunDaemonPod(network, ds({ hostNetwork: true })).shouldRun).toBe(true);
  });

  it('honours a toleration, the node selector, required affinity and the template nodeName', () => {
    const cp = node('cp', [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
    expect(nodeShouldRunDaemonPod(cp, ds({ tolerations: [{ operator: 'Exists' }] })).shouldRun).toBe(true);
    expect(nodeShouldRunDaemonPod(node('n', [], { disk: 'ssd' }), ds({ nodeSelector: { disk: 'ssd' } })).shouldRun).toBe(true);
    expect(nodeShouldRunDaemonPod(node('n'), ds({ nodeSelector: { disk: 'ssd' } })).shouldRun).toBe(false);
    const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } } };
    expect(nodeShouldRunDaemonPod(node('n', [], { zone: 'a' }), ds({ affinity })).shouldRun).toBe(true);
    expect(nodeShouldRunDaemonPod(node('n', [], { zone: 'b' }), ds({ affinity })).shouldRun).toBe(false);
    expect(nodeShouldRunDaemonPod(node('n'), ds({ nodeName: 'other' })).shouldRun).toBe(false);
  });

  it('pins a pod to its node by field affinity, replacing other required terms', () => {
    const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } } };
    const pinned = pinnedToNode(affinity, 'n1');
    expect(pinned).toEqual({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }] } } });
    expect(targetNodeName({ spec: { affinity: pinned } })).toBe('n1');
    expect(targetNodeName({ spec: { nodeName: 'n2', affinity: pinned } })).toBe('n2');
  });

  it('labels pods with the revision hash and template generation', () => {
    const t = daemonPodTemplate(ds().spec.template, 3, 'abc');
    expect((t.metadata as { labels: Record<string, string> }).labels).toEqual({ app: 'agent', 'pod-template-generation': '3', 'controller-revision-hash': 'abc' });
    expect(isPodUpdated({ metadata: { labels: { 'controller-revision-hash': 'abc' } } }, 'abc', undefined)).toBe(true);
    expect(isPodUpdated({ metadata: { labels: { 'controller-revision-hash': 'old' } } }, 'abc', undefined)).toBe(false);
  });
});

describe('rolling update', () => {
  const ready = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }] };
  const pod = (name: string, nodeName: string, hash: string) => ({ metadata: { name, labels: { 'controller-revision-hash': hash } }, spec: { nodeName }, status: ready });
  const nodes = [node('a'), node('b'), node('c')];
  const now = Date.parse('2024-01-02T00:00:00Z');

  it('deletes old available pods up to maxUnavailable', () => {
    const map = new Map([['a', [pod('p-a', 'a', 'old')]], ['b', [pod('p-b', 'b', 'old')]], ['c', [pod('p-c', 'c', 'old')]]]);
    expect(rollingUpdatePlan(ds(), nodes, map, 'new', now)).toEqual({ remove: ['p-a'], create: [] });
    const two = ds({}, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2, maxSurge: 0 } } });
    expect(rollingUpdatePlan(two, nodes, map, 'new', now)).toEqual({ remove: ['p-a', 'p-b'], create: [] });
  });

  it('waits while a new pod is not available yet', () => {
    const map = new Map([['a', [{ ...pod('p-a', 'a', 'new'), status: { phase: 'Pending' } }]], ['b', [pod('p-b', 'b', 'old')]], ['c', [pod('p-c', 'c', 'old')]]]);
    expect(rollingUpdatePlan(ds(), nodes, map, 'new', now)).toEqual({ remove: [], create: [] });
  });

  it('surges: a new pod beside an old one, and the old one goes once the new is available', () => {
    const surge = ds({}, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } });
    const map = new Map([['a', [pod('p-a', 'a', 'old')]], ['b', [pod('p-b', 'b', 'old')]], ['c', [pod('p-c', 'c', 'old')]]]);
    expect(rollingUpdatePlan(surge, nodes, map, 'new', now)).toEqual({ remove: [], create: ['a'] });
    map.set('a', [pod('p-a', 'a', 'old'), pod('p-a2', 'a', 'new')]);
    // a's surge slot is freed as its old pod goes, so b starts its new pod in the same round.
    expect(rollingUpdatePlan(surge, nodes, map, 'new', now)).toEqual({ remove: ['p-a'], create: ['b'] });
  });
});
