// Persistent volumes through the real server: kind's `standard` class with
// KubeTab's local-path provisioner, the binder's static binding, phases,
// reclaim policies and events, and the PV/PVC protection finalizers. The
// scheduler's part (the selected-node annotation) is played by the test.

import { afterEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';
import { defaultStorageClass } from '../kubeadm/default-storage-class';

let bed: ControllerTestBed | undefined;
afterEach(async () => {
  expect(bed?.logs.filter((l) => /error|fail/i.test(l)) ?? []).toEqual([]);
  await bed?.close();
  bed = undefined;
});

const PVCS = '/api/v1/namespaces/default/persistentvolumeclaims';
const PVS = '/api/v1/persistentvolumes';
const CONTROLLERS = ['persistentvolume-binder', 'pvc-protection', 'pv-protection', 'local-path-provisioner'];

async function start(): Promise<ControllerTestBed> {
  bed = await startControllerTestBed({ enabled: CONTROLLERS, asInternalClients: true });
  expect((await bed.ts.post('/apis/storage.k8s.io/v1/storageclasses', defaultStorageClass())).status).toBe(201);
  await bed.idle();
  return bed;
}

const claim = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});

const staticVolume = (name: string, storage: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name },
  spec: { capacity: { storage }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/mnt/${name}` }, storageClassName: '', ...extra },
});

async function events(b: ControllerTestBed, name: string): Promise<{ reason: string; message: string; source: string; count: number; type: string }[]> {
  const list = (await b.ts.get(`/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=${name}`)).body.items;
  return list.map((e: { reason: string; message: string; source: { component: string }; count: number; type: string }) => ({
    reason: e.reason,
    message: e.message,
    source: e.source.component,
    count: e.count,
    type: e.type,
  }));
}

describe('dynamic provisioning with the standard class (WaitForFirstConsumer)', () => {
  it('waits for a consumer, provisions on the selected node, binds, and deletes the volume with the claim', async () => {
    const b = await start();
    const { ts } = b;
    expect((await ts.post(PVCS, claim('data', { storageClassName: 'standard' }))).status).toBe(201);
    await b.idle();
    let pvc = (await ts.get(`${PVCS}/data`)).body;
    expect(pvc.status.phase).toBe('Pending');
    expect(pvc.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    const [waiting] = await events(b, 'data');
    expect(waiting).toMatchObject({ reason: 'WaitForFirstConsumer', message: 'waiting for first consumer to be created before binding', source: 'persistentvolume-controller', type: 'Normal' });
    // The periodic resync repeats the event, counted, as kubectl describe shows "x2 over 15s".
    ts.clock.advance(15_000);
    await b.idle();
    expect((await events(b, 'data'))[0]!.count).toBe(waiting!.count + 1);

    // What the scheduler does once a pod using the claim is placed.
    await ts.patch(`${PVCS}/data`, { metadata: { annotations: { 'volume.kubernetes.io/selected-node': 'kind-worker' } } }, 'application/merge-patch+json');
    await b.idle();
    pvc = (await ts.get(`${PVCS}/data`)).body;
    const uid = pvc.metadata.uid;
    expect(pvc.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } });
    expect(pvc.spec.volumeName).toBe(`pvc-${uid}`);
    expect(pvc.metadata.annotations).toMatchObject({
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
      'volume.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
      'volume.beta.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
    });
    const pv = (await ts.get(`${PVS}/pvc-${uid}`)).body;
    expect(pv.metadata.annotations).toEqual({ 'local.path.provisioner/selected-node': 'kind-worker', 'pv.kubernetes.io/provisioned-by': 'rancher.io/local-path' });
    expect(pv.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
    expect(pv.spec).toMatchObject({
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '1Gi' },
      claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data', uid, apiVersion: 'v1' },
      hostPath: { path: `/var/local-path-provisioner/pvc-${uid}_default_data`, type: 'DirectoryOrCreate' },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['kind-worker'] }] }] } },
      persistentVolumeReclaimPolicy: 'Delete',
      storageClassName: 'standard',
      volumeMode: 'Filesystem',
    });
    expect(pv.status.phase).toBe('Bound');
    const reasons = (await events(b, 'data')).map((e) => `${e.reason}/${e.source.split('_')[0]}`);
    expect(reasons).toEqual([
      'WaitForFirstConsumer/persistentvolume-controller',
      'ExternalProvisioning/persistentvolume-controller',
      'Provisioning/rancher.io/local-path',
      'ProvisioningSucceeded/rancher.io/local-path',
    ]);
    const messages = await events(b, 'data');
    expect(messages[1]!.message).toBe(
      "Waiting for a volume to be created either by the external provisioner 'rancher.io/local-path' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
    );
    expect(messages[2]!.message).toBe('External provisioner is provisioning volume for claim "default/data"');
    expect(messages[3]!.message).toBe(`Successfully provisioned volume pvc-${uid}`);

    // Deleting the claim releases the volume; Delete policy: the provisioner deletes it.
    expect((await ts.del(`${PVCS}/data`)).status).toBe(200);
    await b.idle();
    expect((await ts.get(`${PVCS}/data`)).status).toBe(404);
    expect((await ts.get(`${PVS}/pvc-${uid}`)).status).toBe(404);
  });

  it('refuses access modes local-path cannot serve', async () => {
    const b = await start();
    await b.ts.post(PVCS, claim('shared', { storageClassName: 'standard', accessModes: ['ReadWriteMany'] }));
    await b.ts.patch(`${PVCS}/shared`, { metadata: { annotations: { 'volume.kubernetes.io/selected-node': 'kind-worker' } } }, 'application/merge-patch+json');
    await b.idle();
    const failed = (await events(b, 'shared')).find((e) => e.reason === 'ProvisioningFailed');
    expect(failed).toMatchObject({
      type: 'Warning',
      message: 'failed to provision volume with StorageClass "standard": NodePath only supports ReadWriteOnce and ReadWriteOncePod (1.22+) access modes',
    });
    b.logs.length = 0;
    expect((await b.ts.get(`${PVCS}/shared`)).body.status.phase).toBe('Pending');
  });
});

describe('static binding (no class)', () => {
  it('binds the smallest matching volume; Retain keeps it Released after the claim goes', async () => {
    const b = await start();
    const { ts } = b;
    await ts.post(PVS, staticVolume('pv-big', '10Gi', { persistentVolumeReclaimPolicy: 'Retain' }));
    await ts.post(PVS, staticVolume('pv-small', '2Gi', { persistentVolumeReclaimPolicy: 'Retain' }));
    await b.idle();
    expect((await ts.get(`${PVS}/pv-small`)).body.status.phase).toBe('Available');
    await ts.post(PVCS, claim('logs', { storageClassName: '' }));
    await b.idle();
    const pvc = (await ts.get(`${PVCS}/logs`)).body;
    expect(pvc.spec.volumeName).toBe('pv-small');
    expect(pvc.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '2Gi' } });
    const pv = (await ts.get(`${PVS}/pv-small`)).body;
    expect(pv.status.phase).toBe('Bound');
    expect(pv.metadata.annotations).toEqual({ 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect(pv.spec.claimRef).toMatchObject({ name: 'logs', namespace: 'default', uid: pvc.metadata.uid });
    expect((await ts.get(`${PVS}/pv-big`)).body.status.phase).toBe('Available');

    await ts.del(`${PVCS}/logs`);
    await b.idle();
    const released = (await ts.get(`${PVS}/pv-small`)).body;
    expect(released.status.phase).toBe('Released');
    expect(released.spec.claimRef.uid).toBe(pvc.metadata.uid);
    // A new claim of the same name does not get the released volume back.
    await ts.post(PVCS, claim('logs', { storageClassName: '' }));
    await b.idle();
    expect((await ts.get(`${PVCS}/logs`)).body.spec.volumeName).toBe('pv-big');
  });

  it('a static volume with policy Delete fails to be deleted (no in-tree deleter)', async () => {
    const b = await start();
    const { ts } = b;
    await ts.post(PVS, staticVolume('pv-tmp', '1Gi', { persistentVolumeReclaimPolicy: 'Delete' }));
    await ts.post(PVCS, claim('tmp', { storageClassName: '' }));
    // A claim made while its volume is still Pending binds at the next resync, every 15 s.
    await b.idle();
    ts.clock.advance(15_000);
    await b.idle();
    expect((await ts.get(`${PVCS}/tmp`)).body.status.phase).toBe('Bound');
    await ts.del(`${PVCS}/tmp`);
    await b.idle();
    const pv = (await ts.get(`${PVS}/pv-tmp`)).body;
    expect(pv.status.phase).toBe('Failed');
    expect(pv.status.message).toBe('error getting deleter volume plugin for volume "pv-tmp": no deletable volume plugin matched');
    const list = (await ts.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=pv-tmp')).body.items;
    expect(list.map((e: { reason: string; type: string }) => `${e.type}/${e.reason}`)).toEqual(['Warning/VolumeFailedDelete']);
  });

  it('says why a claim cannot bind: no class and no volume, a requested volume that does not fit or is taken', async () => {
    const b = await start();
    const { ts } = b;
    await ts.post(PVCS, claim('nothing', { storageClassName: '' }));
    await ts.post(PVS, staticVolume('pv-tiny', '100Mi'));
    await ts.post(PVCS, claim('named', { storageClassName: '', volumeName: 'pv-tiny' }));
    await b.idle();
    expect(await events(b, 'nothing')).toMatchObject([
      { reason: 'FailedBinding', message: 'no persistent volumes available for this claim and no storage class is set', source: 'persistentvolume-controller', type: 'Normal' },
    ]);
    expect((await events(b, 'named'))[0]).toMatchObject({ type: 'Warning', reason: 'VolumeMismatch', message: 'Cannot bind to requested volume "pv-tiny": requested PV is too small' });
    expect((await ts.get(`${PVCS}/named`)).body.status.phase).toBe('Pending');
  });
});

describe('protection finalizers', () => {
  it('a claim used by a scheduled pod stays until the pod is gone; a bound volume stays until released', async () => {
    const b = await start();
    const { ts } = b;
    await ts.post(PVS, staticVolume('pv-db', '1Gi', { persistentVolumeReclaimPolicy: 'Retain' }));
    await b.idle();
    await ts.post(PVCS, claim('db', { storageClassName: '' }));
    await ts.post('/api/v1/namespaces/default/pods', {
      metadata: { name: 'db' },
      spec: {
        nodeName: 'kind-worker',
        containers: [{ name: 'db', image: 'postgres' }],
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'db' } }],
      },
    });
    await b.idle();
    // The volume is Bound: deleting it waits.
    expect((await ts.del(`${PVS}/pv-db`)).status).toBe(200);
    await ts.del(`${PVCS}/db`);
    await b.idle();
    const terminating = (await ts.get(`${PVCS}/db`)).body;
    expect(terminating.metadata.deletionTimestamp).toBeTruthy();
    expect(terminating.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    expect((await ts.get(`${PVS}/pv-db`)).body.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);

    await ts.del('/api/v1/namespaces/default/pods/db?gracePeriodSeconds=0');
    await b.idle();
    expect((await ts.get(`${PVCS}/db`)).status).toBe(404);
    // Released now, so the volume's own deletion completes.
    expect((await ts.get(`${PVS}/pv-db`)).status).toBe(404);
  });

  it('adds the finalizers to objects created without them', async () => {
    const b = await start();
    const { ts } = b;
    await ts.post(PVS, staticVolume('pv-x', '1Gi'));
    await ts.post(PVCS, claim('x', { storageClassName: 'standard' }));
    await b.idle();
    expect((await ts.get(`${PVS}/pv-x`)).body.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
    expect((await ts.get(`${PVCS}/x`)).body.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
  });
});
