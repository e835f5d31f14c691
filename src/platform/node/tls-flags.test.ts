// The https mode: kube-apiserver's --tls-cert-file/--tls-private-key-file make
// the Node host serve https, and the kubeconfig trusts that certificate.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeHost, type NodeHost } from './node-host';
import { tlsFromFlags } from './tls-flags';

const OPENSSL = ['/usr/bin/openssl', '/bin/openssl'].find((p) => existsSync(p));

describe('tlsFromFlags', () => {
  it('is plain http without the TLS flags', () => {
    expect(tlsFromFlags({ 'runtime-config': 'api/all=true' })).toBeUndefined();
  });
  it('refuses one TLS flag without the other', () => {
    expect(() => tlsFromFlags({ 'tls-cert-file': '/x' })).toThrow('--tls-cert-file and --tls-private-key-file must be given together');
  });
});

describe.skipIf(!OPENSSL)('https mode', () => {
  let dir: string;
  let host: NodeHost;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetab-tls-'));
    execFileSync(OPENSSL!, [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=kubetab', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    const flags = { 'tls-cert-file': join(dir, 'cert.pem'), 'tls-private-key-file': join(dir, 'key.pem') };
    host = await startNodeHost({ port: 0, flags, tls: tlsFromFlags(flags) });
  });
  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the API over https with the given certificate', async () => {
    expect(host.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const body = await new Promise<string>((resolve, reject) => {
      https
        .get(`${host.url}/version`, { ca: readFileSync(join(dir, 'cert.pem')) }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    expect(JSON.parse(body).gitVersion).toMatch(/^v1\.32\./);
  });
});
