// The Node host's way of calling admission webhooks
// (ApiServerOptions.admissionWebhookFetch): an https POST that trusts the
// configuration's caBundle when it has one (the system roots otherwise), as
// kube-apiserver's webhook client does, with transport failures worded as Go
// words them so that the core's `failed to call webhook: Post "…": <reason>`
// reads like kube-apiserver's.

import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { WebhookFetch } from '../../core/admission/webhook/fetch';

const UNKNOWN_AUTHORITY = new Set(['SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY']);

function goReason(err: NodeJS.ErrnoException, url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (err.code === 'ECONNREFUSED') return `dial tcp ${url.hostname}:${port}: connect: connection refused`;
  if (err.code === 'ENOTFOUND') return `dial tcp: lookup ${url.hostname}: no such host`;
  if (err.code && UNKNOWN_AUTHORITY.has(err.code)) return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  if (err.code === 'CERT_HAS_EXPIRED') return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  if (err.code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `tls: failed to verify certificate: x509: certificate is not valid for ${url.hostname}`;
  return err.message;
}

export const nodeAdmissionWebhookFetch: WebhookFetch = (url, init) =>
  new Promise((resolve, reject) => {
    const u = new URL(url);
    const send = u.protocol === 'http:' ? httpRequest : httpsRequest;
    const req = send(u, { method: init.method, headers: init.headers, signal: init.signal, ...(init.caBundle ? { ca: init.caBundle } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 500, text: async () => body });
      });
      res.on('error', (err) => reject(new Error(goReason(err, u))));
    });
    req.on('error', (err: NodeJS.ErrnoException) => reject(new Error(goReason(err, u))));
    req.end(init.body);
  });
