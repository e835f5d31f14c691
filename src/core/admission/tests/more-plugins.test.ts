// PersistentVolumeClaimResize (default on) and the plugins enabled only by
// name (AlwaysDeny, AlwaysPullImages, NamespaceExists), through the HTTP API.

import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const PVCS = '/api/v1/namespaces/default/persistentvolumeclaims';

describe('PersistentVolumeClaimResize', () => {
  it('lets a bound claim grow only when its StorageClass allows expansion', async () => {
    t = await startTestServer();
    await t.post('/apis/storage.k8s.io/v1/storageclasses', { metadata: { name: 'fixed' }, provisioner: 'example.com/disk' });
    await t.post('/apis/storage.k8s.io/v1/storageclasses', { metadata: { name: 'elastic' }, provisioner: 'example.com/disk', allowVolumeExpansion: true });
    const claim = (name: string, className: string) => ({
      metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: className, resources: { requests: { storage: '1Gi' } } },
    });
    for (const [name, cls] of [['f', 'fixed'], ['e', 'elastic'], ['p', 'elastic']] as const) {
      expect((await t.post(PVCS, claim(name, cls))).status).toBe(201);
    }
    for (const name of ['f', 'e']) {
      const bound = (await t.get(`${PVCS}/${name}`)).body;
      expect((await t.put(`${PVCS}/${name}/status`, { ...bound, status: { phase: 'Bound', capacity: { storage: '1Gi' } } })).status).toBe(200);
    }
    const grow = async (name: string) =>
      t!.patch(`${PVCS}/${name}`, { spec: { resources: { requests: { storage: '2Gi' } } } }, 'application/merge-patch+json');
    const fixed = await grow('f');
    expect(fixed.status).toBe(403);
    expect(fixed.body.message).toBe(
      'persistentvolumeclaims "f" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
    );
    expect((await grow('e')).status).toBe(200);
    const pending = await grow('p');
    expect(pending.status).toBe(403);
    expect(pending.body.message).toBe('persistentvolumeclaims "p" is forbidden: Only bound persistent volume claims can be expanded');
  });
});

describe('plugins enabled by name', () => {
  it('AlwaysDeny refuses every write', async () => {
    t = await startTestServer({ 'enable-admission-plugins': 'AlwaysDeny' });
    const res = await t.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'x' } });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('configmaps "x" is forbidden: admission control is denying all modifications');
  });

  it('AlwaysPullImages sets imagePullPolicy: Always', async () => {
    t = await startTestServer({ 'enable-admission-plugins': 'AlwaysPullImages' });
    const res = await t.post('/api/v1/namespaces/default/pods', {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'busybox', imagePullPolicy: 'IfNotPresent' }] },
    });
    expect(res.body.spec.containers[0].imagePullPolicy).toBe('Always');
  });
});
