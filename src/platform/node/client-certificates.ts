// Client certificates under Node (decision 0180): the TLS server asks every
// client for a certificate without verifying it in the handshake (Go's
// tls.RequestClientCert, as kube-apiserver), and each connection's chain is
// verified here, with node:crypto's X509Certificate, against the two trust
// bundles kube-apiserver keeps apart: --client-ca-file (the user is the CN,
// each O a group) and --requestheader-client-ca-file (the authenticating
// proxy). The outcome goes to the core with the request, never as a header.

import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { PeerCertificates, VerifiedCertificateSubject } from '../../core/api/access';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_USAGE = '2.5.29.37.0';
/** Go's x509 limit on intermediates walked. */
const MAX_CHAIN = 10;

export interface ClientTrust {
  /** --client-ca-file */
  readonly clientCA?: readonly X509Certificate[];
  /** --requestheader-client-ca-file */
  readonly requestHeaderCA?: readonly X509Certificate[];
}

/** Every certificate of a PEM bundle. */
export function parsePemBundle(text: string | Buffer): X509Certificate[] {
  const blocks = String(text).match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => new X509Certificate(b));
}

/** The peer's chain as presented: the leaf first, then the intermediates it sent. */
export function peerChain(socket: TLSSocket): X509Certificate[] {
  const chain: X509Certificate[] = [];
  let cert = socket.getPeerCertificate(true);
  const seen = new Set<string>();
  while (cert && cert.raw && chain.length <= MAX_CHAIN) {
    const fp = cert.fingerprint256;
    if (seen.has(fp)) break;
    seen.add(fp);
    chain.push(new X509Certificate(cert.raw));
    cert = cert.issuerCertificate;
  }
  return chain;
}

/** Go's RFC 3339 time in its error texts (seconds, Z). */
function goTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function validityError(cert: X509Certificate, now: Date): string | undefined {
  const from = new Date(cert.validFrom);
  const to = new Date(cert.validTo);
  if (now < from) return `x509: certificate has expired or is not yet valid: current time ${goTime(now)} is before ${goTime(from)}`;
  if (now > to) return `x509: certificate has expired or is not yet valid: current time ${goTime(now)} is after ${goTime(to)}`;
  return undefined;
}

function issuedBy(child: X509Certificate, parent: X509Certificate): boolean {
  return child.checkIssued(parent) && child.verify(parent.publicKey);
}

/**
 * crypto/x509 Verify with KeyUsages [ClientAuth], as kube's x509 authenticator
 * calls it: a chain from the leaf through presented intermediates (CA
 * certificates) to one of `roots`, each certificate valid now, the leaf
 * allowed client authentication. Returns Go's error text, or undefined.
 */
export function verifyClientChain(chain: readonly X509Certificate[], roots: readonly X509Certificate[], now: Date): string | undefined {
  const leaf = chain[0];
  if (!leaf) return 'x509: no certificate presented';
  const leafError = validityError(leaf, now);
  if (leafError) return leafError;
  const usages = leaf.keyUsage;
  if (usages && usages.length && !usages.includes(CLIENT_AUTH) && !usages.includes(ANY_USAGE)) return 'x509: certificate specifies an incompatible key usage';
  // A leaf that is itself one of the roots verifies (Go's roots.contains).
  if (roots.some((r) => r.raw.equals(leaf.raw))) return undefined;
  const intermediates = chain.slice(1).filter((c) => c.ca);
  let current = leaf;
  for (let depth = 0; depth <= MAX_CHAIN; depth++) {
    const root = roots.find((r) => issuedBy(current, r));
    if (root) return validityError(root, now);
    const next = intermediates.find((i) => i !== current && issuedBy(current, i));
    if (!next) break;
    const error = validityError(next, now);
    if (error) return error;
    current = next;
  }
  return 'x509: certificate signed by unknown authority';
}

function subjectOf(cert: X509Certificate): VerifiedCertificateSubject {
  // toLegacyObject gives repeated attributes (several O) as arrays.
  const subject = (cert.toLegacyObject().subject ?? {}) as unknown as Record<string, string | string[] | undefined>;
  const values = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  return { commonName: values(subject.CN)[0] ?? '', organizations: values(subject.O) };
}

/** Go's big.Int %d of the serial number, as kube's error text names a certificate. */
function serialOf(cert: X509Certificate): string {
  return BigInt(`0x${cert.serialNumber}`).toString(10);
}

/** What the core is told about a connection's certificate (undefined: none presented). */
export function verifyPeer(chain: readonly X509Certificate[], trust: ClientTrust, now: Date): PeerCertificates | undefined {
  const leaf = chain[0];
  if (!leaf) return undefined;
  const failed = (error: string) => `verifying certificate SN=${serialOf(leaf)} failed: ${error}`;
  const out: { -readonly [K in keyof PeerCertificates]: PeerCertificates[K] } = {};
  if (trust.clientCA) {
    const error = verifyClientChain(chain, trust.clientCA, now);
    if (error) out.clientCertificateError = failed(error);
    else out.clientCertificate = subjectOf(leaf);
  }
  if (trust.requestHeaderCA) {
    const error = verifyClientChain(chain, trust.requestHeaderCA, now);
    if (error) out.requestHeaderCertificateError = failed(error);
    else out.requestHeaderCertificate = subjectOf(leaf);
  }
  return out;
}

/**
 * The verified peer of a request's connection, computed once per TLS
 * connection (keep-alive requests reuse it). Undefined over plain http, or
 * when the client sent no certificate.
 */
export function createPeerVerifier(trust: ClientTrust, now: () => Date = () => new Date()): (socket: TLSSocket) => PeerCertificates | undefined {
  const cache = new WeakMap<TLSSocket, PeerCertificates | null>();
  return (socket) => {
    if (!socket.encrypted || (!trust.clientCA && !trust.requestHeaderCA)) return undefined;
    let peer = cache.get(socket);
    if (peer === undefined) {
      peer = verifyPeer(peerChain(socket), trust, now()) ?? null;
      cache.set(socket, peer);
    }
    return peer ?? undefined;
  };
}
