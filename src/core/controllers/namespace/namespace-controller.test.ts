// The namespace controller against a real KubeTab server, observed as a client would.
// Rule (issue 3, "What a cluster does in the background"): deleting a namespace sets phase
// Terminating; every object in it is deleted, finalizers respected; then the namespace goes.

import { afterEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';

let bed: ControllerTestBed;
afterEach(async () => bed?.close());

const cm = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data: { a: '1' } });

describe('namespace controller', () => {
  it('deletes the content of a deleted namespace and then the namespace itself', async () => {
    bed = await startControllerTestBed({ enabled: ['namespace-controller'] });
    const { ts } = bed;
    expect((await ts.post('/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
    expect((await ts.post('/api/v1/namespaces/team/configmaps', cm('one'))).status).toBe(201);
    expect((await ts.post('/api/v1/namespaces/team/secrets', { metadata: { name: 's' }, stringData: { k: 'v' } })).status).toBe(201);

    const del = await ts.del('/api/v1/namespaces/team');
    expect(del.status).toBe(200);
    expect(del.body.status.phase).toBe('Terminating');
    await bed.idle();

    expect((await ts.get('/api/v1/namespaces/team')).status).toBe(404);
    expect((await ts.get('/api/v1/namespaces/team/configmaps/one')).status).toBe(404);
    expect((await ts.get('/api/v1/namespaces/team/secrets/s')).status).toBe(404);
  });

  it('waits for an object with a finalizer: Terminating with NamespaceFinalizersRemaining until it is removed', async () => {
    bed = await startControllerTestBed({ enabled: ['namespace-controller'] });
    const { ts } = bed;
    await ts.post('/api/v1/namespaces', { metadata: { name: 'held' } });
    await ts.post('/api/v1/namespaces/held/configmaps', cm('stuck', { finalizers: ['example.com/hold'] }));
    await ts.post('/api/v1/namespaces/held/configmaps', cm('free'));

    await ts.del('/api/v1/namespaces/held');
    await bed.idle();

    const ns = await ts.get('/api/v1/namespaces/held');
    expect(ns.status).toBe(200);
    expect(ns.body.status.phase).toBe('Terminating');
    expect(ns.body.spec.finalizers).toEqual(['kubernetes']);
    const byType = Object.fromEntries(ns.body.status.conditions.map((c: { type: string }) => [c.type, c]));
    expect(Object.keys(byType)).toEqual([
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceDeletionGroupVersionParsingFailure',
      'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ]);
    expect(byType.NamespaceDeletionDiscoveryFailure).toMatchObject({ status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' });
    expect(byType.NamespaceDeletionContentFailure).toMatchObject({
      status: 'False',
      reason: 'ContentDeleted',
      message: 'All content successfully deleted, may be waiting on finalization',
    });
    expect(byType.NamespaceContentRemaining).toMatchObject({
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: configmaps. has 1 resource instances',
    });
    expect(byType.NamespaceFinalizersRemaining).toMatchObject({
      status: 'True',
      reason: 'SomeFinalizerRemain',
      message: 'Some finalizers are remaining: example.com/hold in 1 resource instances',
    });
    // The object with the finalizer stays, Terminating; the other one is gone.
    const stuck = await ts.get('/api/v1/namespaces/held/configmaps/stuck');
    expect(stuck.status).toBe(200);
    expect(stuck.body.metadata.deletionTimestamp).toBeDefined();
    expect((await ts.get('/api/v1/namespaces/held/configmaps/free')).status).toBe(404);

    // Rule (NamespaceLifecycle): no create in a terminating namespace, with kube-apiserver's 403.
    const refused = await ts.post('/api/v1/namespaces/held/configmaps', cm('late'));
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toBe('Forbidden');
    expect(refused.body.message).toBe('configmaps "late" is forbidden: unable to create new content in namespace held because it is being terminated');
    expect(refused.body.details.causes).toEqual([
      { reason: 'NamespaceTerminating', message: 'namespace held is being terminated', field: 'metadata.namespace' },
    ]);

    // Removing the finalizer lets the object go, and with it the namespace.
    const patched = await ts.patch('/api/v1/namespaces/held/configmaps/stuck', { metadata: { finalizers: null } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    await bed.idle();
    expect((await ts.get('/api/v1/namespaces/held/configmaps/stuck')).status).toBe(404);
    expect((await ts.get('/api/v1/namespaces/held')).status).toBe(404);
  });

  it('leaves a namespace that is not being deleted alone', async () => {
    bed = await startControllerTestBed({ enabled: ['namespace-controller'] });
    const { ts } = bed;
    await ts.post('/api/v1/namespaces', { metadata: { name: 'live' } });
    await ts.post('/api/v1/namespaces/live/configmaps', cm('keep'));
    await bed.idle();
    const ns = await ts.get('/api/v1/namespaces/live');
    expect(ns.body.status).toEqual({ phase: 'Active' });
    expect((await ts.get('/api/v1/namespaces/live/configmaps/keep')).status).toBe(200);
  });
});
