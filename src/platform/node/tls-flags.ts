// The https mode of the Node host, from kube-apiserver's own flags:
// --tls-cert-file and --tls-private-key-file serve https; --client-ca-file
// asks clients for a certificate (verifying it, and mapping it to a user, is
// access control's job in the core). The flags are also passed to the core.

import { readFileSync } from 'node:fs';
import type { TlsOptions } from './http-adapter';

export function tlsFromFlags(flags: Readonly<Record<string, string>>): TlsOptions | undefined {
  const certFile = flags['tls-cert-file'];
  const keyFile = flags['tls-private-key-file'];
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) throw new Error('--tls-cert-file and --tls-private-key-file must be given together');
  const clientCaFile = flags['client-ca-file'];
  return {
    cert: readFileSync(certFile),
    key: readFileSync(keyFile),
    ...(clientCaFile ? { ca: readFileSync(clientCaFile), requestCert: true } : {}),
  };
}
