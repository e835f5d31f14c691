// Rule: the namespace controller's conditions carry kube's types, reasons and messages
// (pkg/controller/namespace/deletion, status_condition_utils).

import { describe, expect, it } from 'vitest';
import { updateConditions, type DeletionReport } from './conditions';

const NOW = '2024-12-11T12:00:00Z';
const LATER = '2024-12-11T12:05:00Z';

describe('namespace conditions', () => {
  it.each<[string, DeletionReport, Record<string, [string, string, string]>]>([
    [
      'nothing wrong: every type in its ok variant',
      {},
      {
        NamespaceDeletionDiscoveryFailure: ['False', 'ResourcesDiscovered', 'All resources successfully discovered'],
        NamespaceDeletionGroupVersionParsingFailure: ['False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
        NamespaceDeletionContentFailure: ['False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
        NamespaceContentRemaining: ['False', 'ContentRemoved', 'All content successfully removed'],
        NamespaceFinalizersRemaining: ['False', 'ContentRemoved', 'All content successfully removed'],
      },
    ],
    [
      'remaining content, sorted, with the core group as an empty suffix',
      {
        remainingByResource: new Map([['pods.', 2], ['widgets.example.com', 1]]),
        remainingByFinalizer: new Map([['example.com/b', 1], ['example.com/a', 2]]),
      },
      {
        NamespaceContentRemaining: ['True', 'SomeResourcesRemain', 'Some resources are remaining: pods. has 2 resource instances, widgets.example.com has 1 resource instances'],
        NamespaceFinalizersRemaining: ['True', 'SomeFinalizerRemain', 'Some finalizers are remaining: example.com/a in 2 resource instances, example.com/b in 1 resource instances'],
      },
    ],
    [
      'discovery and content failures',
      {
        discoveryFailures: new Map([['metrics.k8s.io/v1beta1', 'stale GroupVersion discovery: metrics.k8s.io/v1beta1']]),
        contentErrors: ['z failed', 'a failed'],
      },
      {
        NamespaceDeletionDiscoveryFailure: [
          'True',
          'DiscoveryFailed',
          'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1',
        ],
        NamespaceDeletionContentFailure: ['True', 'ContentDeletionFailed', 'Failed to delete all resource types, 2 remaining: a failed, z failed'],
      },
    ],
  ])('%s', (_name, report, expected) => {
    const conditions = updateConditions(undefined, report, NOW)!;
    expect(conditions.map((c) => c.type)).toEqual([
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceDeletionGroupVersionParsingFailure',
      'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ]);
    for (const [type, [status, reason, message]] of Object.entries(expected)) {
      expect(conditions.find((c) => c.type === type)).toEqual({ type, status, lastTransitionTime: NOW, reason, message });
    }
  });

  it('reports no change when nothing changed, and moves lastTransitionTime only when the status flips', () => {
    const first = updateConditions(undefined, { remainingByResource: new Map([['configmaps.', 1]]) }, NOW)!;
    expect(updateConditions(first, { remainingByResource: new Map([['configmaps.', 1]]) }, LATER)).toBeUndefined();
    const more = updateConditions(first, { remainingByResource: new Map([['configmaps.', 2]]) }, LATER)!;
    expect(more.find((c) => c.type === 'NamespaceContentRemaining')!.lastTransitionTime).toBe(NOW);
    const cleared = updateConditions(more, {}, LATER)!;
    expect(cleared.find((c) => c.type === 'NamespaceContentRemaining')).toEqual({
      type: 'NamespaceContentRemaining',
      status: 'False',
      lastTransitionTime: LATER,
      reason: 'ContentRemoved',
      message: 'All content successfully removed',
    });
  });
});
