// The endpoints and EndpointSlice controllers against a real server, as a
// client sees them: Endpoints and EndpointSlices of a Service follow its
// pods as they get IPs and become Ready (this test plays the kubelet through
// pods/status), named target ports, headless Services with hostnames,
// terminating pods, Services without selector left alone, slices of at most
// 100 endpoints, and what `kubectl get endpoints` prints.

import { afterEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';
import { createNode, createPod, createService, getObject, NS, runPod, slicesOf, type Any } from './testing/cluster-objects';

let bed: ControllerTestBed;
afterEach(async () => bed?.close());

async function start(): Promise<void> {
  bed = await startControllerTestBed({ enabled: ['endpoint', 'endpointslice', 'endpointslicemirroring', 'garbagecollector'] });
  await createNode(bed.ts, 'worker', 'zone-a');
}

const endpoints = (name: string) => getObject(bed.ts, `${NS}/endpoints/${name}`);

describe('endpoints controller', () => {
  it('lists the ready and not-ready addresses of the selected pods, port by port', async () => {
    await start();
    const svc = await createService(bed.ts, 'web', { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] }, { tier: 'front' });
    await createPod(bed.ts, 'web-a', { ports: [{ name: 'http', containerPort: 8080 }] });
    await createPod(bed.ts, 'web-b', { ports: [{ name: 'http', containerPort: 8080 }] });
    await createPod(bed.ts, 'other', { labels: { app: 'other' } });
    await bed.idle();
    // No pod has an IP yet: an Endpoints object without subsets.
    let ep = await endpoints('web');
    expect(ep.subsets).toBeUndefined();
    expect(ep.metadata.labels).toEqual({ tier: 'front' });
    expect(ep.metadata.annotations['endpoints.kubernetes.io/last-change-trigger-time']).toBe(svc.metadata.creationTimestamp);

    await runPod(bed.ts, 'web-a', '10.244.1.3', true);
    const b = await runPod(bed.ts, 'web-b', '10.244.2.4', false);
    await bed.idle();
    ep = await endpoints('web');
    expect(ep.subsets).toEqual([
      {
        addresses: [{ ip: '10.244.1.3', nodeName: 'worker', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-a', uid: expect.any(String) } }],
        notReadyAddresses: [{ ip: '10.244.2.4', nodeName: 'worker', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-b', uid: b.metadata.uid } }],
        ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      },
    ]);

    await runPod(bed.ts, 'web-b', '10.244.2.4', true);
    await bed.idle();
    const table = await bed.ts.get(`${NS}/endpoints/web`, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.rows[0].cells[1]).toBe('10.244.1.3:8080,10.244.2.4:8080');
  });

  it('leaves out a pod without the named port, and a terminating pod', async () => {
    await start();
    await createService(bed.ts, 'web', { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] });
    await createPod(bed.ts, 'named', { ports: [{ name: 'http', containerPort: 8080 }] });
    await createPod(bed.ts, 'unnamed');
    await runPod(bed.ts, 'named', '10.244.1.3', true);
    await runPod(bed.ts, 'unnamed', '10.244.1.4', true);
    await bed.idle();
    expect((await endpoints('web')).subsets).toHaveLength(1);
    expect((await endpoints('web')).subsets[0].addresses.map((a: Any) => a.ip)).toEqual(['10.244.1.3']);
    // A graceful delete: the pod stays, terminating, and leaves the Endpoints (but stays in the slice as terminating).
    expect((await bed.ts.del(`${NS}/pods/named`)).status).toBe(200);
    await bed.idle();
    expect((await endpoints('web')).subsets).toBeUndefined();
    // The pod without the named port sits in a slice of its own (no ports); pick the port's slice by its port.
    const slice = (await slicesOf(bed.ts, 'web')).find((sl: Any) => (sl.ports ?? []).some((p: Any) => p.name === 'http'));
    expect(slice.endpoints).toEqual([
      expect.objectContaining({ addresses: ['10.244.1.3'], conditions: { ready: false, serving: true, terminating: true } }),
    ]);
  });

  it('gives a headless Service the headless label and its StatefulSet pods their hostnames', async () => {
    await start();
    await createService(bed.ts, 'db', { clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 5432 }] });
    await createPod(bed.ts, 'db-0', { labels: { app: 'db' }, hostname: 'db-0', subdomain: 'db' });
    await runPod(bed.ts, 'db-0', '10.244.1.7', true);
    await bed.idle();
    const ep = await endpoints('db');
    expect(ep.metadata.labels).toEqual({ 'service.kubernetes.io/headless': '' });
    expect(ep.subsets[0].addresses[0]).toMatchObject({ ip: '10.244.1.7', hostname: 'db-0' });
    const [slice] = await slicesOf(bed.ts, 'db');
    expect(slice.metadata.labels['service.kubernetes.io/headless']).toBe('');
    expect(slice.endpoints[0].hostname).toBe('db-0');
  });

  it('publishes not-ready addresses as ready when the Service asks', async () => {
    await start();
    await createService(bed.ts, 'web', { selector: { app: 'web' }, publishNotReadyAddresses: true, ports: [{ port: 80 }] });
    await createPod(bed.ts, 'web-a');
    await runPod(bed.ts, 'web-a', '10.244.1.3', false);
    await bed.idle();
    expect((await endpoints('web')).subsets[0].addresses[0].ip).toBe('10.244.1.3');
    const [slice] = await slicesOf(bed.ts, 'web');
    expect(slice.endpoints[0].conditions).toEqual({ ready: true, serving: false, terminating: false });
  });

  it('leaves the Endpoints of a Service without selector to their writer, and mirrors them into a slice', async () => {
    await start();
    await createService(bed.ts, 'ext', { ports: [{ port: 5432 }] }, { team: 'db' });
    const created = await bed.ts.post(`${NS}/endpoints`, {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'ext', labels: { team: 'db' } },
      subsets: [{ addresses: [{ ip: '192.168.0.10' }], notReadyAddresses: [{ ip: '192.168.0.11' }], ports: [{ port: 5432 }] }],
    });
    expect(created.status).toBe(201);
    await bed.idle();
    expect((await endpoints('ext')).subsets[0].addresses).toEqual([{ ip: '192.168.0.10' }]);
    const slices = await slicesOf(bed.ts, 'ext');
    expect(slices).toHaveLength(1);
    expect(slices[0]).toMatchObject({
      addressType: 'IPv4',
      metadata: {
        generateName: 'ext-',
        labels: { team: 'db', 'kubernetes.io/service-name': 'ext', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io' },
        ownerReferences: [{ apiVersion: 'v1', kind: 'Endpoints', name: 'ext', uid: created.body.metadata.uid, controller: true, blockOwnerDeletion: true }],
      },
      ports: [{ name: '', port: 5432, protocol: 'TCP' }],
    });
    expect(slices[0].endpoints).toEqual([
      { addresses: ['192.168.0.10'], conditions: { ready: true } },
      { addresses: ['192.168.0.11'], conditions: { ready: false } },
    ]);
    // The Endpoints go: so does their mirror.
    expect((await bed.ts.del(`${NS}/endpoints/ext`)).status).toBe(200);
    await bed.idle();
    expect(await slicesOf(bed.ts, 'ext')).toHaveLength(0);
  });

  it('deletes the Endpoints with their Service', async () => {
    await start();
    await createService(bed.ts, 'web', { selector: { app: 'web' }, ports: [{ port: 80 }] });
    await bed.idle();
    expect(await endpoints('web')).toBeDefined();
    expect((await bed.ts.del(`${NS}/services/web`)).status).toBe(200);
    await bed.idle();
    expect(await endpoints('web')).toBeUndefined();
  });
});

describe('endpointslice controller', () => {
  it('writes a slice per Service owned by it, with zones, conditions and the trigger time', async () => {
    await start();
    const svc = await createService(bed.ts, 'web', { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] });
    await bed.idle();
    // No pods: one empty placeholder slice.
    let slices = await slicesOf(bed.ts, 'web');
    expect(slices).toHaveLength(1);
    expect(slices[0].endpoints).toBeNull();
    expect(slices[0].ports).toBeNull();

    const pod = await createPod(bed.ts, 'web-a');
    await runPod(bed.ts, 'web-a', '10.244.1.3', true);
    await bed.idle();
    slices = await slicesOf(bed.ts, 'web');
    expect(slices).toHaveLength(1);
    const [slice] = slices;
    expect(slice.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(slice.metadata.labels).toEqual({ 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
    expect(slice.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: svc.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(slice.addressType).toBe('IPv4');
    expect(slice.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(slice.endpoints).toEqual([
      {
        addresses: ['10.244.1.3'],
        conditions: { ready: true, serving: true, terminating: false },
        nodeName: 'worker',
        zone: 'zone-a',
        targetRef: { kind: 'Pod', namespace: 'default', name: 'web-a', uid: pod.metadata.uid },
      },
    ]);
    expect(slice.metadata.annotations['endpoints.kubernetes.io/last-change-trigger-time']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const table = await bed.ts.get(`/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/${slice.metadata.name}`, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.rows[0].cells.slice(0, 4)).toEqual([slice.metadata.name, 'IPv4', '8080', '10.244.1.3']);
  });

  it('puts at most 100 endpoints in a slice', async () => {
    await start();
    await createService(bed.ts, 'big', { selector: { app: 'big' }, ports: [{ port: 80 }] });
    await bed.idle();
    for (let i = 0; i < 150; i++) {
      await createPod(bed.ts, `big-${i}`, { labels: { app: 'big' } });
      await runPod(bed.ts, `big-${i}`, `10.244.${Math.floor(i / 200) + 1}.${(i % 200) + 2}`, true);
      if (i % 10 === 9) await bed.idle();
    }
    await bed.idle();
    const slices = await slicesOf(bed.ts, 'big');
    expect(slices.map((s: Any) => s.endpoints.length).sort((a: number, b: number) => b - a)).toEqual([100, 50]);
    const all = slices.flatMap((s: Any) => s.endpoints.map((e: Any) => e.targetRef.name));
    expect(new Set(all).size).toBe(150);
  });

  it('reports a pod on a node that does not exist', async () => {
    await start();
    await createService(bed.ts, 'web', { selector: { app: 'web' }, ports: [{ port: 80 }] });
    await createPod(bed.ts, 'lost', { node: 'gone' });
    await runPod(bed.ts, 'lost', '10.244.9.9', true);
    await bed.idle();
    const events = (await bed.ts.get(`${NS}/events?fieldSelector=involvedObject.name%3Dweb`)).body.items;
    const failed = events.find((e: Any) => e.reason === 'FailedToUpdateEndpointSlices');
    expect(failed).toMatchObject({
      type: 'Warning',
      source: { component: 'endpoint-slice-controller' },
      message: 'Error updating Endpoint Slices for Service default/web: skipping Pod lost for Service default/web: Node gone Not Found',
    });
  });
});
