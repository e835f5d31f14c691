// A test PKI made with the openssl command line, independent of KubeTab's
// own certificate code: CAs, and client certificates they issue with a
// chosen subject and validity. For tests of client-certificate
// authentication (src/platform/node/client-certificates.test.ts).

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Issued {
  readonly certPath: string;
  readonly keyPath: string;
  readonly cert: string;
  readonly key: string;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function subjectText(cn: string, organizations: readonly string[]): string {
  return organizations.map((o) => `/O=${o}`).join('') + `/CN=${cn}`;
}

function issued(dir: string, name: string): Issued {
  const certPath = join(dir, `${name}.crt`);
  const keyPath = join(dir, `${name}.key`);
  return { certPath, keyPath, cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
}

function genKey(dir: string, name: string, keyType: 'ec' | 'rsa'): void {
  if (keyType === 'rsa') openssl(['genrsa', '-out', `${name}.key`, '2048'], dir);
  else openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`], dir);
}

/** A self-signed CA (EC P-256, or RSA 2048). */
export function makeCA(dir: string, name: string, cn = name, keyType: 'ec' | 'rsa' = 'ec'): Issued {
  genKey(dir, name, keyType);
  openssl(
    ['req', '-x509', '-new', '-key', `${name}.key`, '-subj', `/CN=${cn}`, '-days', '30', '-out', `${name}.crt`,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,digitalSignature'],
    dir,
  );
  return issued(dir, name);
}

export interface LeafOptions {
  readonly cn: string;
  readonly organizations?: readonly string[];
  /** Extended key usage, default clientAuth. */
  readonly extendedKeyUsage?: string;
  readonly days?: number;
  /** Makes the leaf a CA too (for an intermediate). */
  readonly ca?: boolean;
  readonly keyType?: 'ec' | 'rsa';
}

/** A certificate `ca` issues. */
export function issue(dir: string, ca: Issued, name: string, options: LeafOptions): Issued {
  genKey(dir, name, options.keyType ?? 'ec');
  openssl(['req', '-new', '-key', `${name}.key`, '-subj', subjectText(options.cn, options.organizations ?? []), '-out', `${name}.csr`], dir);
  const ext = join(dir, `${name}.ext`);
  writeFileSync(
    ext,
    options.ca
      ? 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,digitalSignature\n'
      : `basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=${options.extendedKeyUsage ?? 'clientAuth'}\n`,
  );
  openssl(['x509', '-req', '-in', `${name}.csr`, '-CA', ca.certPath, '-CAkey', ca.keyPath, '-CAcreateserial', '-days', String(options.days ?? 30), '-extfile', ext, '-out', `${name}.crt`], dir);
  return issued(dir, name);
}

/** `openssl verify`: whether openssl accepts `cert` as issued by `caPath` for client authentication. */
export function opensslVerifies(dir: string, caPath: string, certPath: string): boolean {
  try {
    openssl(['verify', '-CAfile', caPath, '-purpose', 'sslclient', certPath], dir);
    return true;
  } catch {
    return false;
  }
}

/** The reserved header's value for a chain: base64 DER certificates, leaf first, comma-separated. */
export function certificateHeader(...certs: Issued[]): string {
  return certs.map((c) => c.cert.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '')).join(',');
}
