// What DELETE answers once the object is gone: the deleted object for the
// stores of 1.32 that return it (PersistentVolumeClaim, PodTemplate, …), a
// Status for the others (ConfigMap, PriorityClass, …).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

describe('DELETE answer', () => {
  it('returns the deleted PersistentVolumeClaim', async () => {
    const url = '/api/v1/namespaces/default/persistentvolumeclaims';
    await t.post(url, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    const res = await t.del(`${url}/data`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('PersistentVolumeClaim');
    expect(res.body.metadata.name).toBe('data');
  });

  it('returns the deleted PodTemplate', async () => {
    const url = '/api/v1/namespaces/default/podtemplates';
    await t.post(url, { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'pt' }, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
    const res = await t.del(`${url}/pt`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('PodTemplate');
  });

  it('answers a Status for a PriorityClass and a ConfigMap', async () => {
    await t.post('/apis/scheduling.k8s.io/v1/priorityclasses', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 });
    const pc = await t.del('/apis/scheduling.k8s.io/v1/priorityclasses/high');
    expect(pc.status).toBe(200);
    expect(pc.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'high', group: 'scheduling.k8s.io', kind: 'priorityclasses' } });
    await t.post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    const cm = await t.del('/api/v1/namespaces/default/configmaps/c');
    expect(cm.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'c', kind: 'configmaps' } });
  });
});
