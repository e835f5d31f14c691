// The Deployment controller's arithmetic, checked against kube's own
// expectations (pkg/controller/deployment/util tests): percentages of
// maxSurge/maxUnavailable, how far a new ReplicaSet may grow, proportional
// scaling, revision bookkeeping, orderings, and the template hash.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import {
  findActiveOrLatest,
  maxSurge,
  maxUnavailable,
  newRSNewReplicas,
  proportion,
  resolveFenceposts,
  setNewReplicaSetAnnotations,
  bySizeNewer,
  bySizeOlder,
  byRevision,
  deploymentTimedOut,
  isSaturated,
} from './deployment-util';
import { computeTemplateHash, equalIgnoreHash, fnv32a, safeEncodeString } from './template-hash';

function deploy(replicas: number, surge: unknown = '25%', unavailable: unknown = '25%', extra: Record<string, unknown> = {}): KubeObject {
  return {
    metadata: { name: 'd', annotations: {} },
    spec: { replicas, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } }, template: { metadata: { labels: { a: 'b' } } }, ...extra },
    status: {},
  };
}

function rs(name: string, replicas: number, opts: { created?: string; revision?: string; max?: number; desired?: number; available?: number } = {}): KubeObject {
  const annotations: Record<string, string> = {};
  if (opts.revision) annotations['deployment.kubernetes.io/revision'] = opts.revision;
  if (opts.max !== undefined) annotations['deployment.kubernetes.io/max-replicas'] = String(opts.max);
  if (opts.desired !== undefined) annotations['deployment.kubernetes.io/desired-replicas'] = String(opts.desired);
  return {
    metadata: { name, uid: name, creationTimestamp: opts.created ?? '2024-01-01T00:00:00Z', annotations },
    spec: { replicas },
    status: { availableReplicas: opts.available ?? 0 },
  };
}

describe('maxSurge / maxUnavailable', () => {
  it('rounds surge up and unavailable down, and never lets both be 0', () => {
    expect(resolveFenceposts('25%', '25%', 10)).toEqual({ surge: 3, unavailable: 2 });
    expect(resolveFenceposts('25%', '25%', 1)).toEqual({ surge: 1, unavailable: 0 });
    expect(resolveFenceposts('0%', '0%', 3)).toEqual({ surge: 0, unavailable: 1 });
    expect(resolveFenceposts(0, '10%', 5)).toEqual({ surge: 0, unavailable: 1 });
    expect(resolveFenceposts(2, 1, 5)).toEqual({ surge: 2, unavailable: 1 });
  });

  it('caps maxUnavailable at the replicas and gives 0 without replicas or for Recreate', () => {
    expect(maxUnavailable(deploy(2, 0, 5))).toBe(2);
    expect(maxUnavailable(deploy(0, 1, 1))).toBe(0);
    const recreate = { ...deploy(3), spec: { replicas: 3, strategy: { type: 'Recreate' } } };
    expect(maxUnavailable(recreate)).toBe(0);
    expect(maxSurge(recreate)).toBe(0);
    expect(maxSurge(deploy(10))).toBe(3);
  });
});

describe('NewRSNewReplicas', () => {
  it('grows the new ReplicaSet up to replicas + maxSurge in total', () => {
    const d = deploy(10, 3, 2);
    const newRS = rs('new', 0);
    expect(newRSNewReplicas(d, [rs('old', 10), newRS], newRS)).toBe(3);
    expect(newRSNewReplicas(d, [rs('old', 13), newRS], newRS)).toBe(0);
    const grown = rs('new', 8);
    expect(newRSNewReplicas(d, [rs('old', 2), grown], grown)).toBe(10);
  });
});

describe('proportional scaling', () => {
  it('gives each ReplicaSet its share of the new size (GetProportion)', () => {
    // A deployment at 10 (+3 surge = 13 annotated), scaled to 20 (+5 surge = 25): 12 more in total.
    const d = deploy(20, 5, 0);
    const a = rs('a', 8, { max: 13 });
    const b = rs('b', 5, { max: 13 });
    const pa = proportion(a, d, 12, 0);
    const pb = proportion(b, d, 12, pa);
    expect(pa).toBe(7); // round(8*25/13)=15 → +7
    expect(pb).toBe(5); // round(5*25/13)=10 → +5, bounded by 12-7
    expect(proportion(rs('zero', 0), d, 12, 0)).toBe(0);
  });

  it('orders ReplicaSets by size, breaking ties newer-first when scaling up and older-first when down', () => {
    const older = rs('older', 3, { created: '2024-01-01T00:00:00Z' });
    const newer = rs('newer', 3, { created: '2024-01-02T00:00:00Z' });
    const big = rs('big', 5);
    expect([older, newer, big].sort(bySizeNewer).map((r) => r.metadata!.name)).toEqual(['big', 'newer', 'older']);
    expect([newer, older, big].sort(bySizeOlder).map((r) => r.metadata!.name)).toEqual(['big', 'older', 'newer']);
    expect([rs('r10', 0, { revision: '10' }), rs('r2', 0, { revision: '2' })].sort(byRevision).map((r) => r.metadata!.name)).toEqual(['r2', 'r10']);
  });

  it('finds the only active ReplicaSet, or the newest when none is active', () => {
    const a = rs('a', 0, { created: '2024-01-01T00:00:00Z' });
    const b = rs('b', 0, { created: '2024-01-02T00:00:00Z' });
    expect(findActiveOrLatest(undefined, [a, b])?.metadata?.name).toBe('b');
    expect(findActiveOrLatest(rs('n', 0), [a, b])?.metadata?.name).toBe('n');
    expect(findActiveOrLatest(rs('n', 1), [a, b])?.metadata?.name).toBe('n');
    expect(findActiveOrLatest(rs('n', 1), [rs('x', 1)])).toBeUndefined();
  });

  it('is saturated only when the new ReplicaSet has and was sized for every replica, all available', () => {
    const d = deploy(3);
    expect(isSaturated(d, rs('n', 3, { desired: 3, available: 3 }))).toBe(true);
    expect(isSaturated(d, rs('n', 3, { desired: 2, available: 3 }))).toBe(false);
    expect(isSaturated(d, rs('n', 3, { desired: 3, available: 2 }))).toBe(false);
  });
});

describe('revisions', () => {
  it('moves the old revision into revision-history and copies the Deployment annotations (not the skipped ones)', () => {
    const d = deploy(3);
    d.metadata!.annotations = { 'kubernetes.io/change-cause': 'set image', 'deployment.kubernetes.io/revision': '5', 'kubectl.kubernetes.io/last-applied-configuration': '{}' };
    const r = rs('old', 0, { revision: '1' });
    expect(setNewReplicaSetAnnotations(d, r, '3', true)).toBe(true);
    expect(r.metadata!.annotations).toEqual({ 'deployment.kubernetes.io/revision': '3', 'deployment.kubernetes.io/revision-history': '1', 'kubernetes.io/change-cause': 'set image' });
    expect(setNewReplicaSetAnnotations(d, r, '5', true)).toBe(true);
    expect(r.metadata!.annotations!['deployment.kubernetes.io/revision-history']).toBe('1,3');
    expect(setNewReplicaSetAnnotations(d, r, '5', true)).toBe(false);
    const fresh = rs('new', 0);
    setNewReplicaSetAnnotations(d, fresh, '1', false);
    expect(fresh.metadata!.annotations).toMatchObject({ 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4' });
  });
});

describe('progress deadline', () => {
  it('times out strictly after progressDeadlineSeconds from the last update', () => {
    const d = deploy(1, 1, 0, { progressDeadlineSeconds: 60 });
    const status = { conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', lastUpdateTime: '2024-01-01T00:00:00Z' }] };
    const t0 = Date.parse('2024-01-01T00:00:00Z');
    expect(deploymentTimedOut(d, status, t0 + 60_000)).toBe(false);
    expect(deploymentTimedOut(d, status, t0 + 60_001)).toBe(true);
    expect(deploymentTimedOut({ ...d, spec: { ...d.spec as object, progressDeadlineSeconds: 2147483647 } }, status, t0 + 1e9)).toBe(false);
  });
});

describe('pod-template-hash', () => {
  it('is FNV-32a printed in decimal through SafeEncodeString', () => {
    // FNV-1a 32 of "" is the offset basis; of "a" is 0xe40c292c.
    expect(fnv32a(new Uint8Array())).toBe(0x811c9dc5);
    expect(fnv32a(new TextEncoder().encode('a'))).toBe(0xe40c292c);
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  });

  it('depends on the template and the collision count, not on key order or empty fields', () => {
    const t1 = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const t2 = { spec: { containers: [{ image: 'nginx', name: 'c', env: [] }] }, metadata: { labels: { app: 'web' }, annotations: {} } };
    expect(computeTemplateHash(t1)).toBe(computeTemplateHash(t2));
    expect(computeTemplateHash(t1)).not.toBe(computeTemplateHash({ ...t1, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } }));
    expect(computeTemplateHash(t1, 1)).not.toBe(computeTemplateHash(t1));
    expect(computeTemplateHash(t1)).toMatch(/^[456789bcdf]+$/);
  });

  it('compares templates ignoring the pod-template-hash label', () => {
    const t = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    expect(equalIgnoreHash(t, { ...t, metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' } } })).toBe(true);
    expect(equalIgnoreHash(t, { ...t, metadata: { labels: { app: 'other' } } })).toBe(false);
  });
});
