// A host-given webhook fetch (ApiServerOptions.admissionWebhookFetch) trusts
// exactly the configuration's caBundle, as kube-apiserver's webhook client
// does: a webhook serving a certificate from that CA is called, one without a
// caBundle is refused with Go's x509 wording.

import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../clock';
import { createApiServer, type ApiServer } from '../../server';
import { openStore } from '../../storage/mvcc-store';
import { createServingCertificate } from '../../../platform/node/serving-certificate';
import { nodeAdmissionWebhookFetch as nodeWebhookFetch } from '../../../platform/node/admission-webhook-fetch';

let server: Server;
let port = 0;
let ca = '';

beforeAll(async () => {
  const cert = await createServingCertificate({ now: Date.now() });
  ca = cert.cert;
  server = createServer({ cert: cert.cert, key: cert.key }, (req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const review = JSON.parse(data);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: false, status: { message: 'seen' } } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function call(api: ApiServer, method: string, path: string, body: unknown) {
  const res = await api.handle(new Request(`http://kubetab.test${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }));
  return { status: res.status, body: await res.json() };
}

describe('caBundle (admission webhook TLS trust)', () => {
  it('trusts the configuration\'s caBundle and nothing else', async () => {
    const clock = manualClock();
    const api = await createApiServer({ store: await openStore({ clock }), clock, host: 'node', controllers: [], admissionWebhookFetch: nodeWebhookFetch });
    for (let i = 0; i < 200 && (await api.handle(new Request('http://kubetab.test/api/v1/namespaces/default'))).status !== 200; i++) await new Promise((r) => setTimeout(r, 5));
    const hook = (name: string, caBundle?: string) => ({
      name,
      clientConfig: { url: `https://127.0.0.1:${port}/`, ...(caBundle ? { caBundle } : {}) },
      rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    });
    const cfg = (webhooks: unknown[]) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'v' }, webhooks });
    expect((await call(api, 'POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', cfg([hook('trusted.example.com', Buffer.from(ca).toString('base64'))]))).status).toBe(201);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } };
    const trusted = await call(api, 'POST', '/api/v1/namespaces/default/configmaps', cm);
    expect(trusted.status).toBe(400);
    expect(trusted.body.message).toBe('admission webhook "trusted.example.com" denied the request: seen');
    expect((await call(api, 'PUT', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/v', cfg([hook('untrusted.example.com')]))).status).toBe(200);
    const untrusted = await call(api, 'POST', '/api/v1/namespaces/default/configmaps', cm);
    expect(untrusted.status).toBe(500);
    expect(untrusted.body.message).toBe(
      `Internal error occurred: failed calling webhook "untrusted.example.com": failed to call webhook: Post "https://127.0.0.1:${port}/?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
    await api.close();
  });
});
