// A self-signed cluster CA certificate, made with WebCrypto (browser and
// Node alike): ECDSA P-256 with SHA-256, subject and issuer CN=kubernetes,
// valid ten years from now, with the extensions client-go's
// NewSelfSignedCACert gives a CA (keyUsage digitalSignature, keyEncipherment
// and keyCertSign, critical; basicConstraints CA:TRUE, critical; the subject
// key identifier; a DNS name equal to the common name).
// Only the certificate leaves this module: nothing in KubeTab signs with the key.

import { bitString, booleanTrue, explicit, objectIdentifier, octetString, pem, sequence, set, smallInteger, time, tlv, unsignedInteger, utf8String, type Bytes } from './der';

const OID = {
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
};

const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

function name(commonName: string): Bytes {
  return sequence(set(sequence(objectIdentifier(OID.commonName), utf8String(commonName))));
}

function extension(oid: string, critical: boolean, value: Bytes): Bytes {
  return critical ? sequence(objectIdentifier(oid), booleanTrue(), octetString(value)) : sequence(objectIdentifier(oid), octetString(value));
}

/** WebCrypto's ECDSA signature is r‖s; X.509 wants SEQUENCE { INTEGER r, INTEGER s }. */
function ecdsaSignatureToDer(raw: Bytes): Bytes {
  const half = raw.length / 2;
  return sequence(unsignedInteger(raw.slice(0, half)), unsignedInteger(raw.slice(half)));
}

/** The subjectPublicKey BIT STRING's content inside a DER SubjectPublicKeyInfo (for the key identifier). */
function publicKeyBits(spki: Bytes): Bytes {
  // SPKI = SEQUENCE { AlgorithmIdentifier, BIT STRING }; for P-256 the key is the last 65 bytes.
  return spki.slice(spki.length - 65);
}

export interface CACertificateOptions {
  readonly commonName?: string;
  /** notBefore, in ms since the epoch (the cluster clock). */
  readonly now: number;
}

export async function createCACertificate(options: CACertificateOptions): Promise<string> {
  const commonName = options.commonName ?? 'kubernetes';
  const keys = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as { privateKey: CryptoKey; publicKey: CryptoKey };
  const spki = new Uint8Array((await crypto.subtle.exportKey('spki', keys.publicKey)) as ArrayBuffer);
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] = serial[0]! & 0x7f;
  const keyId = new Uint8Array(await crypto.subtle.digest('SHA-1', new Uint8Array(publicKeyBits(spki))));
  const algorithm = sequence(objectIdentifier(OID.ecdsaWithSHA256));
  const extensions = sequence(
    // digitalSignature (bit 0), keyEncipherment (bit 2), keyCertSign (bit 5): 10100100, two unused bits.
    extension(OID.keyUsage, true, bitString(Uint8Array.of(0xa4), 2)),
    extension(OID.basicConstraints, true, sequence(booleanTrue())),
    extension(OID.subjectKeyIdentifier, false, octetString(keyId)),
    extension(OID.subjectAltName, false, sequence(tlv(0x82, new TextEncoder().encode(commonName)))),
  );
  const tbs = sequence(
    explicit(0, smallInteger(2)),
    unsignedInteger(serial),
    algorithm,
    name(commonName),
    sequence(time(options.now), time(options.now + TEN_YEARS_MS)),
    name(commonName),
    spki,
    explicit(3, extensions),
  );
  const signature = new Uint8Array((await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, new Uint8Array(tbs))) as ArrayBuffer);
  return pem('CERTIFICATE', sequence(tbs, algorithm, bitString(ecdsaSignatureToDer(signature))));
}

/** True for text holding at least one PEM CERTIFICATE block. */
export function looksLikeCertificate(text: unknown): text is string {
  return typeof text === 'string' && /-----BEGIN CERTIFICATE-----\s+[A-Za-z0-9+/=\s]+-----END CERTIFICATE-----/.test(text);
}

