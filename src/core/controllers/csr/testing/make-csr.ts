// Builds PKCS#10 certificate requests for the CSR controllers' tests, as
// `openssl req` or client-go's certificate manager would: an ECDSA P-256 key,
// a subject of organizations and a common name, optional DNS/IP
// subjectAltNames in an extension request, signed with SHA-256.

import { bitString, objectIdentifier, octetString, pem, sequence, set, smallInteger, tlv, unsignedInteger, utf8String } from '../../root-ca/der';

export interface TestCSR {
  /** The PEM request, base64-encoded as spec.request takes it. */
  readonly request: string;
  readonly pem: string;
  /** The private key, PEM PKCS#8. */
  readonly keyPem: string;
}

export async function makeCSR(subject: { commonName: string; organizations?: string[] }, names: { dns?: string[]; ips?: number[][] } = {}): Promise<TestCSR> {
  const keys = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const spki = new Uint8Array(await crypto.subtle.exportKey('spki', keys.publicKey));
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', keys.privateKey));
  const rdn = (oid: string, value: string) => set(sequence(objectIdentifier(oid), utf8String(value)));
  const name = sequence(...(subject.organizations ?? []).map((o) => rdn('2.5.4.10', o)), rdn('2.5.4.3', subject.commonName));
  const altNames = [...(names.dns ?? []).map((d) => tlv(0x82, new TextEncoder().encode(d))), ...(names.ips ?? []).map((ip) => tlv(0x87, Uint8Array.from(ip)))];
  const attributes = altNames.length
    ? tlv(0xa0, sequence(objectIdentifier('1.2.840.113549.1.9.14'), set(sequence(sequence(objectIdentifier('2.5.29.17'), octetString(sequence(...altNames)))))))
    : tlv(0xa0);
  const info = sequence(smallInteger(0), name, spki, attributes);
  const raw = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, new Uint8Array(info)));
  const signature = sequence(unsignedInteger(raw.slice(0, 32)), unsignedInteger(raw.slice(32)));
  const der = sequence(info, sequence(objectIdentifier('1.2.840.10045.4.3.2')), bitString(signature));
  const pemText = pem('CERTIFICATE REQUEST', der);
  return { request: btoa(pemText), pem: pemText, keyPem: pem('PRIVATE KEY', pkcs8) };
}
