// Which volume a claim binds to (the PV controller's FindMatchingVolume and
// access-mode index), tested on plain objects.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import { findBestMatchForClaim, volumeMismatchReason } from './volume-matching';

const claim = (spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name: 'data', namespace: 'default', uid: 'claim-uid', ...meta },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: '', ...spec },
});

const volume = (name: string, storage: string, extra: Record<string, unknown> = {}, phase = 'Available', labels: Record<string, string> = {}): KubeObject => ({
  metadata: { name, labels },
  spec: { capacity: { storage }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/mnt/${name}` }, ...extra },
  status: { phase },
});

const names = (v: KubeObject | undefined) => v?.metadata?.name;

describe('findBestMatchForClaim', () => {
  it('takes the smallest Available volume that is large enough', () => {
    const volumes = [volume('big', '10Gi'), volume('small', '500Mi'), volume('fit', '2Gi'), volume('exact', '1Gi')];
    expect(names(findBestMatchForClaim(claim(), volumes, { delayBinding: false }))).toBe('exact');
  });

  it('prefers volumes with fewer access modes over smaller ones with more', () => {
    const volumes = [volume('rwx', '1Gi', { accessModes: ['ReadWriteOnce', 'ReadWriteMany'] }), volume('rwo', '5Gi')];
    expect(names(findBestMatchForClaim(claim(), volumes, { delayBinding: false }))).toBe('rwo');
    expect(names(findBestMatchForClaim(claim({ accessModes: ['ReadWriteMany'] }), volumes, { delayBinding: false }))).toBe('rwx');
  });

  it('skips claimed, non-Available, deleted, other-class, other-mode and unselected volumes', () => {
    const volumes = [
      volume('claimed', '1Gi', { claimRef: { name: 'other', namespace: 'default' } }),
      volume('released', '1Gi', {}, 'Released'),
      { ...volume('deleted', '1Gi'), metadata: { name: 'deleted', deletionTimestamp: '2024-12-11T12:00:00Z' } },
      volume('fast', '1Gi', { storageClassName: 'fast' }),
      volume('block', '1Gi', { volumeMode: 'Block' }),
      volume('blue', '1Gi', {}, 'Available', { color: 'blue' }),
    ];
    expect(findBestMatchForClaim(claim(), volumes.slice(0, 5), { delayBinding: false })).toBeUndefined();
    expect(names(findBestMatchForClaim(claim(), volumes, { delayBinding: false }))).toBe('blue');
    expect(findBestMatchForClaim(claim({ selector: { matchLabels: { color: 'red' } } }), volumes, { delayBinding: false })).toBeUndefined();
    expect(names(findBestMatchForClaim(claim({ storageClassName: 'fast' }), volumes, { delayBinding: false }))).toBe('fast');
  });

  it('a volume pre-bound to the claim wins, whatever its phase; waiting for a consumer takes only that', () => {
    const prebound = volume('mine', '5Gi', { claimRef: { name: 'data', namespace: 'default' } }, 'Pending');
    const volumes = [volume('exact', '1Gi'), prebound];
    expect(names(findBestMatchForClaim(claim(), volumes, { delayBinding: false }))).toBe('mine');
    expect(names(findBestMatchForClaim(claim(), [prebound, volume('exact', '1Gi')], { delayBinding: false }))).toBe('mine');
    expect(findBestMatchForClaim(claim(), [volume('exact', '1Gi')], { delayBinding: true })).toBeUndefined();
    expect(names(findBestMatchForClaim(claim(), [prebound], { delayBinding: true }))).toBe('mine');
    // Bound to an earlier claim of the same name: not this one.
    const stale = volume('stale', '1Gi', { claimRef: { name: 'data', namespace: 'default', uid: 'old-uid' } });
    expect(findBestMatchForClaim(claim(), [stale], { delayBinding: false })).toBeUndefined();
  });

  it('with a chosen node, only volumes reachable from it', () => {
    const onNode = (name: string, node: string) =>
      volume(name, '1Gi', { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } } });
    const volumes = [onNode('a', 'worker-a'), onNode('b', 'worker-b')];
    const node = { name: 'worker-b', labels: { 'kubernetes.io/hostname': 'worker-b' } };
    expect(names(findBestMatchForClaim(claim(), volumes, { delayBinding: true, node }))).toBe('b');
  });
});

describe('volumeMismatchReason', () => {
  it('says why a requested volume cannot serve the claim, in kube order', () => {
    expect(volumeMismatchReason(volume('v', '500Mi'), claim())).toBe('requested PV is too small');
    expect(volumeMismatchReason(volume('v', '1Gi', { storageClassName: 'fast' }), claim())).toBe('storageClassName does not match');
    expect(volumeMismatchReason(volume('v', '1Gi', { volumeMode: 'Block' }), claim())).toBe('incompatible volumeMode');
    expect(volumeMismatchReason(volume('v', '1Gi', { accessModes: ['ReadOnlyMany'] }), claim())).toBe('incompatible accessMode');
    expect(volumeMismatchReason(volume('v', '1Gi'), claim())).toBeUndefined();
  });
});
