// The CSR controllers through the real server: `kubectl certificate approve`
// ends in Approved,Issued with a real certificate from the cluster CA (one
// the Node host's --client-ca-file check accepts), signer rules end in
// Failed, kubelet client requests are auto-approved after a
// SubjectAccessReview, and the cleaner deletes finished requests on the
// cluster clock.

import { X509Certificate } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { rfc3339 } from '../../clock';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';
import { createCertificate, type KeyPair } from '../../../platform/node/certificates';
import { verifyClientChain } from '../../../platform/node/client-certificates';
import { makeCSR } from './testing/make-csr';

let bed: ControllerTestBed | undefined;
afterEach(async () => {
  expect(bed?.logs.filter((l) => /error|fail/i.test(l)) ?? []).toEqual([]);
  await bed?.close();
  bed = undefined;
});

const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const TABLE = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };
const YEAR = 365 * 24 * 3600_000;

let ca: KeyPair | undefined;
async function clusterCA(): Promise<KeyPair> {
  ca ??= await createCertificate({ subject: { commonName: 'kubernetes' }, now: Date.UTC(2024, 0, 1), validForMs: 10 * YEAR, ca: true });
  return ca;
}

async function start(enabled = ['csrsigning', 'csrapproving', 'csrcleaner']): Promise<ControllerTestBed> {
  const pair = await clusterCA();
  bed = await startControllerTestBed({ enabled, clusterSigning: { keyPair: async () => ({ certificate: pair.cert, privateKey: pair.key }) } });
  return bed;
}

const csr = (name: string, request: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec: { request, signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], ...spec },
});

/** What `kubectl certificate approve` sends. */
async function approve(b: ControllerTestBed, name: string, type = 'Approved'): Promise<void> {
  const current = (await b.ts.get(`${CSRS}/${name}`)).body;
  const condition = {
    type,
    status: 'True',
    reason: type === 'Approved' ? 'KubectlApprove' : 'KubectlDeny',
    message: `This CSR was ${type.toLowerCase()} by kubectl certificate ${type === 'Approved' ? 'approve' : 'deny'}.`,
    lastUpdateTime: rfc3339(b.ts.clock.now()),
  };
  const res = await b.ts.put(`${CSRS}/${name}/approval`, { ...current, status: { conditions: [condition] } });
  expect(res.status).toBe(200);
}

async function condition(b: ControllerTestBed, name: string): Promise<string> {
  return (await b.ts.get(`${CSRS}/${name}`, TABLE)).body.rows[0].cells[5];
}

function issued(body: { status: { certificate: string } }): X509Certificate {
  return new X509Certificate(atob(body.status.certificate));
}

describe('CSR signing controller', () => {
  it('issues an approved kube-apiserver-client request from the cluster CA: Approved,Issued', async () => {
    const b = await start();
    const req = await makeCSR({ commonName: 'jane', organizations: ['developers', 'qa'] });
    expect((await b.ts.post(CSRS, csr('jane', req.request, { usages: ['digital signature', 'key encipherment', 'client auth'] }))).status).toBe(201);
    await b.idle();
    expect(await condition(b, 'jane')).toBe('Pending');
    await approve(b, 'jane');
    await b.idle();
    expect(await condition(b, 'jane')).toBe('Approved,Issued');
    const cert = issued((await b.ts.get(`${CSRS}/jane`)).body);
    const caCert = new X509Certificate((await clusterCA()).cert);
    expect(cert.subject).toBe('O=developers\nO=qa\nCN=jane');
    expect(cert.issuer).toBe('CN=kubernetes');
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    // --cluster-signing-duration: a year, backdated five minutes at both ends.
    const now = b.ts.clock.now();
    expect(Date.parse(cert.validFrom)).toBe(now - 5 * 60_000);
    expect(Date.parse(cert.validTo)).toBe(now + YEAR - 5 * 60_000);
    // The Node host's --client-ca-file check (as kube's x509 authenticator) accepts it.
    expect(verifyClientChain([cert], [caCert], new Date(now))).toBeUndefined();
  });

  it('honours expirationSeconds, with a ten-minute minimum, short certificates not backdated at the end', async () => {
    const b = await start();
    await b.ts.post(CSRS, csr('short', (await makeCSR({ commonName: 'short' })).request, { expirationSeconds: 3600 }));
    await b.ts.post(CSRS, csr('tiny', (await makeCSR({ commonName: 'tiny' })).request, { expirationSeconds: 600 }));
    await approve(b, 'short');
    await approve(b, 'tiny');
    await b.idle();
    const now = b.ts.clock.now();
    expect(Date.parse(issued((await b.ts.get(`${CSRS}/short`)).body).validTo)).toBe(now + 3600_000);
    expect(Date.parse(issued((await b.ts.get(`${CSRS}/tiny`)).body).validTo)).toBe(now + 600_000);
    expect((await b.ts.get(`${CSRS}/short`, TABLE)).body.rows[0].cells[4]).toBe('60m');
  });

  it('issues kubelet-serving certificates with their names; marks requests breaking the signer rules Failed', async () => {
    const b = await start();
    const serving = await makeCSR({ commonName: 'system:node:kind-worker', organizations: ['system:nodes'] }, { dns: ['kind-worker'], ips: [[172, 18, 0, 3]] });
    await b.ts.post(CSRS, csr('serving', serving.request, { signerName: 'kubernetes.io/kubelet-serving', usages: ['digital signature', 'server auth'] }));
    await b.ts.post(CSRS, csr('bad-usage', (await makeCSR({ commonName: 'bob' })).request, { usages: ['client auth', 'server auth'] }));
    await b.ts.post(CSRS, csr('mine', (await makeCSR({ commonName: 'x' })).request, { signerName: 'example.com/my-signer' }));
    for (const n of ['serving', 'bad-usage', 'mine']) await approve(b, n);
    await b.idle();
    const cert = issued((await b.ts.get(`${CSRS}/serving`)).body);
    expect(cert.subjectAltName).toBe('DNS:kind-worker, IP Address:172.18.0.3');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    const bad = (await b.ts.get(`${CSRS}/bad-usage`)).body;
    expect(bad.status.certificate).toBeUndefined();
    expect(bad.status.conditions[1]).toMatchObject({ type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: 'invalid usage for client certificate: server auth' });
    expect(await condition(b, 'bad-usage')).toBe('Approved,Failed');
    // Someone else's signer: left alone.
    expect(await condition(b, 'mine')).toBe('Approved');
  });

  it('does not run without a signing CA', async () => {
    bed = await startControllerTestBed({ enabled: ['csrsigning'] });
    await bed.ts.post(CSRS, csr('unsigned', (await makeCSR({ commonName: 'u' })).request));
    await approve(bed, 'unsigned');
    await bed.idle();
    expect(await condition(bed, 'unsigned')).toBe('Approved');
    expect(bed.logs).toContain('certificatesigningrequest-signing-controller: skipping CSR signer controller because no csr cert/key was specified');
  });
});

describe('CSR approving controller', () => {
  it('auto-approves kubelet client requests after a SubjectAccessReview, and nothing else', async () => {
    const b = await start();
    const node = { username: 'system:node:kind-worker', groups: ['system:nodes', 'system:authenticated'] };
    const post = (body: unknown) =>
      b.ts.server.handleAs(new Request(`http://kubetab.test${CSRS}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }), node);
    const self = await makeCSR({ commonName: 'system:node:kind-worker', organizations: ['system:nodes'] });
    const other = await makeCSR({ commonName: 'system:node:kind-worker2', organizations: ['system:nodes'] });
    const usages = ['digital signature', 'client auth'];
    expect((await post(csr('self', self.request, { signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages }))).status).toBe(201);
    expect((await post(csr('other', other.request, { signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages }))).status).toBe(201);
    expect((await post(csr('plain', (await makeCSR({ commonName: 'system:node:kind-worker', organizations: ['system:nodes'] })).request, { usages }))).status).toBe(201);
    await b.idle();
    const approval = async (name: string) => (await b.ts.get(`${CSRS}/${name}`)).body.status.conditions?.[0];
    expect(await approval('self')).toEqual({
      type: 'Approved',
      status: 'True',
      reason: 'AutoApproved',
      message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
      // The API server stamps conditions written without times.
      lastUpdateTime: '2024-12-11T12:00:00Z',
      lastTransitionTime: '2024-12-11T12:00:00Z',
    });
    expect(await approval('other')).toMatchObject({ reason: 'AutoApproved', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' });
    expect(await approval('plain')).toBeUndefined();
    expect(await condition(b, 'self')).toBe('Approved,Issued');
    expect(issued((await b.ts.get(`${CSRS}/self`)).body).subject).toBe('O=system:nodes\nCN=system:node:kind-worker');
  });
});

describe('CSR cleaner', () => {
  it('deletes issued and denied requests after an hour, pending ones after a day', async () => {
    const b = await start(['csrsigning', 'csrcleaner']);
    for (const n of ['issued', 'denied', 'pending']) await b.ts.post(CSRS, csr(n, (await makeCSR({ commonName: n })).request));
    await approve(b, 'issued');
    await approve(b, 'denied', 'Denied');
    await b.idle();
    expect(await condition(b, 'issued')).toBe('Approved,Issued');
    const exists = async (n: string) => (await b.ts.get(`${CSRS}/${n}`)).status === 200;
    // The cleaner looks once an hour: at the first look the hour has not quite passed.
    b.ts.clock.advance(3600_000);
    await b.idle();
    expect(await exists('issued')).toBe(true);
    b.ts.clock.advance(3600_000);
    await b.idle();
    expect([await exists('issued'), await exists('denied'), await exists('pending')]).toEqual([false, false, true]);
    b.ts.clock.advance(22 * 3600_000);
    await b.idle();
    expect(await exists('pending')).toBe(true);
    b.ts.clock.advance(3600_000);
    await b.idle();
    expect(await exists('pending')).toBe(false);
  });
});
