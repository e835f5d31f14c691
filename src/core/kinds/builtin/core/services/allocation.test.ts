// Issue "Every kind of a 1.32 server" — Service ClusterIP and NodePort
// allocation (10.96.0.0/12, 30000–32767) with conflicts refused and released
// on delete, through HTTP as a client sees it: kube's field paths and texts,
// the static bands, headless and ExternalName Services, dry runs, type
// changes, failed requests holding nothing, and a restart keeping what the
// stored Services hold.

import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../../../clock';
import { createApiServer } from '../../../../server';
import { createMemoryPersistence } from '../../../../storage/memory-persistence';
import { openStore } from '../../../../storage/mvcc-store';
import { startTestServer, type TestServer } from '../../../../../test-support/api-harness';
import { parseIPv4 } from './ip-range';

const SVCS = '/api/v1/namespaces/default/services';
const svc = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } });

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
async function start(): Promise<TestServer> {
  server = await startTestServer();
  return server;
}

describe('cluster IPs', () => {
  it('hands out a free IP of 10.96.0.0/12 above the static band (10.96.0.1–10.96.1.0 is left for requested IPs)', async () => {
    const s = await start();
    const low = parseIPv4('10.96.1.1')!;
    const high = parseIPv4('10.111.255.254')!;
    const ips = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await s.post(SVCS, svc(`s${i}`, {}));
      expect(res.status).toBe(201);
      const ip = res.body.spec.clusterIP as string;
      expect(res.body.spec.clusterIPs).toEqual([ip]);
      expect(parseIPv4(ip)).toBeGreaterThanOrEqual(low);
      expect(parseIPv4(ip)).toBeLessThanOrEqual(high);
      ips.add(ip);
    }
    expect(ips.size).toBe(5);
  });

  it('refuses a requested IP that another Service holds, with kube-apiserver 1.32 message', async () => {
    const s = await start();
    expect((await s.post(SVCS, svc('a', { clusterIP: '10.96.0.10' }))).status).toBe(201);
    const res = await s.post(SVCS, svc('b', { clusterIP: '10.96.0.10' }));
    expect(res.status).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    expect(res.body.message).toBe(
      'Service "b" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated',
    );
    expect(res.body.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated', field: 'spec.clusterIPs' },
    ]);
    // Nothing was stored.
    expect((await s.get(`${SVCS}/b`)).status).toBe(404);
  });

  it('refuses an IP outside the range, naming the range; the network and broadcast addresses are outside it', async () => {
    const s = await start();
    for (const ip of ['1.1.1.1', '10.96.0.0', '10.111.255.255']) {
      const res = await s.post(SVCS, svc('x', { clusterIP: ip }));
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(
        `Service "x" is invalid: spec.clusterIPs: Invalid value: []string{"${ip}"}: failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is 10.96.0.0/12`,
      );
    }
    expect((await s.post(SVCS, svc('x', { clusterIP: '10.111.255.254' }))).status).toBe(201);
  });

  it('gives headless and ExternalName Services no IP', async () => {
    const s = await start();
    const headless = await s.post(SVCS, svc('h', { clusterIP: 'None', selector: { app: 'x' } }));
    expect(headless.status).toBe(201);
    expect([headless.body.spec.clusterIP, headless.body.spec.clusterIPs]).toEqual(['None', ['None']]);
    const ext = await s.post(SVCS, { metadata: { name: 'e' }, spec: { type: 'ExternalName', externalName: 'example.com' } });
    expect(ext.status).toBe(201);
    expect(ext.body.spec.clusterIP).toBeUndefined();
    expect(ext.body.spec.clusterIPs).toBeUndefined();
  });

  it('frees the IP when the Service is deleted', async () => {
    const s = await start();
    expect((await s.post(SVCS, svc('a', { clusterIP: '10.96.0.20' }))).status).toBe(201);
    expect((await s.del(`${SVCS}/a`)).status).toBe(200);
    expect((await s.post(SVCS, svc('b', { clusterIP: '10.96.0.20' }))).status).toBe(201);
  });

  it('frees the IP when the Service becomes ExternalName, and allocates one when it stops being ExternalName', async () => {
    const s = await start();
    expect((await s.post(SVCS, svc('a', { clusterIP: '10.96.0.30' }))).status).toBe(201);
    const changed = await s.patch(`${SVCS}/a`, { spec: { type: 'ExternalName', externalName: 'example.com' } }, 'application/merge-patch+json');
    expect(changed.status).toBe(200);
    expect(changed.body.spec.clusterIP).toBeUndefined();
    expect(changed.body.spec.ipFamilies).toBeUndefined();
    expect((await s.post(SVCS, svc('b', { clusterIP: '10.96.0.30' }))).status).toBe(201);
    const back = await s.patch(`${SVCS}/a`, { spec: { type: 'ClusterIP', externalName: null } }, 'application/merge-patch+json');
    expect(back.status).toBe(200);
    expect(back.body.spec.clusterIP).toMatch(/^10\.(9[6-9]|10\d|11[01])\./);
  });

  it('keeps the allocated IP on a PUT that leaves it out (kubectl replace)', async () => {
    const s = await start();
    const created = await s.post(SVCS, svc('a', {}));
    const ip = created.body.spec.clusterIP;
    expect(ip).toMatch(/^10\./);
    const body = created.body;
    delete body.spec.clusterIP;
    delete body.spec.clusterIPs;
    const put = await s.put(`${SVCS}/a`, body);
    expect(put.status).toBe(200);
    expect(put.body.spec.clusterIP).toBe(ip);
  });

  it('allocates on create through PUT (services allow create on update) and through server-side apply', async () => {
    const s = await start();
    const put = await s.put(`${SVCS}/p`, svc('p', { clusterIP: '10.96.0.40' }));
    expect(put.status).toBe(201);
    const conflict = await s.patch(`${SVCS}/q?fieldManager=test`, svc('q', { clusterIP: '10.96.0.40' }), 'application/apply-patch+yaml');
    expect(conflict.status).toBe(422);
    expect(conflict.body.message).toContain('failed to allocate IP 10.96.0.40: provided IP is already allocated');
    const applied = await s.patch(`${SVCS}/q?fieldManager=test`, svc('q', {}), 'application/apply-patch+yaml');
    expect(applied.status).toBe(201);
    expect(applied.body.spec.clusterIP).toMatch(/^10\./);
  });

  it('lets two concurrent requests for one IP not both have it', async () => {
    const s = await start();
    const results = await Promise.all([s.post(SVCS, svc('a', { clusterIP: '10.96.0.50' })), s.post(SVCS, svc('b', { clusterIP: '10.96.0.50' }))]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
  });

  it('holds nothing for a request that fails validation', async () => {
    const s = await start();
    const bad = await s.post(SVCS, svc('a', { clusterIP: '10.96.0.60', sessionAffinity: 'Sticky' }));
    expect(bad.status).toBe(422);
    expect(bad.body.message).toContain('spec.sessionAffinity: Unsupported value: "Sticky"');
    expect((await s.post(SVCS, svc('a', { clusterIP: '10.96.0.60' }))).status).toBe(201);
  });

  it('refuses dual stack on this single-stack cluster', async () => {
    const s = await start();
    const res = await s.post(SVCS, svc('d', { ipFamilyPolicy: 'RequireDualStack' }));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Service "d" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services');
    const v6 = await s.post(SVCS, svc('d', { ipFamilies: ['IPv6'] }));
    expect(v6.body.message).toBe('Service "d" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster');
    const prefer = await s.post(SVCS, svc('d', { ipFamilyPolicy: 'PreferDualStack' }));
    expect(prefer.status).toBe(201);
    expect(prefer.body.spec.ipFamilies).toEqual(['IPv4']);
  });

  it('refuses the IP of the kubernetes Service the bootstrap controller created', async () => {
    server = await startTestServer({}, manualClock(), ['bootstrap']);
    await server.server.idle();
    expect((await server.get(SVCS + '/kubernetes')).body.spec.clusterIP).toBe('10.96.0.1');
    const res = await server.post(SVCS, svc('x', { clusterIP: '10.96.0.1' }));
    expect(res.body.message).toBe('Service "x" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.1"}: failed to allocate IP 10.96.0.1: provided IP is already allocated');
  });
});

describe('node ports', () => {
  it('hands out a port of 30000-32767 above the static band (30000-30085), shared by ports with the same number', async () => {
    const s = await start();
    const res = await s.post(SVCS, svc('n', { type: 'NodePort', ports: [{ name: 'tcp', port: 53 }, { name: 'udp', port: 53, protocol: 'UDP' }, { name: 'web', port: 80 }] }));
    expect(res.status).toBe(201);
    const [dnsTcp, dnsUdp, web] = res.body.spec.ports.map((p: { nodePort: number }) => p.nodePort);
    expect(dnsTcp).toBe(dnsUdp);
    expect(web).not.toBe(dnsTcp);
    for (const p of [dnsTcp, web]) {
      expect(p).toBeGreaterThanOrEqual(30086);
      expect(p).toBeLessThanOrEqual(32767);
    }
  });

  it('refuses a node port in use and one out of range, with kube-apiserver 1.32 messages', async () => {
    const s = await start();
    expect((await s.post(SVCS, svc('a', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }))).status).toBe(201);
    const taken = await s.post(SVCS, svc('b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    expect(taken.status).toBe(422);
    expect(taken.body.message).toBe('Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
    const outside = await s.post(SVCS, svc('b', { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] }));
    expect(outside.body.message).toBe(
      'Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
    // A failed create held nothing, so the IP range is untouched too.
    expect((await s.get(`${SVCS}/b`)).status).toBe(404);
  });

  it('frees node ports when the Service is deleted and when it changes to ClusterIP', async () => {
    const s = await start();
    expect((await s.post(SVCS, svc('a', { type: 'NodePort', ports: [{ port: 80, nodePort: 30081 }] }))).status).toBe(201);
    expect((await s.del(`${SVCS}/a`)).status).toBe(200);
    expect((await s.post(SVCS, svc('b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30081 }] }))).status).toBe(201);
    // kubectl patch of the type: the node ports it still carries are dropped, then freed.
    const patched = await s.patch(`${SVCS}/b`, { spec: { type: 'ClusterIP', externalTrafficPolicy: null } }, 'application/strategic-merge-patch+json');
    expect(patched.status).toBe(200);
    expect(patched.body.spec.ports[0].nodePort).toBeUndefined();
    expect((await s.post(SVCS, svc('c', { type: 'NodePort', ports: [{ port: 80, nodePort: 30081 }] }))).status).toBe(201);
  });

  it('allocates node ports when a Service becomes NodePort and keeps them across updates', async () => {
    const s = await start();
    await s.post(SVCS, svc('a', {}));
    const np = await s.patch(`${SVCS}/a`, { spec: { type: 'NodePort' } }, 'application/merge-patch+json');
    expect(np.status).toBe(200);
    const port = np.body.spec.ports[0].nodePort;
    expect(port).toBeGreaterThanOrEqual(30000);
    const relabelled = await s.patch(`${SVCS}/a`, { metadata: { labels: { x: 'y' } } }, 'application/merge-patch+json');
    expect(relabelled.body.spec.ports[0].nodePort).toBe(port);
  });

  it('gives a LoadBalancer with externalTrafficPolicy Local a health-check node port', async () => {
    const s = await start();
    const res = await s.post(SVCS, svc('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }));
    expect(res.status).toBe(201);
    expect(res.body.spec.healthCheckNodePort).toBeGreaterThanOrEqual(30000);
    expect(res.body.spec.healthCheckNodePort).not.toBe(res.body.spec.ports[0].nodePort);
    const taken = await s.post(SVCS, svc('lb2', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: res.body.spec.healthCheckNodePort }));
    expect(taken.status).toBe(500);
    expect(taken.body.message).toBe(
      `Internal error occurred: failed to allocate requested HealthCheck NodePort ${res.body.spec.healthCheckNodePort}: provided port is already allocated`,
    );
  });
});

describe('dry run', () => {
  it("allocates nothing and shows kube's dry-run placeholders (the network address, node ports from 32769)", async () => {
    const s = await start();
    const dry = await s.post(`${SVCS}?dryRun=All`, svc('d', { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] }));
    expect(dry.status).toBe(201);
    expect(dry.body.spec.clusterIP).toBe('10.96.0.0');
    expect(dry.body.spec.ports.map((p: { nodePort: number }) => p.nodePort)).toEqual([32769, 32770]);
    // A dry-run request for an IP reserves nothing.
    expect((await s.post(`${SVCS}?dryRun=All`, svc('d', { clusterIP: '10.96.0.70' }))).status).toBe(201);
    expect((await s.post(SVCS, svc('e', { clusterIP: '10.96.0.70' }))).status).toBe(201);
    // kube's dry-run IP allocator checks only the range; its port allocator checks conflicts.
    expect((await s.post(`${SVCS}?dryRun=All`, svc('f', { clusterIP: '10.96.0.70' }))).status).toBe(201);
    expect((await s.post(`${SVCS}?dryRun=All`, svc('f', { clusterIP: '1.2.3.4' }))).status).toBe(422);
    await s.post(SVCS, svc('g', { type: 'NodePort', ports: [{ port: 80, nodePort: 30090 }] }));
    const port = await s.post(`${SVCS}?dryRun=All`, svc('h', { type: 'NodePort', ports: [{ port: 80, nodePort: 30090 }] }));
    expect(port.body.message).toBe('Service "h" is invalid: spec.ports[0].nodePort: Invalid value: 30090: provided port is already allocated');
  });
});

describe('restart', () => {
  it('knows after a restart what the stored Services hold', async () => {
    const clock = manualClock();
    const persistence = createMemoryPersistence();
    const send = (srv: Awaited<ReturnType<typeof createApiServer>>, method: string, path: string, body?: unknown) =>
      srv.handle(new Request(`http://kubetab.test${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }));
    const waitForDefault = async (srv: Awaited<ReturnType<typeof createApiServer>>) => {
      for (let i = 0; i < 200 && (await send(srv, 'GET', '/api/v1/namespaces/default')).status !== 200; i++) await new Promise((r) => setTimeout(r, 5));
    };
    const first = await createApiServer({ store: await openStore({ clock, persistence }), clock, host: 'node', controllers: [] });
    await waitForDefault(first);
    expect((await send(first, 'POST', SVCS, svc('a', { type: 'NodePort', clusterIP: '10.96.0.80', ports: [{ port: 80, nodePort: 30100 }] }))).status).toBe(201);
    await first.close();

    const second = await createApiServer({ store: await openStore({ clock, persistence }), clock, host: 'node', controllers: [] });
    await waitForDefault(second);
    const ip = await send(second, 'POST', SVCS, svc('b', { clusterIP: '10.96.0.80' }));
    expect(ip.status).toBe(422);
    const port = await send(second, 'POST', SVCS, svc('c', { type: 'NodePort', ports: [{ port: 80, nodePort: 30100 }] }));
    expect(((await port.json()) as { message: string }).message).toBe('Service "c" is invalid: spec.ports[0].nodePort: Invalid value: 30100: provided port is already allocated');
    await second.close();
  });
});
