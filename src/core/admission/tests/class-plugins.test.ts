// DefaultStorageClass, DefaultIngressClass, RuntimeClass,
// StorageObjectInUseProtection and TaintNodesByCondition through the HTTP API.

import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function server(flags: Record<string, string> = {}): Promise<TestServer> {
  t = await startTestServer(flags);
  return t;
}

const PVCS = '/api/v1/namespaces/default/persistentvolumeclaims';
const pvc = (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({
  metadata: { name, ...metadata },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const SC = '/apis/storage.k8s.io/v1/storageclasses';
const storageClass = (name: string, isDefault: boolean) => ({
  metadata: { name, ...(isDefault ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}) },
  provisioner: 'example.com/disk',
});

describe('DefaultStorageClass', () => {
  it('gives a claim with no class the default StorageClass, and leaves an explicit "" or a named class alone', async () => {
    const ts = await server();
    const none = await ts.post(PVCS, pvc('before'));
    expect(none.body.spec.storageClassName).toBeUndefined();
    await ts.post(SC, storageClass('slow', false));
    await ts.post(SC, storageClass('standard', true));
    expect((await ts.post(PVCS, pvc('a'))).body.spec.storageClassName).toBe('standard');
    expect((await ts.post(PVCS, pvc('b', { storageClassName: '' }))).body.spec.storageClassName).toBe('');
    expect((await ts.post(PVCS, pvc('c', { storageClassName: 'slow' }))).body.spec.storageClassName).toBe('slow');
    const beta = await ts.post(PVCS, pvc('d', {}, { annotations: { 'volume.beta.kubernetes.io/storage-class': 'slow' } }));
    expect(beta.body.spec.storageClassName).toBeUndefined();
  });
});

describe('DefaultIngressClass', () => {
  it('gives an Ingress with no class the default IngressClass', async () => {
    const ts = await server();
    await ts.post('/apis/networking.k8s.io/v1/ingressclasses', {
      metadata: { name: 'nginx', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } },
      spec: { controller: 'k8s.io/ingress-nginx' },
    });
    const ING = '/apis/networking.k8s.io/v1/namespaces/default/ingresses';
    const backend = { defaultBackend: { service: { name: 'web', port: { number: 80 } } } };
    expect((await ts.post(ING, { metadata: { name: 'a' }, spec: backend })).body.spec.ingressClassName).toBe('nginx');
    const annotated = await ts.post(ING, { metadata: { name: 'b', annotations: { 'kubernetes.io/ingress.class': 'other' } }, spec: backend });
    expect(annotated.body.spec.ingressClassName).toBeUndefined();
  });
});

describe('RuntimeClass', () => {
  const PODS = '/api/v1/namespaces/default/pods';
  const pod = (name: string, spec: Record<string, unknown>) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } });

  it("takes the class's overhead and scheduling, and refuses an unknown class or a conflicting selector", async () => {
    const ts = await server();
    await ts.post('/apis/node.k8s.io/v1/runtimeclasses', {
      metadata: { name: 'gvisor' },
      handler: 'runsc',
      overhead: { podFixed: { cpu: '250m', memory: '64Mi' } },
      scheduling: { nodeSelector: { sandbox: 'yes' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
    });
    const res = await ts.post(PODS, pod('p', { runtimeClassName: 'gvisor', nodeSelector: { zone: 'a' } }));
    expect(res.status).toBe(201);
    expect(res.body.spec.overhead).toEqual({ cpu: '250m', memory: '64Mi' });
    expect(res.body.spec.nodeSelector).toEqual({ zone: 'a', sandbox: 'yes' });
    expect(res.body.spec.tolerations).toContainEqual({ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' });

    const missing = await ts.post(PODS, pod('m', { runtimeClassName: 'kata' }));
    expect(missing.status).toBe(403);
    expect(missing.body.message).toBe('pods "m" is forbidden: pod rejected: RuntimeClass "kata" not found');
    const conflict = await ts.post(PODS, pod('c', { runtimeClassName: 'gvisor', nodeSelector: { sandbox: 'no' } }));
    expect(conflict.status).toBe(403);
    expect(conflict.body.message).toBe(
      'pods "c" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = yes; pod.spec.nodeSelector[sandbox] = no',
    );
    const overhead = await ts.post(PODS, pod('o', { overhead: { cpu: '1' } }));
    expect(overhead.status).toBe(403);
    expect(overhead.body.message).toBe('pods "o" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  });
});

describe('plugins a controller completes', () => {
  it('are off when their controller does not run, and on when named (StorageObjectInUseProtection, TaintNodesByCondition)', async () => {
    const off = await server();
    expect((await off.post(PVCS, pvc('x'))).body.metadata.finalizers).toBeUndefined();
    await off.close();
    const ts = await server({ 'enable-admission-plugins': 'StorageObjectInUseProtection,TaintNodesByCondition' });
    expect((await ts.post(PVCS, pvc('x'))).body.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    const pv = await ts.post('/api/v1/persistentvolumes', {
      metadata: { name: 'pv1' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } },
    });
    expect(pv.body.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
    const node = await ts.post('/api/v1/nodes', { metadata: { name: 'n1' } });
    expect(node.body.spec.taints).toEqual([{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
  });
});
