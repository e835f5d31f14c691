// The StatefulSet controller's pure parts: ordinals from names, the pod a
// set creates for an ordinal, maxUnavailable, and the claim owner references
// each retention policy asks for.

import { describe, expect, it } from 'vitest';
import { claimWithPolicyRefs, isClaimOwnerUpToDate } from './claim-retention';
import { identityMatches, newStatefulSetPod, parentAndOrdinal, podInOrdinalRange, storageMatches } from './identity';
import { maxUnavailableOf } from './stateful-set-control';

const set = (spec: Record<string, unknown> = {}) => ({
  metadata: { name: 'web', namespace: 'default', uid: 'set-uid' },
  spec: {
    replicas: 3,
    serviceName: 'nginx',
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }], volumes: [{ name: 'tmp', emptyDir: {} }] } },
    volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: {} }],
    ...spec,
  },
});

describe('identity', () => {
  it('reads the set and ordinal from a pod name', () => {
    expect(parentAndOrdinal('web-12')).toEqual({ parent: 'web', ordinal: 12 });
    expect(parentAndOrdinal('my-app-0')).toEqual({ parent: 'my-app', ordinal: 0 });
    expect(parentAndOrdinal('web')).toEqual({ parent: '', ordinal: -1 });
  });

  it('gives a new pod its name, labels, hostname, subdomain and claim volume first', () => {
    const pod = newStatefulSetPod(set(), 2);
    expect(pod.metadata).toMatchObject({ name: 'web-2', generateName: 'web-', namespace: 'default', labels: { app: 'web', 'statefulset.kubernetes.io/pod-name': 'web-2', 'apps.kubernetes.io/pod-index': '2' } });
    expect(pod.spec).toMatchObject({ hostname: 'web-2', subdomain: 'nginx', volumes: [{ name: 'www', persistentVolumeClaim: { claimName: 'www-web-2' } }, { name: 'tmp', emptyDir: {} }] });
    expect(identityMatches(set(), pod)).toBe(true);
    expect(storageMatches(set(), pod)).toBe(true);
  });

  it('counts ordinals from spec.ordinals.start', () => {
    const s = set({ ordinals: { start: 5 } });
    expect(podInOrdinalRange({ metadata: { name: 'web-4' } }, s)).toBe(false);
    expect(podInOrdinalRange({ metadata: { name: 'web-7' } }, s)).toBe(true);
    expect(podInOrdinalRange({ metadata: { name: 'web-8' } }, s)).toBe(false);
  });
});

describe('maxUnavailable', () => {
  it('is at least one, percentages rounded down', () => {
    expect(maxUnavailableOf(undefined, 10)).toBe(1);
    expect(maxUnavailableOf(3, 10)).toBe(3);
    expect(maxUnavailableOf('25%', 10)).toBe(2);
    expect(maxUnavailableOf('5%', 10)).toBe(1);
  });
});

describe('claim retention', () => {
  const pod = (name: string) => ({ metadata: { name, uid: `${name}-uid` } });
  const claim = { metadata: { name: 'www-web-1' } };
  const refsFor = (policy: Record<string, string>, podName: string) =>
    (claimWithPolicyRefs(claim, set({ persistentVolumeClaimRetentionPolicy: policy }), pod(podName)).metadata?.ownerReferences ?? []).map((r) => `${r.kind}/${r.name}`);

  it('owns nothing under Retain/Retain', () => {
    expect(refsFor({ whenDeleted: 'Retain', whenScaled: 'Retain' }, 'web-1')).toEqual([]);
  });
  it('gives the claim to the set under whenDeleted Delete', () => {
    expect(refsFor({ whenDeleted: 'Delete', whenScaled: 'Retain' }, 'web-1')).toEqual(['StatefulSet/web']);
  });
  it('gives a scaled-away pod its claim under whenScaled Delete', () => {
    expect(refsFor({ whenDeleted: 'Retain', whenScaled: 'Delete' }, 'web-1')).toEqual([]);
    expect(refsFor({ whenDeleted: 'Retain', whenScaled: 'Delete' }, 'web-5')).toEqual(['Pod/web-5']);
    expect(refsFor({ whenDeleted: 'Delete', whenScaled: 'Delete' }, 'web-5')).toEqual(['Pod/web-5']);
    expect(refsFor({ whenDeleted: 'Delete', whenScaled: 'Delete' }, 'web-1')).toEqual(['StatefulSet/web']);
  });
  it('finds the rewritten claim up to date, and leaves another controller alone', () => {
    const s = set({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' } });
    expect(isClaimOwnerUpToDate(claim, s, pod('web-1'))).toBe(false);
    expect(isClaimOwnerUpToDate(claimWithPolicyRefs(claim, s, pod('web-1')), s, pod('web-1'))).toBe(true);
    const foreign = { metadata: { name: 'www-web-1', ownerReferences: [{ apiVersion: 'v1', kind: 'Other', name: 'x', uid: 'x', controller: true }] } };
    expect(isClaimOwnerUpToDate(foreign, s, pod('web-1'))).toBe(true);
  });
});
