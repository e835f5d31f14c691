// Issues an X.509 certificate for a certificate request, as kube's CSR
// signer (certificates/authority CertificateAuthority.Sign through Go's
// x509.CreateCertificate): a random 128-bit serial, the CA as issuer, the
// request's subject, public key and subjectAltNames (DNS, email, IP, URI),
// and the signing policy's key usages, validity and basic constraints (not a
// CA), with the CA's key identifier as authority key identifier. Extensions
// are written in Go's order. Returns the PEM text.

import { bitString, booleanTrue, explicit, objectIdentifier, octetString, pem, sequence, smallInteger, time, unsignedInteger, type Bytes } from '../root-ca/der';
import type { CertificateRequest } from './certificate-request';
import { implicitPrimitive } from './der-writer';
import type { SigningCA } from './signing-ca';
import type { KeyUsages, Validity } from './signing-policy';

const OID = {
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  subjectAltName: '2.5.29.17',
};

function extension(oid: string, critical: boolean, value: Bytes): Bytes {
  return critical ? sequence(objectIdentifier(oid), booleanTrue(), octetString(value)) : sequence(objectIdentifier(oid), octetString(value));
}

/** Go's marshalKeyUsage: the bits reversed into bytes, trailing zero bits not counted. */
export function keyUsageBitString(keyUsage: number): Bytes {
  const reverse = (b: number) => {
    let r = 0;
    for (let i = 0; i < 8; i++) if (b & (1 << i)) r |= 1 << (7 - i);
    return r;
  };
  const bytes = [reverse(keyUsage & 0xff), reverse((keyUsage >> 8) & 0xff)];
  const used = bytes[1] ? bytes : bytes.slice(0, 1);
  const last = used[used.length - 1]!;
  let unused = 0;
  while (unused < 8 && !(last & (1 << unused))) unused++;
  return bitString(Uint8Array.from(used), unused === 8 ? 0 : unused);
}

function ecdsaSignatureToDer(rawSignature: Uint8Array): Bytes {
  const half = rawSignature.length / 2;
  return sequence(unsignedInteger(rawSignature.slice(0, half)), unsignedInteger(rawSignature.slice(half)));
}

export interface IssueRequest {
  readonly request: CertificateRequest;
  readonly ca: SigningCA;
  readonly usages: KeyUsages;
  readonly validity: Validity;
}

export async function issueCertificate({ request, ca, usages, validity }: IssueRequest): Promise<string> {
  const serial = crypto.getRandomValues(new Uint8Array(16));
  const extensions: Bytes[] = [];
  if (usages.keyUsage) extensions.push(extension(OID.keyUsage, true, keyUsageBitString(usages.keyUsage)));
  if (usages.extKeyUsages.length) extensions.push(extension(OID.extKeyUsage, false, sequence(...usages.extKeyUsages.map((o) => objectIdentifier(o)))));
  extensions.push(extension(OID.basicConstraints, true, sequence()));
  if (ca.subjectKeyId) extensions.push(extension(OID.authorityKeyIdentifier, false, sequence(implicitPrimitive(0, ca.subjectKeyId))));
  const encoder = new TextEncoder();
  const names: Bytes[] = [
    ...request.dnsNames.map((n) => implicitPrimitive(2, encoder.encode(n))),
    ...request.emailAddresses.map((n) => implicitPrimitive(1, encoder.encode(n))),
    ...request.ipAddresses.map((ip) => implicitPrimitive(7, ip)),
    ...request.uris.map((n) => implicitPrimitive(6, encoder.encode(n))),
  ];
  if (names.length) extensions.push(extension(OID.subjectAltName, false, sequence(...names)));
  const tbs = sequence(
    explicit(0, smallInteger(2)),
    unsignedInteger(serial),
    ca.algorithmDer,
    ca.subjectDer,
    sequence(time(validity.notBefore), time(validity.notAfter)),
    request.subjectDer,
    request.publicKeyDer,
    explicit(3, sequence(...extensions)),
  );
  const signature = new Uint8Array(await crypto.subtle.sign(ca.signParams, ca.key, new Uint8Array(tbs)));
  const signatureValue = ca.ecdsaSize ? ecdsaSignatureToDer(signature) : signature;
  return pem('CERTIFICATE', sequence(tbs, ca.algorithmDer, bitString(signatureValue)));
}
