// Rule (issue 3): the root-CA publisher keeps a `kube-root-ca.crt` ConfigMap (key ca.crt,
// the cluster CA in PEM) in every namespace, put back when edited or deleted.

import { X509Certificate } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';
import { DESCRIPTION } from './root-ca-publisher';

let bed: ControllerTestBed;
afterEach(async () => bed?.close());

const path = (ns: string) => `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`;

describe('root-CA publisher', () => {
  it('publishes one self-signed CA certificate in every namespace', async () => {
    bed = await startControllerTestBed({ enabled: ['root-ca-certificate-publisher-controller'] });
    const { ts } = bed;
    await ts.post('/api/v1/namespaces', { metadata: { name: 'team' } });
    await bed.idle();
    const bundles = new Set<string>();
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'team']) {
      const res = await ts.get(path(ns));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data)).toEqual(['ca.crt']);
      expect(res.body.metadata.annotations).toEqual({ 'kubernetes.io/description': DESCRIPTION });
      bundles.add(res.body.data['ca.crt']);
    }
    expect(bundles.size).toBe(1);
    const cert = new X509Certificate([...bundles][0]!);
    expect(cert.subject).toBe('CN=kubernetes');
    expect(cert.issuer).toBe('CN=kubernetes');
    expect(cert.ca).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.keyUsage).toBeUndefined(); // Node lists extended key usages here; the CA has none.
    expect(cert.subjectAltName).toBe('DNS:kubernetes');
    const years = (Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / (365 * 24 * 3600 * 1000);
    expect(Math.round(years)).toBe(10);
    // notBefore comes from the cluster clock (the test server's manual clock).
    expect(Date.parse(cert.validFrom)).toBe(ts.clock.now() - (ts.clock.now() % 1000));
  });

  it('puts the ConfigMap back when it is edited or deleted', async () => {
    bed = await startControllerTestBed({ enabled: ['root-ca-certificate-publisher-controller'] });
    const { ts } = bed;
    const original = (await ts.get(path('default'))).body.data['ca.crt'];

    const edited = await ts.patch(path('default'), { data: { 'ca.crt': 'tampered', extra: 'x' } }, 'application/merge-patch+json');
    expect(edited.status).toBe(200);
    await bed.idle();
    expect((await ts.get(path('default'))).body.data).toEqual({ 'ca.crt': original });

    expect((await ts.del(path('default'))).status).toBe(200);
    await bed.idle();
    const back = await ts.get(path('default'));
    expect(back.status).toBe(200);
    expect(back.body.data).toEqual({ 'ca.crt': original });
  });

  it('uses the certificate the host gives', async () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIBhostgiven\n-----END CERTIFICATE-----\n';
    bed = await startControllerTestBed({ enabled: ['root-ca-certificate-publisher-controller'], rootCA: { certificate: async () => pem } });
    expect((await bed.ts.get(path('kube-public'))).body.data['ca.crt']).toBe(pem);
  });
});
