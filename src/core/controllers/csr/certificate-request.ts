// A PKCS#10 certificate request as kube's CSR signer reads it
// (x509.ParseCertificateRequest + CheckSignature): the subject (kept as DER
// for the certificate, with its common name and organizations read out), the
// public key (kept as DER: the certificate carries it unchanged), the
// subjectAltNames of its extension request, and a check of its
// self-signature with WebCrypto (ECDSA, RSA PKCS#1 v1.5, Ed25519).

import { childrenOf, content, oidOf, pemBlocks, raw, readElement, textOf, type Element } from './der-reader';

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  extensionRequest: '1.2.840.113549.1.9.14',
  subjectAltName: '2.5.29.17',
  ecPublicKey: '1.2.840.10045.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ed25519: '1.3.101.112',
};

const CURVES: Record<string, { name: string; size: number }> = {
  '1.2.840.10045.3.1.7': { name: 'P-256', size: 32 },
  '1.3.132.0.34': { name: 'P-384', size: 48 },
  '1.3.132.0.35': { name: 'P-521', size: 66 },
};

const SIGNATURE_ALGORITHMS: Record<string, { family: 'ecdsa' | 'rsa' | 'ed25519'; hash?: string; name: string }> = {
  '1.2.840.10045.4.3.2': { family: 'ecdsa', hash: 'SHA-256', name: 'ECDSA-SHA256' },
  '1.2.840.10045.4.3.3': { family: 'ecdsa', hash: 'SHA-384', name: 'ECDSA-SHA384' },
  '1.2.840.10045.4.3.4': { family: 'ecdsa', hash: 'SHA-512', name: 'ECDSA-SHA512' },
  '1.2.840.113549.1.1.11': { family: 'rsa', hash: 'SHA-256', name: 'SHA256-RSA' },
  '1.2.840.113549.1.1.12': { family: 'rsa', hash: 'SHA-384', name: 'SHA384-RSA' },
  '1.2.840.113549.1.1.13': { family: 'rsa', hash: 'SHA-512', name: 'SHA512-RSA' },
  '1.3.101.112': { family: 'ed25519', name: 'Ed25519' },
};

export interface CertificateRequest {
  /** The subject Name, as DER. */
  readonly subjectDer: Uint8Array;
  readonly commonName: string;
  readonly organizations: readonly string[];
  /** The SubjectPublicKeyInfo, as DER. */
  readonly publicKeyDer: Uint8Array;
  readonly dnsNames: readonly string[];
  readonly emailAddresses: readonly string[];
  /** IP addresses as their raw 4 or 16 bytes. */
  readonly ipAddresses: readonly Uint8Array[];
  readonly uris: readonly string[];
  /** What the signature covers, the algorithm and the signature. */
  readonly signedDer: Uint8Array;
  readonly signatureAlgorithm: string;
  readonly signature: Uint8Array;
}

function nameAttributes(der: Uint8Array, name: Element): { oid: string; value: string }[] {
  const out: { oid: string; value: string }[] = [];
  for (const rdn of childrenOf(der, name)) {
    for (const atv of childrenOf(der, rdn)) {
      const [oid, value] = childrenOf(der, atv);
      if (oid && value) out.push({ oid: oidOf(der, oid), value: textOf(der, value) });
    }
  }
  return out;
}

function subjectAltNames(der: Uint8Array, attributes: Element | undefined) {
  const names = { dnsNames: [] as string[], emailAddresses: [] as string[], ipAddresses: [] as Uint8Array[], uris: [] as string[] };
  if (!attributes) return names;
  for (const attribute of childrenOf(der, attributes)) {
    const [oid, values] = childrenOf(der, attribute);
    if (!oid || !values || oidOf(der, oid) !== OID.extensionRequest) continue;
    for (const extensions of childrenOf(der, values)) {
      for (const extension of childrenOf(der, extensions)) {
        const parts = childrenOf(der, extension);
        if (!parts[0] || oidOf(der, parts[0]) !== OID.subjectAltName) continue;
        const octets = parts[parts.length - 1]!;
        const inner = content(der, octets);
        const general = readElement(inner, 0);
        for (const n of childrenOf(inner, general)) {
          const value = content(inner, n);
          if (n.tag === 0x82) names.dnsNames.push(new TextDecoder().decode(value));
          else if (n.tag === 0x81) names.emailAddresses.push(new TextDecoder().decode(value));
          else if (n.tag === 0x87) names.ipAddresses.push(value);
          else if (n.tag === 0x86) names.uris.push(new TextDecoder().decode(value));
        }
      }
    }
  }
  return names;
}

/** Parses the DER of a PKCS#10 request; throws on what x509.ParseCertificateRequest would refuse. */
export function parseCertificateRequest(der: Uint8Array): CertificateRequest {
  const root = readElement(der, 0);
  const [info, algorithm, signature] = childrenOf(der, root);
  if (!info || !algorithm || !signature || signature.tag !== 0x03) throw new Error('x509: malformed certificate request');
  const fields = childrenOf(der, info);
  const [, subject, spki] = fields;
  if (!subject || !spki) throw new Error('x509: malformed certificate request');
  const attributes = fields.find((f) => f.tag === 0xa0);
  const subjectAttributes = nameAttributes(der, subject);
  const algorithmOid = childrenOf(der, algorithm)[0];
  if (!algorithmOid) throw new Error('x509: malformed signature algorithm');
  const signatureBits = content(der, signature);
  return {
    subjectDer: raw(der, subject),
    commonName: subjectAttributes.filter((a) => a.oid === OID.commonName).pop()?.value ?? '',
    organizations: subjectAttributes.filter((a) => a.oid === OID.organization).map((a) => a.value),
    publicKeyDer: raw(der, spki),
    ...subjectAltNames(der, attributes),
    signedDer: raw(der, info),
    signatureAlgorithm: oidOf(der, algorithmOid),
    // The first byte of a BIT STRING's content counts its unused bits.
    signature: signatureBits.slice(1),
  };
}

/** The DER of the first CERTIFICATE REQUEST block of a PEM text (capihelper.ParseCSR). */
export function certificateRequestFromPem(pem: string): CertificateRequest {
  const [der] = pemBlocks(pem, 'CERTIFICATE REQUEST');
  if (!der) throw new Error('PEM block type must be CERTIFICATE REQUEST');
  return parseCertificateRequest(der);
}

/** An ECDSA DER signature (SEQUENCE of two INTEGERs) as WebCrypto's r‖s. */
function ecdsaRaw(signature: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const seq = readElement(signature, 0);
  const [r, s] = childrenOf(signature, seq);
  if (!r || !s) throw new Error('x509: ECDSA verification failure');
  const out = new Uint8Array(size * 2);
  const put = (bytes: Uint8Array, offset: number) => {
    let trimmed = bytes;
    while (trimmed.length > size && trimmed[0] === 0) trimmed = trimmed.slice(1);
    if (trimmed.length > size) throw new Error('x509: ECDSA verification failure');
    out.set(trimmed, offset + size - trimmed.length);
  };
  put(content(signature, r), 0);
  put(content(signature, s), size);
  return out;
}

const buffer = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

/** CheckSignature: the request is signed by the key it carries. Throws Go's error text when not. */
export async function checkSignature(request: CertificateRequest): Promise<void> {
  const algorithm = SIGNATURE_ALGORITHMS[request.signatureAlgorithm];
  if (!algorithm) throw new Error('x509: cannot verify signature: algorithm unimplemented');
  const spki = readElement(request.publicKeyDer, 0);
  const [keyAlgorithm] = childrenOf(request.publicKeyDer, spki);
  const [keyOid, params] = keyAlgorithm ? childrenOf(request.publicKeyDer, keyAlgorithm) : [];
  const keyType = keyOid ? oidOf(request.publicKeyDer, keyOid) : '';
  const subtle = crypto.subtle;
  let ok: boolean;
  if (algorithm.family === 'ecdsa') {
    const curve = keyType === OID.ecPublicKey && params ? CURVES[oidOf(request.publicKeyDer, params)] : undefined;
    if (!curve) throw new Error(`x509: signature algorithm specifies an ECDSA public key, but have public key of type ${keyType === OID.rsaEncryption ? '*rsa.PublicKey' : 'unknown'}`);
    const key = await subtle.importKey('spki', buffer(request.publicKeyDer), { name: 'ECDSA', namedCurve: curve.name }, false, ['verify']);
    ok = await subtle.verify({ name: 'ECDSA', hash: algorithm.hash! }, key, ecdsaRaw(request.signature, curve.size), buffer(request.signedDer));
    if (!ok) throw new Error('x509: ECDSA verification failure');
  } else if (algorithm.family === 'rsa') {
    if (keyType !== OID.rsaEncryption) throw new Error('x509: signature algorithm specifies an RSA public key, but have public key of type *ecdsa.PublicKey');
    const key = await subtle.importKey('spki', buffer(request.publicKeyDer), { name: 'RSASSA-PKCS1-v1_5', hash: algorithm.hash! }, false, ['verify']);
    ok = await subtle.verify('RSASSA-PKCS1-v1_5', key, buffer(request.signature), buffer(request.signedDer));
    if (!ok) throw new Error('crypto/rsa: verification error');
  } else {
    if (keyType !== OID.ed25519) throw new Error('x509: signature algorithm specifies an Ed25519 public key, but have public key of another type');
    const key = await subtle.importKey('spki', buffer(request.publicKeyDer), { name: 'Ed25519' }, false, ['verify']);
    ok = await subtle.verify('Ed25519', key, buffer(request.signature), buffer(request.signedDer));
    if (!ok) throw new Error('x509: Ed25519 verification failure');
  }
}
