// A self-signed serving certificate for the Node host's secure default, as
// kube-apiserver makes one when it has no --tls-cert-file: kubectl only sends
// bearer tokens (and exec-plugin credentials) over TLS, so a secured server
// must speak https. ECDSA P-256 with SHA-256, valid one year, for 127.0.0.1,
// ::1, localhost and the bind address; it is its own CA, so the kubeconfig
// trusts exactly this certificate (certificate-authority-data).

import { webcrypto } from 'node:crypto';
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
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
};

const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

export interface ServingCertificate {
  /** PEM certificate (also the CA the kubeconfig trusts). */
  readonly cert: string;
  /** PEM PKCS#8 private key. */
  readonly key: string;
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

function ecdsaSignatureToDer(raw: Bytes): Bytes {
  const half = raw.length / 2;
  return sequence(unsignedInteger(raw.slice(0, half)), unsignedInteger(raw.slice(half)));
}

export async function createServingCertificate(options: { readonly now: number; readonly hosts?: readonly string[] }): Promise<ServingCertificate> {
  const subtle = webcrypto.subtle;
  const keys = (await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const spki = new Uint8Array(await subtle.exportKey('spki', keys.publicKey));
  const pkcs8 = new Uint8Array(await subtle.exportKey('pkcs8', keys.privateKey));
  const serial = webcrypto.getRandomValues(new Uint8Array(16));
  serial[0] = serial[0]! & 0x7f;
  const keyId = new Uint8Array(await subtle.digest('SHA-1', spki.slice(spki.length - 65)));
  const hosts = [...new Set(['127.0.0.1', '::1', 'localhost', ...(options.hosts ?? [])])];
  const altNames = hosts.map((h) => (isIP(h) ? tlv(0x87, ipBytes(h)) : tlv(0x82, new TextEncoder().encode(h))));
  const subject = sequence(
    set(sequence(objectIdentifier(OID.organization), utf8String('kubetab'))),
    set(sequence(objectIdentifier(OID.commonName), utf8String(`localhost@${Math.floor(options.now / 1000)}`))),
  );
  const algorithm = sequence(objectIdentifier(OID.ecdsaWithSHA256));
  const extensions = sequence(
    // digitalSignature (bit 0) and keyCertSign (bit 5): 10000100, two unused bits.
    extension(OID.keyUsage, true, bitString(Uint8Array.of(0x84), 2)),
    extension(OID.extKeyUsage, false, sequence(objectIdentifier(OID.serverAuth))),
    extension(OID.basicConstraints, true, sequence(booleanTrue())),
    extension(OID.subjectKeyIdentifier, false, octetString(keyId)),
    extension(OID.subjectAltName, false, sequence(...altNames)),
  );
  const tbs = sequence(
    explicit(0, smallInteger(2)),
    unsignedInteger(serial),
    algorithm,
    subject,
    sequence(time(options.now - 60_000), time(options.now + ONE_YEAR_MS)),
    subject,
    spki,
    explicit(3, extensions),
  );
  const signature = new Uint8Array(await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, new Uint8Array(tbs)));
  return {
    cert: pem('CERTIFICATE', sequence(tbs, algorithm, bitString(ecdsaSignatureToDer(signature)))),
    key: pem('PRIVATE KEY', pkcs8),
  };
}
