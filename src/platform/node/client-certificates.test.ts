// Client certificates and the authenticating proxy over real TLS under Node
// (spec 001 "Methods: Client certificate", "Authenticating proxy"): the test
// PKI is made with the openssl command line; kubectl presents certificates
// with --client-certificate/--client-key; the proxy's requests are made with
// node:https. Every assertion is on what a client sees (kubectl's output, the
// HTTP status, the SelfSubjectReview the server answers).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKubectl, kubectlRunner } from './testing/kubectl-runner';
import { certificateHeader, issue, makeCA, opensslVerifies, type Issued } from './testing/openssl-pki';
import { startNodeHost, type NodeHost } from './node-host';
import { createServingCertificate } from './serving-certificate';
import { tlsFromFlags } from './tls-flags';
import { verifyClientChain, parsePemBundle } from './client-certificates';
import { createCertificate } from './certificates';
import { ensureAdminCertificate, ensureClientCA } from './admin-certificate';
import { writeKubeconfig } from './kubeconfig';

const KUBECTL = findKubectl();

interface Answer {
  readonly status: number;
  readonly body: string;
}

let dir: string;
let host: NodeHost;
let serving: { cert: string; key: string };
let clientCA: Issued, proxyCA: Issued, rogueCA: Issued;
let jane: Issued, proxy: Issued, intruderProxy: Issued, mallory: Issued, serverOnly: Issued, noCN: Issued;
const ADMIN_TOKEN = 'admin-token-0123456789';

/** An https request to the server, optionally with a client certificate. */
function call(path: string, options: { method?: string; headers?: Record<string, string | string[]>; body?: string; as?: Issued } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      `${host.url}${path}`,
      {
        method: options.method ?? 'GET',
        ca: serving.cert,
        ...(options.as ? { cert: options.as.cert, key: options.as.key } : {}),
        headers: { Accept: 'application/json', ...(options.body ? { 'Content-Type': 'application/json' } : {}), ...(options.headers ?? {}) },
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const SELF_SUBJECT_REVIEW = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });

async function whoAmI(options: Parameters<typeof call>[1]): Promise<{ status: number; userInfo?: unknown }> {
  const answer = await call('/apis/authentication.k8s.io/v1/selfsubjectreviews', { ...options, method: 'POST', body: SELF_SUBJECT_REVIEW });
  return answer.status === 201 ? { status: 201, userInfo: (JSON.parse(answer.body) as { status: { userInfo: unknown } }).status.userInfo } : { status: answer.status };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kubetab-x509-'));
  clientCA = makeCA(dir, 'client-ca', 'kubernetes');
  proxyCA = makeCA(dir, 'front-proxy-ca');
  rogueCA = makeCA(dir, 'rogue-ca', 'kubernetes');
  jane = issue(dir, clientCA, 'jane', { cn: 'jane', organizations: ['dev', 'ops'] });
  proxy = issue(dir, proxyCA, 'front-proxy-client', { cn: 'front-proxy-client' });
  intruderProxy = issue(dir, proxyCA, 'intruder', { cn: 'intruder' });
  mallory = issue(dir, rogueCA, 'mallory', { cn: 'mallory', organizations: ['system:masters'] });
  serverOnly = issue(dir, clientCA, 'server-only', { cn: 'webserver', extendedKeyUsage: 'serverAuth' });
  noCN = issue(dir, clientCA, 'no-cn', { cn: '', organizations: ['dev'] });

  serving = await createServingCertificate({ now: Date.now() });
  writeFileSync(join(dir, 'apiserver.crt'), serving.cert);
  writeFileSync(join(dir, 'apiserver.key'), serving.key);
  writeFileSync(join(dir, 'tokens.csv'), `${ADMIN_TOKEN},admin,admin,system:masters\n`);
  const flags = {
    'authorization-mode': 'Node,RBAC',
    'token-auth-file': join(dir, 'tokens.csv'),
    'tls-cert-file': join(dir, 'apiserver.crt'),
    'tls-private-key-file': join(dir, 'apiserver.key'),
    'client-ca-file': clientCA.certPath,
    'requestheader-client-ca-file': proxyCA.certPath,
    'requestheader-username-headers': 'X-Remote-User',
    'requestheader-group-headers': 'X-Remote-Group',
    'requestheader-extra-headers-prefix': 'X-Remote-Extra-',
    'requestheader-allowed-names': 'front-proxy-client',
  };
  host = await startNodeHost({ port: 0, flags, tls: tlsFromFlags(flags) });
}, 60_000);

afterAll(async () => {
  await host?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('client certificates over TLS (--client-ca-file)', () => {
  it('a certificate the client CA issued: CN is the user, each O a group, plus system:authenticated', async () => {
    expect(await whoAmI({ as: jane })).toEqual({ status: 201, userInfo: { username: 'jane', groups: ['dev', 'ops', 'system:authenticated'] } });
  });

  it('a certificate from another CA is refused with 401, even naming system:masters', async () => {
    const answer = await call('/api/v1/namespaces', { as: mallory });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Status', reason: 'Unauthorized', message: 'Unauthorized', code: 401 });
  });

  it('a certificate not allowed for client authentication (serverAuth only) is refused', async () => {
    expect((await call('/api/v1/namespaces', { as: serverOnly })).status).toBe(401);
  });

  it('a verified certificate without CN names nobody; the proxy verifier\'s refusal then makes it 401 (kube\'s union of errors)', async () => {
    // x509 answers "not recognised" (no CN); the request-header verifier refuses the
    // certificate (not from its CA); no authenticator accepted, so the error decides.
    const answer = await call('/api/v1/namespaces', { as: noCN });
    expect(answer.status).toBe(401);
  });

  it('a bad certificate does not hide a good bearer token (the first authenticator that accepts decides)', async () => {
    expect(await whoAmI({ as: mallory, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).toEqual({
      status: 201,
      userInfo: { username: 'admin', uid: 'admin', groups: ['system:masters', 'system:authenticated'] },
    });
  });

  it('no header can stand for a certificate: a client without one that sends the proxy headers is anonymous', async () => {
    const answer = await call('/api/v1/namespaces', { headers: { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' } });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).message).toContain('User "system:anonymous"');
  });

  it('the browser\'s reserved certificate header is removed under Node: a valid chain in it makes nobody jane', async () => {
    const answer = await call('/api/v1/namespaces', { headers: { 'X-Kubetab-Client-Certificate': certificateHeader(jane) } });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).message).toContain('User "system:anonymous"');
    // The same header beside a real TLS certificate changes nothing either.
    expect(await whoAmI({ as: proxy, headers: { 'X-Kubetab-Client-Certificate': certificateHeader(jane), 'X-Remote-User': 'alice' } })).toMatchObject({ userInfo: { username: 'alice' } });
  });
});

describe('the authenticating proxy (--requestheader-*)', () => {
  it('a proxy certificate from the request-header CA with an allowed CN: the headers name the user, groups and extra', async () => {
    const answer = await whoAmI({
      as: proxy,
      headers: { 'X-Remote-User': 'alice', 'X-Remote-Group': ['team-a', 'team-b'], 'X-Remote-Extra-Acme.com%2Fproject': 'kubetab', 'X-Remote-Extra-Scopes': 'openid' },
    });
    expect(answer).toEqual({
      status: 201,
      userInfo: { username: 'alice', groups: ['team-a', 'team-b', 'system:authenticated'], extra: { 'acme.com/project': ['kubetab'], scopes: ['openid'] } },
    });
  });

  it('authorization applies to the user the proxy names (RBAC 403 with kube\'s message)', async () => {
    const answer = await call('/api/v1/namespaces/default/pods', { as: proxy, headers: { 'X-Remote-User': 'alice' } });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).message).toBe('pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"');
  });

  it('a proxy whose CN is not in --requestheader-allowed-names is refused with 401', async () => {
    expect((await call('/api/v1/namespaces', { as: intruderProxy, headers: { 'X-Remote-User': 'alice' } })).status).toBe(401);
  });

  it('a client certificate (client CA) cannot act as the proxy: its headers are ignored and the certificate is the user', async () => {
    expect(await whoAmI({ as: jane, headers: { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' } })).toEqual({
      status: 201,
      userInfo: { username: 'jane', groups: ['dev', 'ops', 'system:authenticated'] },
    });
  });

  it('the proxy\'s certificate alone (no username header, not from the client CA) is refused', async () => {
    expect((await call('/api/v1/namespaces', { as: proxy })).status).toBe(401);
  });
});

describe.skipIf(!KUBECTL)('kubectl with --client-certificate and --client-key', () => {
  // Two kubeconfigs: the administrator's token, and a user with no credential of its own.
  const admin = kubectlRunner(KUBECTL ?? 'kubectl', () => ({ kubeconfig: join(dir, 'kubeconfig-admin'), dir }));
  const { run, ok } = kubectlRunner(KUBECTL ?? 'kubectl', () => ({ kubeconfig: join(dir, 'kubeconfig'), dir }));
  beforeAll(async () => {
    await writeKubeconfig(join(dir, 'kubeconfig-admin'), { server: host.url, certificateAuthorityData: serving.cert, token: ADMIN_TOKEN, userName: 'admin' });
    await writeKubeconfig(join(dir, 'kubeconfig'), { server: host.url, certificateAuthorityData: serving.cert, userName: 'nobody' });
    await admin.ok(['create', 'rolebinding', 'dev-view', '--clusterrole=view', '--group=dev', '-n', 'default']);
  }, 60_000);

  const asJane = () => ['--client-certificate', jane.certPath, '--client-key', jane.keyPath];

  it('kubectl auth whoami shows the certificate\'s CN and O', async () => {
    const out = await ok([...asJane(), 'auth', 'whoami']);
    expect(out).toMatch(/^Username\s+jane$/m);
    expect(out).toMatch(/^Groups\s+\[dev ops system:authenticated\]$/m);
  });

  it('RBAC through the O group: jane lists pods (view via group dev) and is forbidden to create', async () => {
    expect(await ok([...asJane(), 'get', 'pods', '-n', 'default'])).toBe('');
    expect((await run([...asJane(), 'auth', 'can-i', 'list', 'pods', '-n', 'default'])).stdout.trim()).toBe('yes');
    const denied = await run([...asJane(), 'create', 'configmap', 'x', '-n', 'default']);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('configmaps is forbidden: User "jane" cannot create resource "configmaps" in API group "" in the namespace "default"');
  });

  it('a certificate of an unknown CA: kubectl reports Unauthorized', async () => {
    const denied = await run(['--client-certificate', mallory.certPath, '--client-key', mallory.keyPath, 'get', 'namespaces']);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
  });
});

describe('chain verification (crypto/x509 Verify for client authentication)', () => {
  it('accepts a leaf through a presented intermediate; refuses it without the intermediate', () => {
    const intermediate = issue(dir, clientCA, 'intermediate', { cn: 'intermediate', ca: true });
    const leaf = issue(dir, intermediate, 'leaf', { cn: 'deep' });
    const roots = parsePemBundle(clientCA.cert);
    const now = new Date();
    expect(verifyClientChain([new X509Certificate(leaf.cert), new X509Certificate(intermediate.cert)], roots, now)).toBeUndefined();
    expect(verifyClientChain([new X509Certificate(leaf.cert)], roots, now)).toBe('x509: certificate signed by unknown authority');
  });

  it('refuses an expired certificate with Go\'s text', () => {
    const later = new Date(Date.now() + 400 * 24 * 3600 * 1000);
    const error = verifyClientChain([new X509Certificate(jane.cert)], parsePemBundle(clientCA.cert), later);
    expect(error).toMatch(/^x509: certificate has expired or is not yet valid: current time \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ is after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});

describe('the CLI\'s PKI (kubeadm admin.conf: CN=kubernetes-admin, O=kubeadm:cluster-admins)', () => {
  it('openssl accepts the generated CA and the admin certificate it issued for client authentication', async () => {
    const pki = join(dir, 'cli-pki');
    (await import('node:fs')).mkdirSync(pki);
    const ca = await ensureClientCA(pki);
    const admin = await ensureAdminCertificate(pki, ca);
    expect(opensslVerifies(pki, ca.certPath, join(pki, 'admin.crt'))).toBe(true);
    const x509 = new X509Certificate(admin.cert);
    expect(x509.subject).toBe('O=kubeadm:cluster-admins\nCN=kubernetes-admin');
    expect(x509.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    // Made again from disk: the same certificate (a kubeconfig stays valid across restarts).
    expect((await ensureAdminCertificate(pki, await ensureClientCA(pki))).cert).toBe(admin.cert);
    // And one another CA signed is not accepted for this CA.
    const other = await createCertificate({ subject: { commonName: 'x' }, now: Date.now(), validForMs: 3600_000, usages: ['client'] });
    expect(verifyClientChain([new X509Certificate(other.cert)], parsePemBundle(ca.cert), new Date())).toBe('x509: certificate signed by unknown authority');
  });
});
