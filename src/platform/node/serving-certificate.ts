// A self-signed serving certificate for the Node host's secure default, as
// kube-apiserver makes one when it has no --tls-cert-file: kubectl only sends
// bearer tokens (and exec-plugin credentials) over TLS, so a secured server
// must speak https. ECDSA P-256 with SHA-256, valid one year, for 127.0.0.1,
// ::1, localhost and the bind address; it is its own CA, so the kubeconfig
// trusts exactly this certificate (certificate-authority-data).

import { createCertificate, type KeyPair } from './certificates';

const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

/** PEM certificate (also the CA the kubeconfig trusts) and PEM PKCS#8 key. */
export type ServingCertificate = KeyPair;

export function createServingCertificate(options: { readonly now: number; readonly hosts?: readonly string[] }): Promise<ServingCertificate> {
  return createCertificate({
    subject: { commonName: `localhost@${Math.floor(options.now / 1000)}`, organizations: ['kubetab'] },
    now: options.now,
    validForMs: ONE_YEAR_MS,
    ca: true,
    usages: ['server'],
    hosts: [...new Set(['127.0.0.1', '::1', 'localhost', ...(options.hosts ?? [])])],
  });
}
