// The StatefulSet controller through the real server, with the scheduler
// and garbage collector running and the test playing the kubelet (pods
// marked Running and Ready through pods/status, graceful deletions
// finished): ordered start-up and reverse scale-down, claims from
// volumeClaimTemplates, ControllerRevisions and a partitioned rolling update,
// as a client sees them.

import { afterEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';
import { createKindNodes, createStandardStorageClass, finishTerminating, markRunningReady } from './testing/stand-in-kubelet';

const NS = 'default';
const STS = `/apis/apps/v1/namespaces/${NS}/statefulsets`;
const PODS = `/api/v1/namespaces/${NS}/pods`;

let bed: ControllerTestBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

async function start(): Promise<ControllerTestBed> {
  // The PV binder and kind's provisioner bind the WaitForFirstConsumer claims, which the scheduler waits for before it binds a pod.
  bed = await startControllerTestBed({ enabled: ['statefulset', 'kube-scheduler', 'garbagecollector', 'persistentvolume-binder', 'local-path-provisioner'] });
  await createKindNodes(bed.ts);
  await createStandardStorageClass(bed.ts);
  await bed.idle();
  return bed;
}

const webSet = (replicas: number, extra: Record<string, unknown> = {}) => ({
  metadata: { name: 'web' },
  spec: {
    replicas,
    serviceName: 'web',
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
    volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    ...extra,
  },
});

async function podNames(b: ControllerTestBed): Promise<string[]> {
  const items = (await b.ts.get(PODS)).body.items as { metadata: { name: string; deletionTimestamp?: string } }[];
  return items.filter((p) => !p.metadata.deletionTimestamp).map((p) => p.metadata.name).sort();
}

async function terminating(b: ControllerTestBed): Promise<string[]> {
  const items = (await b.ts.get(PODS)).body.items as { metadata: { name: string; deletionTimestamp?: string } }[];
  return items.filter((p) => p.metadata.deletionTimestamp).map((p) => p.metadata.name);
}

async function readyAndSettle(b: ControllerTestBed, name: string): Promise<void> {
  await markRunningReady(b.ts, NS, name);
  await b.idle();
}

async function events(b: ControllerTestBed): Promise<{ reason: string; message: string; type: string; source: { component: string } }[]> {
  const items = (await b.ts.get(`/api/v1/namespaces/${NS}/events`)).body.items;
  return items.filter((e: { involvedObject: { kind: string } }) => e.involvedObject.kind === 'StatefulSet');
}

describe('StatefulSet controller', () => {
  it('starts pods one at a time in ordinal order, each with its identity and claim, and scales down in reverse', async () => {
    const b = await start();
    expect((await b.ts.post(STS, webSet(3))).status).toBe(201);
    await b.idle();
    expect(await podNames(b)).toEqual(['web-0']);

    const pod = (await b.ts.get(`${PODS}/web-0`)).body;
    expect(pod.metadata.generateName).toBe('web-');
    expect(pod.metadata.labels).toMatchObject({ app: 'web', 'statefulset.kubernetes.io/pod-name': 'web-0', 'apps.kubernetes.io/pod-index': '0' });
    expect(pod.metadata.labels['controller-revision-hash']).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(pod.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: expect.any(String), controller: true, blockOwnerDeletion: true }]);
    expect(pod.spec.hostname).toBe('web-0');
    expect(pod.spec.subdomain).toBe('web');
    expect(pod.spec.volumes[0]).toEqual({ name: 'www', persistentVolumeClaim: { claimName: 'www-web-0' } });
    expect(pod.spec.nodeName).toMatch(/^kubetab-worker/);

    const claim = (await b.ts.get(`/api/v1/namespaces/${NS}/persistentvolumeclaims/www-web-0`)).body;
    expect(claim.metadata.labels).toEqual({ app: 'web' });
    expect(claim.spec.resources).toEqual({ requests: { storage: '1Gi' } });
    // Retain/Retain: the claim outlives the set, so nothing owns it.
    expect(claim.metadata.ownerReferences).toBeUndefined();

    // web-1 waits for web-0 to be Running and Ready, and web-2 for web-1.
    await readyAndSettle(b, 'web-0');
    expect(await podNames(b)).toEqual(['web-0', 'web-1']);
    await readyAndSettle(b, 'web-1');
    expect(await podNames(b)).toEqual(['web-0', 'web-1', 'web-2']);
    await readyAndSettle(b, 'web-2');

    let set = (await b.ts.get(`${STS}/web`)).body;
    expect(set.status).toMatchObject({ observedGeneration: 1, replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 3, collisionCount: 0 });
    expect(set.status.currentRevision).toBe(set.status.updateRevision);
    expect(set.status.currentRevision).toBe(pod.metadata.labels['controller-revision-hash']);

    const revisions = (await b.ts.get(`/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items;
    expect(revisions).toHaveLength(1);
    expect(revisions[0].metadata.name).toBe(set.status.currentRevision);
    expect(revisions[0].revision).toBe(1);
    expect(revisions[0].metadata.labels).toEqual({ app: 'web', 'controller.kubernetes.io/hash': revisions[0].metadata.name.slice('web-'.length) });
    expect(revisions[0].data.spec.template.$patch).toBe('replace');
    expect(revisions[0].data.spec.template.spec.containers[0].image).toBe('nginx:1.27');

    const created = (await events(b)).filter((e) => e.reason === 'SuccessfulCreate').map((e) => e.message);
    expect(created).toEqual([
      'create Claim www-web-0 Pod web-0 in StatefulSet web success',
      'create Pod web-0 in StatefulSet web successful',
      'create Claim www-web-1 Pod web-1 in StatefulSet web success',
      'create Pod web-1 in StatefulSet web successful',
      'create Claim www-web-2 Pod web-2 in StatefulSet web success',
      'create Pod web-2 in StatefulSet web successful',
    ]);
    expect((await events(b))[0]!.source).toEqual({ component: 'statefulset-controller' });

    // Scale to 1: web-2 goes first, and web-1 only once web-2 is gone.
    await b.ts.patch(`${STS}/web`, { spec: { replicas: 1 } }, 'application/merge-patch+json');
    await b.idle();
    expect(await terminating(b)).toEqual(['web-2']);
    expect(await podNames(b)).toEqual(['web-0', 'web-1']);
    await finishTerminating(b.ts, NS);
    await b.idle();
    expect(await terminating(b)).toEqual(['web-1']);
    await finishTerminating(b.ts, NS);
    await b.idle();
    expect(await podNames(b)).toEqual(['web-0']);
    set = (await b.ts.get(`${STS}/web`)).body;
    expect(set.status).toMatchObject({ observedGeneration: 2, replicas: 1, readyReplicas: 1, availableReplicas: 1 });
    expect((await events(b)).filter((e) => e.reason === 'SuccessfulDelete').map((e) => e.message)).toEqual([
      'delete Pod web-2 in StatefulSet web successful',
      'delete Pod web-1 in StatefulSet web successful',
    ]);
    // Claims stay (Retain).
    const claims = (await b.ts.get(`/api/v1/namespaces/${NS}/persistentvolumeclaims`)).body.items.map((c: { metadata: { name: string } }) => c.metadata.name).sort();
    expect(claims).toEqual(['www-web-0', 'www-web-1', 'www-web-2']);
  });

  it('creates all pods at once with Parallel', async () => {
    const b = await start();
    await b.ts.post(STS, webSet(3, { podManagementPolicy: 'Parallel' }));
    await b.idle();
    expect(await podNames(b)).toEqual(['web-0', 'web-1', 'web-2']);
  });

  it('rolls a new template out only at and above the partition, highest ordinal first', async () => {
    const b = await start();
    await b.ts.post(STS, webSet(3, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }));
    await b.idle();
    for (const name of ['web-0', 'web-1', 'web-2']) await readyAndSettle(b, name);
    const before = (await b.ts.get(`${STS}/web`)).body.status.currentRevision as string;

    await b.ts.patch(`${STS}/web`, { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } } } }, 'application/strategic-merge-patch+json');
    await b.idle();
    let set = (await b.ts.get(`${STS}/web`)).body;
    const after = set.status.updateRevision as string;
    expect(after).not.toBe(before);
    expect(set.status.currentRevision).toBe(before);
    expect(await terminating(b)).toEqual(['web-2']);

    await finishTerminating(b.ts, NS);
    await b.idle();
    const web2 = (await b.ts.get(`${PODS}/web-2`)).body;
    expect(web2.metadata.labels['controller-revision-hash']).toBe(after);
    expect(web2.spec.containers[0].image).toBe('nginx:1.28');
    // web-1 waits for web-2 to be healthy.
    expect(await terminating(b)).toEqual([]);
    await readyAndSettle(b, 'web-2');
    expect(await terminating(b)).toEqual(['web-1']);
    await finishTerminating(b.ts, NS);
    await b.idle();
    await readyAndSettle(b, 'web-1');

    // web-0 is below the partition: it stays at the old revision.
    expect(await terminating(b)).toEqual([]);
    const web0 = (await b.ts.get(`${PODS}/web-0`)).body;
    expect(web0.metadata.labels['controller-revision-hash']).toBe(before);
    set = (await b.ts.get(`${STS}/web`)).body;
    expect(set.status).toMatchObject({ replicas: 3, readyReplicas: 3, currentReplicas: 1, updatedReplicas: 2, currentRevision: before, updateRevision: after, observedGeneration: 2 });
    const revisions = (await b.ts.get(`/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items;
    expect(revisions.map((r: { metadata: { name: string }; revision: number }) => [r.metadata.name, r.revision]).sort()).toEqual([[before, 1], [after, 2]].sort());

    // Partition 0 finishes the roll-out; then the update revision becomes current.
    await b.ts.patch(`${STS}/web`, { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } }, 'application/merge-patch+json');
    await b.idle();
    expect(await terminating(b)).toEqual(['web-0']);
    await finishTerminating(b.ts, NS);
    await b.idle();
    await readyAndSettle(b, 'web-0');
    set = (await b.ts.get(`${STS}/web`)).body;
    expect(set.status).toMatchObject({ currentRevision: after, updateRevision: after, currentReplicas: 3, updatedReplicas: 3 });
  });

  it('owns the claims as the retention policy says, and the garbage collector deletes them with the set', async () => {
    const b = await start();
    await b.ts.post(STS, webSet(2, { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' } }));
    await b.idle();
    await readyAndSettle(b, 'web-0');
    await readyAndSettle(b, 'web-1');
    const set = (await b.ts.get(`${STS}/web`)).body;
    const claim = (await b.ts.get(`/api/v1/namespaces/${NS}/persistentvolumeclaims/www-web-1`)).body;
    expect(claim.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: set.metadata.uid, controller: true, blockOwnerDeletion: true }]);

    // Scaled away: the claim passes to its pod (and goes with it).
    await b.ts.patch(`${STS}/web`, { spec: { replicas: 1 } }, 'application/merge-patch+json');
    await b.idle();
    const web1 = (await b.ts.get(`${PODS}/web-1`)).body;
    const moved = (await b.ts.get(`/api/v1/namespaces/${NS}/persistentvolumeclaims/www-web-1`)).body;
    expect(moved.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Pod', name: 'web-1', uid: web1.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    await finishTerminating(b.ts, NS);
    await b.idle();
    expect((await b.ts.get(`/api/v1/namespaces/${NS}/persistentvolumeclaims/www-web-1`)).status).toBe(404);
    expect((await b.ts.get(`/api/v1/namespaces/${NS}/persistentvolumeclaims/www-web-0`)).status).toBe(200);
  });

  it('deletes a failed pod and creates it again once it is gone', async () => {
    const b = await start();
    await b.ts.post(STS, webSet(1));
    await b.idle();
    const pod = (await b.ts.get(`${PODS}/web-0`)).body;
    await b.ts.put(`${PODS}/web-0/status`, { ...pod, status: { ...pod.status, phase: 'Failed' } });
    // A terminal pod is deleted at once (the server gives it no grace), and its successor follows.
    await b.idle();
    const again = (await b.ts.get(`${PODS}/web-0`)).body;
    expect(again.metadata.uid).not.toBe(pod.metadata.uid);
    expect(again.status.phase).toBe('Pending');
    // The second create is the same event again: its count goes up.
    expect((await events(b)).map((e) => [e.message, (e as unknown as { count: number }).count])).toEqual([
      ['create Claim www-web-0 Pod web-0 in StatefulSet web success', 1],
      ['create Pod web-0 in StatefulSet web successful', 2],
      ['delete Pod web-0 in StatefulSet web successful', 1],
    ]);
  });
});
