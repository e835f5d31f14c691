// The Job controller's pure parts: completed-index intervals as kube writes
// them, the pod failure back-off, the pod failure policy's matching and
// messages, the success policy, and the order active pods are given up in.

import { describe, expect, it } from 'vitest';
import { compareActivePods } from './active-pods';
import { nextBackoffRecord, NO_BACKOFF, remainingBackoffMs } from './backoff';
import { firstPendingIndexes, generateNameWithIndex, OrderedIntervals } from './indexes';
import { matchPodFailurePolicy } from './pod-failure-policy';
import { matchSuccessPolicy } from './success-policy';

const failedPod = (finishedAt: string, exitCode = 1, extra: Record<string, unknown> = {}) => ({
  metadata: { name: 'p', namespace: 'ns', creationTimestamp: '2024-12-11T11:00:00Z' },
  status: { phase: 'Failed', containerStatuses: [{ name: 'main', state: { terminated: { exitCode, finishedAt } } }], ...extra },
});

describe('completed indexes', () => {
  it('parses and writes intervals as kube does', () => {
    expect(OrderedIntervals.parse('0,2-4,6', 10).toString()).toBe('0,2-4,6');
    expect(new OrderedIntervals().withIndexes([1, 2]).toString()).toBe('1,2');
    expect(new OrderedIntervals().withIndexes([1, 2, 3, 7]).toString()).toBe('1-3,7');
    expect(OrderedIntervals.parse('0-3', 10).withIndexes([4, 6]).toString()).toBe('0-4,6');
    expect(OrderedIntervals.parse('0-9', 5).toString()).toBe('0-4');
    expect(OrderedIntervals.parse('x,2', 5).toString()).toBe('2');
    expect(OrderedIntervals.parse('1,3-5', 10).total()).toBe(4);
    expect(firstPendingIndexes(OrderedIntervals.parse('0,2-3', 10), 3, 10)).toEqual([1, 4, 5]);
    expect(firstPendingIndexes(OrderedIntervals.parse('0-1', 3), 5, 3)).toEqual([2]);
    expect(generateNameWithIndex('pi', 3)).toBe('pi-3-');
    expect(generateNameWithIndex('x'.repeat(60), 12)).toBe(`${'x'.repeat(54)}-12-`);
  });
});

describe('pod failure back-off', () => {
  it('waits 10 s, doubling per failure since the last success, at most 10 minutes', () => {
    const t = Date.parse('2024-12-11T12:00:00Z');
    expect(remainingBackoffMs(1, t, t)).toBe(10_000);
    expect(remainingBackoffMs(1, t, t + 4_000)).toBe(6_000);
    expect(remainingBackoffMs(3, t, t)).toBe(40_000);
    expect(remainingBackoffMs(7, t, t)).toBe(600_000);
    expect(remainingBackoffMs(20, t, t)).toBe(600_000);
    expect(remainingBackoffMs(2, t, t + 30_000)).toBe(0);
    expect(remainingBackoffMs(0, undefined, t)).toBe(0);
  });

  it('counts failures after the latest success', () => {
    const r1 = nextBackoffRecord(NO_BACKOFF, [], [failedPod('2024-12-11T12:00:00Z'), failedPod('2024-12-11T12:00:05Z')]);
    expect(r1).toEqual({ failuresAfterLastSuccess: 2, lastFailureTime: Date.parse('2024-12-11T12:00:05Z') });
    const ok = { ...failedPod('2024-12-11T12:00:10Z', 0), status: { phase: 'Succeeded', containerStatuses: [{ name: 'main', state: { terminated: { exitCode: 0, finishedAt: '2024-12-11T12:00:10Z' } } }] } };
    expect(nextBackoffRecord(r1, [ok], [])).toEqual(NO_BACKOFF);
    expect(nextBackoffRecord(r1, [ok], [failedPod('2024-12-11T12:00:09Z'), failedPod('2024-12-11T12:00:11Z')])).toEqual({
      failuresAfterLastSuccess: 1,
      lastFailureTime: Date.parse('2024-12-11T12:00:11Z'),
    });
  });
});

describe('pod failure policy', () => {
  const policy = {
    rules: [
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
      { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
      { action: 'Count', onExitCodes: { operator: 'NotIn', values: [1, 2] } },
    ],
  };
  it('matches rules in order with kube’s messages', () => {
    expect(matchPodFailurePolicy(policy, failedPod('2024-12-11T12:00:00Z', 42))).toEqual({
      failJobMessage: 'Container main for pod ns/p failed with exit code 42 matching FailJob rule at index 1',
      countFailed: true,
      action: 'FailJob',
    });
    expect(matchPodFailurePolicy(policy, failedPod('2024-12-11T12:00:00Z', 1, { conditions: [{ type: 'DisruptionTarget', status: 'True' }] }))).toEqual({
      countFailed: false,
      action: 'Ignore',
    });
    expect(matchPodFailurePolicy(policy, failedPod('2024-12-11T12:00:00Z', 3))).toEqual({ countFailed: true, action: 'Count' });
    expect(matchPodFailurePolicy(policy, failedPod('2024-12-11T12:00:00Z', 1))).toEqual({ countFailed: true });
    expect(matchPodFailurePolicy(undefined, failedPod('2024-12-11T12:00:00Z', 42))).toEqual({ countFailed: true });
    const onCondition = { rules: [{ action: 'FailJob', onPodConditions: [{ type: 'ConfigIssue', status: 'True' }] }] };
    expect(matchPodFailurePolicy(onCondition, failedPod('2024-12-11T12:00:00Z', 1, { conditions: [{ type: 'ConfigIssue', status: 'True' }] })).failJobMessage).toBe(
      'Pod ns/p has condition ConfigIssue matching FailJob rule at index 0',
    );
  });
});

describe('success policy', () => {
  it('is met by required indexes or a count of them', () => {
    const done = OrderedIntervals.parse('0,2-4', 10);
    expect(matchSuccessPolicy({ rules: [{ succeededIndexes: '0,2' }] }, 10, done)).toBe('Matched rules at index 0');
    expect(matchSuccessPolicy({ rules: [{ succeededIndexes: '0-2' }, { succeededCount: 4 }] }, 10, done)).toBe('Matched rules at index 1');
    expect(matchSuccessPolicy({ rules: [{ succeededIndexes: '0-5', succeededCount: 3 }] }, 10, done)).toBe('Matched rules at index 0');
    expect(matchSuccessPolicy({ rules: [{ succeededCount: 5 }] }, 10, done)).toBeUndefined();
  });
});

describe('active pods order', () => {
  const p = (name: string, node: string, phase: string, ready: boolean, created: string) => ({
    metadata: { name, creationTimestamp: created },
    spec: node ? { nodeName: node } : {},
    status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: created }] },
  });
  it('gives up unscheduled, pending, not ready and newer pods first', () => {
    const pods = [
      p('ready-old', 'n', 'Running', true, '2024-12-11T10:00:00Z'),
      p('unscheduled', '', 'Pending', false, '2024-12-11T10:00:00Z'),
      p('running', 'n', 'Running', false, '2024-12-11T10:00:00Z'),
      p('pending', 'n', 'Pending', false, '2024-12-11T10:00:00Z'),
      p('ready-new', 'n', 'Running', true, '2024-12-11T11:00:00Z'),
    ];
    expect([...pods].sort(compareActivePods).map((x) => x.metadata.name)).toEqual(['unscheduled', 'pending', 'running', 'ready-new', 'ready-old']);
  });
});
