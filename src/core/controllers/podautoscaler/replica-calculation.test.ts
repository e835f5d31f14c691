// The HPA's arithmetic on its own: the replica calculator's treatment of
// missing, unready and ignored pods, the quantities it reads, and the
// normalization with and without behaviors (stabilization, rate policies,
// selectPolicy, limits) and the conditions each step reports.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import { milliQuantity, milliValue } from './quantities';
import { rawResourceReplicas, resourceReplicas, type PodMetricsInfo } from './replica-calculator';
import { newHistory, normalizeWithBehavior, normalizeWithoutBehavior, recordScaleEvent, type Behavior } from './normalization';

const NOW = Date.UTC(2024, 11, 11, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function pod(name: string, opts: { phase?: string; ready?: 'True' | 'False'; startedAgoMs?: number; readySinceMs?: number; deleting?: boolean; cpu?: string } = {}): KubeObject {
  const started = NOW - (opts.startedAgoMs ?? 10 * 60_000);
  return {
    metadata: { name, ...(opts.deleting ? { deletionTimestamp: iso(NOW) } : {}) },
    spec: { containers: [{ name: 'app', resources: { requests: { cpu: opts.cpu ?? '100m' } } }] },
    status: {
      phase: opts.phase ?? 'Running',
      startTime: iso(started),
      conditions: [{ type: 'Ready', status: opts.ready ?? 'True', lastTransitionTime: iso(opts.readySinceMs ?? started) }],
    },
  };
}

function metrics(values: Record<string, number>, timestampMs = NOW - 5_000): PodMetricsInfo {
  return new Map(Object.entries(values).map(([name, value]) => [name, { timestampMs, windowMs: 15_000, value }]));
}

describe('quantities', () => {
  it('reads MilliValue exactly, rounding up', () => {
    expect(milliValue('100m')).toBe(100);
    expect(milliValue('0.1')).toBe(100);
    expect(milliValue('1')).toBe(1000);
    expect(milliValue('5123456n')).toBe(6);
    expect(milliValue('64Mi')).toBe(64 * 1024 * 1024 * 1000);
    expect(milliValue('1e3')).toBe(1_000_000);
    expect(milliValue('abc')).toBeUndefined();
    expect(milliQuantity(90)).toBe('90m');
    expect(milliQuantity(1500)).toBe('1500m');
    expect(milliQuantity(2000)).toBe('2');
    expect(milliQuantity(33554432000)).toBe('33554432');
  });
});

describe('replica calculator', () => {
  const ctx = { nowMs: NOW };

  it('scales on the ready pods’ utilization and keeps the size within the tolerance', () => {
    const pods = [pod('a'), pod('b')];
    expect(resourceReplicas(ctx, 2, 50, 'cpu', '', pods, metrics({ a: 90, b: 90 }))).toEqual({ replicas: 4, utilization: 90, rawAverage: 90 });
    expect(resourceReplicas(ctx, 2, 50, 'cpu', '', pods, metrics({ a: 54, b: 54 })).replicas).toBe(2);
  });

  it('counts a missing pod as using its whole request on a scale-down, and nothing on a scale-up', () => {
    const pods = [pod('a'), pod('b'), pod('c')];
    // a, b at 10 %: without c a scale-down to 1; c counted at 100 % gives (10+10+100)/3 = 40 % → ceil(0.8 × 3) = 3.
    expect(resourceReplicas(ctx, 3, 50, 'cpu', '', pods, metrics({ a: 10, b: 10 })).replicas).toBe(3);
    // a, b at 200 %: c counted at 0 gives 133 % → ceil(2.67 × 3) = 8.
    expect(resourceReplicas(ctx, 3, 50, 'cpu', '', pods, metrics({ a: 200, b: 200 })).replicas).toBe(8);
  });

  it('leaves out deleting and failed pods, and treats Pending or unready pods as using nothing on a scale-up', () => {
    const pods = [pod('a'), pod('gone', { deleting: true }), pod('failed', { phase: 'Failed' }), pod('pending', { phase: 'Pending' })];
    const result = resourceReplicas(ctx, 2, 50, 'cpu', '', pods, metrics({ a: 100, gone: 500, failed: 500 }));
    // a alone is at 100 %, twice the target; the pending pod counted at 0 brings it to 50 %: no change.
    expect(result).toEqual({ replicas: 2, utilization: 100, rawAverage: 100 });
    const two = [pod('a'), pod('pending', { phase: 'Pending' })];
    // a at 300 %; with the pending pod at 0, 150 % → ceil(3 × 2) = 6.
    expect(resourceReplicas(ctx, 2, 50, 'cpu', '', two, metrics({ a: 300 })).replicas).toBe(6);
  });

  it('ignores a cpu sample taken before a window passed since a young pod became ready', () => {
    const young = pod('young', { startedAgoMs: 60_000, readySinceMs: NOW - 10_000 });
    expect(() => resourceReplicas(ctx, 1, 50, 'cpu', '', [young], metrics({ young: 90 }))).toThrow('did not receive metrics for targeted pods (pods might be unready)');
    const settled = pod('settled', { startedAgoMs: 60_000, readySinceMs: NOW - 40_000 });
    expect(resourceReplicas(ctx, 1, 50, 'cpu', '', [settled], metrics({ settled: 90 })).replicas).toBe(2);
  });

  it('refuses pods without a request and selectors that select nothing', () => {
    const noRequest: KubeObject = { ...pod('a'), spec: { containers: [{ name: 'app' }] } };
    expect(() => resourceReplicas(ctx, 1, 50, 'cpu', '', [noRequest], metrics({ a: 10 }))).toThrow('missing request for cpu in container app of Pod a');
    expect(() => resourceReplicas(ctx, 1, 50, 'cpu', '', [], metrics({}))).toThrow('no pods returned by selector while calculating replica count');
  });

  it('scales on an average value per pod', () => {
    const pods = [pod('a'), pod('b')];
    expect(rawResourceReplicas(ctx, 2, 100, 'cpu', pods, metrics({ a: 300, b: 100 }))).toEqual({ replicas: 4, usage: 200 });
  });
});

describe('normalization', () => {
  it('without a behavior: the highest recommendation of 5 minutes, the scale-up limit, min and max', () => {
    const h = newHistory();
    h.recommendations.push({ replicas: 5, atMs: NOW - 60_000 });
    const down = normalizeWithoutBehavior(h, NOW, 5, 2, 1, 10);
    expect(down.replicas).toBe(5);
    expect(down.ableToScale.reason).toBe('ScaleDownStabilized');
    const up = normalizeWithoutBehavior(newHistory(), NOW, 2, 20, 1, 10);
    expect(up).toMatchObject({ replicas: 4, scalingLimited: { status: 'True', reason: 'ScaleUpLimit' } });
    expect(normalizeWithoutBehavior(newHistory(), NOW, 2, 0, 1, 10)).toMatchObject({ replicas: 1, scalingLimited: { status: 'True', reason: 'TooFewReplicas' } });
    expect(normalizeWithoutBehavior(newHistory(), NOW, 2, 3, 1, 10)).toMatchObject({ replicas: 3, ableToScale: { reason: 'ReadyForNewScale' }, scalingLimited: { status: 'False', reason: 'DesiredWithinRange' } });
  });

  const behavior = (over: Partial<Behavior> = {}): Behavior => ({
    scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
    scaleDown: { stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    ...over,
  });

  it('with a behavior: the policies by selectPolicy, over the scale events of their periods', () => {
    // Max of (10 + 4, 10 × 2) = 20; Min = 14.
    expect(normalizeWithBehavior(newHistory(), NOW, 10, 30, 1, 50, behavior()).replicas).toBe(20);
    const min = behavior({ scaleUp: { ...behavior().scaleUp, selectPolicy: 'Min' } });
    expect(normalizeWithBehavior(newHistory(), NOW, 10, 30, 1, 50, min)).toMatchObject({ replicas: 14, scalingLimited: { status: 'True', reason: 'ScaleUpLimit' } });
    const disabled = behavior({ scaleUp: { ...behavior().scaleUp, selectPolicy: 'Disabled' } });
    expect(normalizeWithBehavior(newHistory(), NOW, 10, 30, 1, 50, disabled).replicas).toBe(10);
    // Two pods added 10 s ago count against a one-minute "2 Pods" policy.
    const h = newHistory();
    const slow = behavior({ scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }] } });
    recordScaleEvent(h, slow, 3, 5, NOW - 10_000);
    expect(normalizeWithBehavior(h, NOW, 5, 9, 1, 50, slow).replicas).toBe(5);
  });

  it('with a behavior: the scale-down window and rate, and a scale-up window', () => {
    const h = newHistory();
    h.recommendations.push({ replicas: 8, atMs: NOW - 100_000 });
    expect(normalizeWithBehavior(h, NOW, 8, 2, 1, 10, behavior())).toMatchObject({ replicas: 8, ableToScale: { reason: 'ScaleDownStabilized' } });
    const quick = behavior({ scaleDown: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 50, periodSeconds: 60 }] } });
    expect(normalizeWithBehavior(newHistory(), NOW, 8, 2, 1, 10, quick)).toMatchObject({ replicas: 4, scalingLimited: { status: 'True', reason: 'ScaleDownLimit' } });
    const h2 = newHistory();
    h2.recommendations.push({ replicas: 3, atMs: NOW - 30_000 });
    const upWindow = behavior({ scaleUp: { ...behavior().scaleUp, stabilizationWindowSeconds: 60 } });
    expect(normalizeWithBehavior(h2, NOW, 3, 6, 1, 10, upWindow)).toMatchObject({
      replicas: 3,
      ableToScale: { reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' },
    });
  });
});
