// LimitRanger through the HTTP API: container defaults from the namespace's
// LimitRanges (with kube's annotation), and the min / max /
// maxLimitRequestRatio refusals with kube's messages.

import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const NS = '/api/v1/namespaces/default';
const pod = (name: string, resources?: Record<string, unknown>) => ({
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx', ...(resources ? { resources } : {}) }] },
});

describe('LimitRanger', () => {
  it('defaults container requests and limits and says so in kubernetes.io/limit-ranger; the QoS class follows', async () => {
    t = await startTestServer();
    const lr = await t.post(`${NS}/limitranges`, {
      metadata: { name: 'defaults' },
      spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '128Mi' }, defaultRequest: { cpu: '100m' } }] },
    });
    expect(lr.status).toBe(201);
    const res = await t.post(`${NS}/pods`, pod('p'));
    expect(res.status).toBe(201);
    expect(res.body.spec.containers[0].resources).toEqual({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(res.body.metadata.annotations['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app',
    );
    expect(res.body.status.qosClass).toBe('Burstable');
    // What the container sets itself stays.
    const own = await t.post(`${NS}/pods`, pod('own', { requests: { cpu: '200m' }, limits: { cpu: '300m' } }));
    expect(own.body.spec.containers[0].resources).toEqual({ limits: { cpu: '300m', memory: '128Mi' }, requests: { cpu: '200m', memory: '128Mi' } });
    expect(own.body.metadata.annotations['kubernetes.io/limit-ranger']).toBe('LimitRanger plugin set: memory request for container app; memory limit for container app');
  });

  it("refuses what breaks min, max or maxLimitRequestRatio with kube's messages", async () => {
    t = await startTestServer();
    await t.post(`${NS}/limitranges`, {
      metadata: { name: 'bounds' },
      spec: { limits: [{ type: 'Container', max: { cpu: '1' }, min: { cpu: '100m' }, maxLimitRequestRatio: { cpu: '2' } }] },
    });
    const big = await t.post(`${NS}/pods`, pod('big', { requests: { cpu: '1' }, limits: { cpu: '2' } }));
    expect(big.status).toBe(403);
    expect(big.body.message).toBe('pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
    const ratio = await t.post(`${NS}/pods`, pod('ratio', { requests: { cpu: '200m' }, limits: { cpu: '1' } }));
    expect(ratio.body.message).toBe('pods "ratio" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000');
    const small = await t.post(`${NS}/pods`, pod('small', { requests: { cpu: '50m' }, limits: { cpu: '50m' } }));
    expect(small.body.message).toBe('pods "small" is forbidden: minimum cpu usage per Container is 100m, but request is 50m');
    // max defaults `default` (and so the limit and the request) through the LimitRange's own defaulting.
    const fits = await t.post(`${NS}/pods`, pod('fits'));
    expect(fits.status).toBe(201);
    expect(fits.body.spec.containers[0].resources.limits.cpu).toBe('1');
  });

  it('holds claims to the PersistentVolumeClaim min and max', async () => {
    t = await startTestServer();
    await t.post(`${NS}/limitranges`, { metadata: { name: 'storage' }, spec: { limits: [{ type: 'PersistentVolumeClaim', max: { storage: '2Gi' } }] } });
    const res = await t.post(`${NS}/persistentvolumeclaims`, {
      metadata: { name: 'c' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('persistentvolumeclaims "c" is forbidden: maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 5Gi');
  });
});
