// A client certificate presented in the header reserved for it (spec 001
// "Authenticating proxy": "in the browser with a certificate the request
// presents in a header reserved for that, verified the same way"): the core
// verifies the chain with WebCrypto against --client-ca-file and
// --requestheader-client-ca-file. Certificates are made with the openssl
// command line (EC and RSA). Assertions are on the HTTP answers.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { certificateHeader, issue, makeCA, type Issued } from '../../../platform/node/testing/openssl-pki';
import { parsePemCertificates, verifyClientCertificateChain } from '../../auth/authn/x509-verify';
import { systemClock } from '../../clock';

const HEADER = 'X-Kubetab-Client-Certificate';
const REVIEW = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };

let dir: string;
let ts: TestServer;
let clientCA: Issued, rsaCA: Issued, proxyCA: Issued, rogueCA: Issued, intermediate: Issued;
let jane: Issued, rsaUser: Issued, deep: Issued, proxy: Issued, mallory: Issued, serverOnly: Issued;

/** As the page presents it: the header, and no Authorization header. */
const presenting = (...chain: Issued[]) => ({ Authorization: '', [HEADER]: certificateHeader(...chain) });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kubetab-cert-header-'));
  clientCA = makeCA(dir, 'client-ca', 'kubernetes');
  rsaCA = makeCA(dir, 'rsa-ca', 'kubernetes-rsa', 'rsa');
  proxyCA = makeCA(dir, 'front-proxy-ca');
  rogueCA = makeCA(dir, 'rogue-ca', 'kubernetes');
  intermediate = issue(dir, clientCA, 'intermediate', { cn: 'intermediate', ca: true });
  jane = issue(dir, clientCA, 'jane', { cn: 'jane', organizations: ['dev', 'ops'] });
  rsaUser = issue(dir, rsaCA, 'rsa-user', { cn: 'rosa', organizations: ['rsa-team'], keyType: 'rsa' });
  deep = issue(dir, intermediate, 'deep', { cn: 'deep' });
  proxy = issue(dir, proxyCA, 'proxy', { cn: 'front-proxy-client' });
  mallory = issue(dir, rogueCA, 'mallory', { cn: 'mallory', organizations: ['system:masters'] });
  serverOnly = issue(dir, clientCA, 'server-only', { cn: 'web', extendedKeyUsage: 'serverAuth' });
  ts = await startTestServer(
    {
      'authorization-mode': 'Node,RBAC',
      'client-ca-file': '/pki/ca.crt',
      'requestheader-client-ca-file': '/pki/front-proxy-ca.crt',
      'requestheader-username-headers': 'X-Remote-User',
      'requestheader-group-headers': 'X-Remote-Group',
      'requestheader-allowed-names': 'front-proxy-client',
    },
    // Certificates are valid from now: the server's clock is the real one.
    systemClock(),
    [],
    { files: { '/pki/ca.crt': clientCA.cert + rsaCA.cert, '/pki/front-proxy-ca.crt': proxyCA.cert } },
  );
}, 60_000);

afterAll(async () => {
  await ts?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function whoami(headers: Record<string, string>): Promise<{ status: number; userInfo?: unknown }> {
  const res = await ts.post('/apis/authentication.k8s.io/v1/selfsubjectreviews', REVIEW, headers);
  return res.status === 201 ? { status: 201, userInfo: (res.body as { status: { userInfo: unknown } }).status.userInfo } : { status: res.status };
}

describe('a client certificate in the reserved header, verified by the core', () => {
  it('an EC certificate of the client CA: CN the user, O the groups', async () => {
    expect(await whoami(presenting(jane))).toEqual({ status: 201, userInfo: { username: 'jane', groups: ['dev', 'ops', 'system:authenticated'] } });
  });

  it('an RSA certificate of a second CA in the same bundle', async () => {
    expect(await whoami(presenting(rsaUser))).toEqual({ status: 201, userInfo: { username: 'rosa', groups: ['rsa-team', 'system:authenticated'] } });
  });

  it('a chain through an intermediate the request presents; without it, 401', async () => {
    expect(await whoami(presenting(deep, intermediate))).toEqual({ status: 201, userInfo: { username: 'deep', groups: ['system:authenticated'] } });
    expect((await ts.get('/api/v1/namespaces', presenting(deep))).status).toBe(401);
  });

  it('another CA\'s certificate (even claiming system:masters), a server-only certificate, garbage: 401 Unauthorized', async () => {
    for (const headers of [presenting(mallory), presenting(serverOnly), { Authorization: '', [HEADER]: 'bm90IGEgY2VydGlmaWNhdGU=' }]) {
      const res = await ts.get('/api/v1/namespaces', headers);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    }
  });

  it('the proxy: a request-header CA certificate with an allowed CN makes the headers the user', async () => {
    expect(await whoami({ ...presenting(proxy), 'X-Remote-User': 'alice', 'X-Remote-Group': 'team' })).toEqual({
      status: 201,
      userInfo: { username: 'alice', groups: ['team', 'system:authenticated'] },
    });
    const forbidden = await ts.get('/api/v1/namespaces/default/pods', { ...presenting(proxy), 'X-Remote-User': 'alice' });
    expect(forbidden.body).toMatchObject({ message: 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"' });
  });

  it('the audit trace names why a certificate was refused, with Go\'s text', async () => {
    await ts.get('/api/v1/namespaces?limit=7', presenting(mallory));
    const audit = await ts.get('/kubetab/v1/audit?limit=100');
    const item = (audit.body as { items: { event: { requestURI: string }; authentication?: { steps: { authenticator: string; error?: string }[] } }[] }).items.find(
      (i) => i.event.requestURI === '/api/v1/namespaces?limit=7',
    );
    const x509 = item?.authentication?.steps.find((s) => s.authenticator === 'x509');
    expect(x509?.error).toMatch(/^verifying certificate SN=\d+ failed: x509: certificate signed by unknown authority$/);
  });
});

describe('WebCrypto chain verification', () => {
  it('expiry with Go\'s text', async () => {
    const [leaf] = parsePemCertificates(jane.cert);
    const later = Date.now() + 400 * 24 * 3600 * 1000;
    expect(await verifyClientCertificateChain([leaf!], parsePemCertificates(clientCA.cert), later)).toMatch(
      /^x509: certificate has expired or is not yet valid: current time \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ is after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );
    expect(await verifyClientCertificateChain([leaf!], parsePemCertificates(clientCA.cert), Date.now())).toBeUndefined();
  });
});
