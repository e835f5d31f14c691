// The https mode of the Node host, from kube-apiserver's own flags:
// --tls-cert-file and --tls-private-key-file serve https; --client-ca-file and
// --requestheader-client-ca-file make the server ask clients for a certificate
// (both bundles are named in the handshake's certificate request, so a client
// picks a matching certificate); each chain is verified per bundle by
// ./client-certificates. The flags are also passed to the core.

import { readFileSync } from 'node:fs';
import type { TlsOptions } from './http-adapter';
import { parsePemBundle, type ClientTrust } from './client-certificates';

function readCaFile(flag: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(`unable to load client CA file: unable to load client CA provider: open ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (error as Error).message} (--${flag})`);
  }
}

export function tlsFromFlags(flags: Readonly<Record<string, string>>): TlsOptions | undefined {
  const certFile = flags['tls-cert-file'];
  const keyFile = flags['tls-private-key-file'];
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) throw new Error('--tls-cert-file and --tls-private-key-file must be given together');
  const cas = (['client-ca-file', 'requestheader-client-ca-file'] as const).filter((f) => flags[f]).map((f) => readCaFile(f, flags[f]!));
  return {
    cert: readFileSync(certFile),
    key: readFileSync(keyFile),
    ...(cas.length ? { ca: Buffer.concat(cas.flatMap((c) => [c, Buffer.from('\n')])), requestCert: true } : {}),
  };
}

/** The bundles client certificates are verified against (a bad bundle is a start-up error, as in kube-apiserver). */
export function clientTrustFromFlags(flags: Readonly<Record<string, string>>): ClientTrust {
  const load = (flag: string): ClientTrust['clientCA'] => {
    const path = flags[flag];
    if (!path) return undefined;
    const certs = parsePemBundle(readCaFile(flag, path));
    if (certs.length === 0) throw new Error(`unable to load client CA file: unable to load client CA file "${path}": data does not contain any valid RSA or ECDSA certificates`);
    return certs;
  };
  const clientCA = load('client-ca-file');
  const requestHeaderCA = load('requestheader-client-ca-file');
  return { ...(clientCA ? { clientCA } : {}), ...(requestHeaderCA ? { requestHeaderCA } : {}) };
}
