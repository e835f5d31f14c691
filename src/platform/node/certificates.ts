// X.509 certificates for the Node host's own PKI, as kubeadm makes them:
// ECDSA P-256 with SHA-256, written with the DER helpers of the root-CA
// publisher (no dependency). One builder for the three kinds the host needs —
// the self-signed serving certificate, a client CA, and client certificates
// the CA issues (kubeadm's admin.conf user) — so that each is a few fields.

import { X509Certificate, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import {
  bitString,
  booleanTrue,
  explicit,
  objectIdentifier,
  octetString,
  pem,
  sequence,
  set,
  smallInteger,
  time,
  tlv,
  unsignedInteger,
  utf8String,
  type Bytes,
} from '../../core/controllers/root-ca/der';

const OID = {
  ecPublicKey: '1.2.840.10045.2.1',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
};

export interface CertificateSubject {
  readonly commonName: string;
  readonly organizations?: readonly string[];
}

/** A PEM certificate and its PEM PKCS#8 private key. */
export interface KeyPair {
  readonly cert: string;
  readonly key: string;
}

export interface CertificateRequest {
  readonly subject: CertificateSubject;
  /** Milliseconds since the epoch; the certificate is valid from a minute before. */
  readonly now: number;
  readonly validForMs: number;
  /** A certificate authority (may sign certificates). */
  readonly ca?: boolean;
  /** Extended key usages: server and/or client authentication. */
  readonly usages?: readonly ('server' | 'client')[];
  /** DNS names and IP addresses (subjectAltName). */
  readonly hosts?: readonly string[];
  /** Who signs it; absent: self-signed. */
  readonly issuer?: KeyPair;
}

function extension(oid: string, critical: boolean, value: Bytes): Bytes {
  return critical ? sequence(objectIdentifier(oid), booleanTrue(), octetString(value)) : sequence(objectIdentifier(oid), octetString(value));
}

function ipBytes(ip: string): Bytes {
  if (isIP(ip) === 4) return Uint8Array.from(ip.split('.').map(Number));
  // IPv6: expand "::" and write eight 16-bit groups.
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill('0'), ...t];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const v = parseInt(g || '0', 16);
    out[i * 2] = v >> 8;
    out[i * 2 + 1] = v & 0xff;
  });
  return out;
}

/** Subject as kubeadm writes it: the organizations first, then the common name. */
function name(subject: CertificateSubject): Bytes {
  return sequence(
    ...(subject.organizations ?? []).map((o) => set(sequence(objectIdentifier(OID.organization), utf8String(o)))),
    set(sequence(objectIdentifier(OID.commonName), utf8String(subject.commonName))),
  );
}

/** The DER of one element at `at` (tag, length, content), for reading the issuer's subject back. */
function element(der: Bytes, at: number): { start: number; end: number; contentStart: number } {
  const first = der[at + 1]!;
  let len = first;
  let header = 2;
  if (first & 0x80) {
    const n = first & 0x7f;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[at + 2 + i]!;
    header = 2 + n;
  }
  return { start: at, end: at + header + len, contentStart: at + header };
}

/** The subject Name of a certificate, as DER (the issuer field of what it signs). */
function subjectDer(certPem: string): Bytes {
  const der = new Uint8Array(new X509Certificate(certPem).raw);
  const cert = element(der, 0);
  const tbs = element(der, cert.contentStart);
  // tbsCertificate: [0] version, serial, signature algorithm, issuer, validity, subject.
  let at = tbs.contentStart;
  if (der[at] === 0xa0) at = element(der, at).end;
  for (let i = 0; i < 4; i++) at = element(der, at).end;
  const subject = element(der, at);
  return der.slice(subject.start, subject.end);
}

function ecdsaSignatureToDer(raw: Bytes): Bytes {
  const half = raw.length / 2;
  return sequence(unsignedInteger(raw.slice(0, half)), unsignedInteger(raw.slice(half)));
}

function pemBody(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return Uint8Array.from(Buffer.from(b64, 'base64'));
}

async function keyIdentifier(spki: Bytes): Promise<Bytes> {
  // RFC 5280 4.2.1.2 method 1: SHA-1 of the subjectPublicKey bits (the last 65 bytes of a P-256 SPKI).
  return new Uint8Array(await webcrypto.subtle.digest('SHA-1', spki.slice(spki.length - 65)));
}

export async function createCertificate(request: CertificateRequest): Promise<KeyPair> {
  const subtle = webcrypto.subtle;
  const keys = (await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const spki = new Uint8Array(await subtle.exportKey('spki', keys.publicKey));
  const pkcs8 = new Uint8Array(await subtle.exportKey('pkcs8', keys.privateKey));
  const serial = webcrypto.getRandomValues(new Uint8Array(16));
  serial[0] = serial[0]! & 0x7f;

  const issuerName = request.issuer ? subjectDer(request.issuer.cert) : name(request.subject);
  const signingKey = request.issuer
    ? await subtle.importKey('pkcs8', pemBody(request.issuer.key), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign'])
    : keys.privateKey;
  const authorityKeyId = request.issuer
    ? await keyIdentifier(new Uint8Array(new X509Certificate(request.issuer.cert).publicKey.export({ format: 'der', type: 'spki' })))
    : undefined;

  const usages = request.usages ?? [];
  // digitalSignature (bit 0), plus keyCertSign (bit 5) for a CA: 10000100 with two unused bits, or 1 with seven.
  const keyUsage = request.ca ? bitString(Uint8Array.of(0x84), 2) : bitString(Uint8Array.of(0x80), 7);
  const extensions: Bytes[] = [extension(OID.keyUsage, true, keyUsage)];
  if (usages.length) {
    extensions.push(extension(OID.extKeyUsage, false, sequence(...usages.map((u) => objectIdentifier(u === 'server' ? OID.serverAuth : OID.clientAuth)))));
  }
  extensions.push(extension(OID.basicConstraints, true, request.ca ? sequence(booleanTrue()) : sequence()));
  if (request.ca) extensions.push(extension(OID.subjectKeyIdentifier, false, octetString(await keyIdentifier(spki))));
  if (authorityKeyId) extensions.push(extension(OID.authorityKeyIdentifier, false, sequence(tlv(0x80, authorityKeyId))));
  if (request.hosts?.length) {
    const altNames = request.hosts.map((h) => (isIP(h) ? tlv(0x87, ipBytes(h)) : tlv(0x82, new TextEncoder().encode(h))));
    extensions.push(extension(OID.subjectAltName, false, sequence(...altNames)));
  }

  const algorithm = sequence(objectIdentifier(OID.ecdsaWithSHA256));
  const tbs = sequence(
    explicit(0, smallInteger(2)),
    unsignedInteger(serial),
    algorithm,
    issuerName,
    sequence(time(request.now - 60_000), time(request.now + request.validForMs)),
    name(request.subject),
    spki,
    explicit(3, sequence(...extensions)),
  );
  const signature = new Uint8Array(await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, signingKey, new Uint8Array(tbs)));
  return {
    cert: pem('CERTIFICATE', sequence(tbs, algorithm, bitString(ecdsaSignatureToDer(signature)))),
    key: pem('PRIVATE KEY', pkcs8),
  };
}
