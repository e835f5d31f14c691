// X.509 client-certificate chains verified with WebCrypto, for hosts that do
// not terminate TLS themselves (the browser: the page presents its
// certificate in the header reserved for it, see ./certificate-header.ts).
// The rules are crypto/x509 Verify with KeyUsages [ClientAuth], as kube's
// x509 authenticators call it, and the texts Go's errors have: the leaf valid
// now and allowed client authentication (or no extended key usage), through
// the presented CA intermediates, to one of the roots, each valid now and
// each signature good. Signatures: ECDSA P-256/P-384 and RSA PKCS#1 v1.5
// with SHA-256/384/512.

import { base64ToBytes } from './secret-data';

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  extKeyUsage: '2.5.29.37',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  anyExtendedKeyUsage: '2.5.29.37.0',
  ecPublicKey: '1.2.840.10045.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  p256: '1.2.840.10045.3.1.7',
  p384: '1.3.132.0.34',
};

const SIGNATURES: Record<string, { kind: 'ECDSA' | 'RSA'; hash: string }> = {
  '1.2.840.10045.4.3.2': { kind: 'ECDSA', hash: 'SHA-256' },
  '1.2.840.10045.4.3.3': { kind: 'ECDSA', hash: 'SHA-384' },
  '1.2.840.10045.4.3.4': { kind: 'ECDSA', hash: 'SHA-512' },
  '1.2.840.113549.1.1.11': { kind: 'RSA', hash: 'SHA-256' },
  '1.2.840.113549.1.1.12': { kind: 'RSA', hash: 'SHA-384' },
  '1.2.840.113549.1.1.13': { kind: 'RSA', hash: 'SHA-512' },
};

/** Go's limit on the intermediates walked. */
const MAX_CHAIN = 10;

interface Element {
  readonly tag: number;
  readonly start: number;
  readonly contentStart: number;
  readonly end: number;
}

function element(der: Uint8Array, at: number): Element {
  if (at + 2 > der.length) throw new Error('x509: malformed certificate');
  const tag = der[at]!;
  const first = der[at + 1]!;
  let length = first;
  let header = 2;
  if (first & 0x80) {
    const n = first & 0x7f;
    if (n === 0 || n > 4) throw new Error('x509: malformed certificate');
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + der[at + 2 + i]!;
    header = 2 + n;
  }
  const end = at + header + length;
  if (end > der.length) throw new Error('x509: malformed certificate');
  return { tag, start: at, contentStart: at + header, end };
}

function children(der: Uint8Array, parent: Element): Element[] {
  const out: Element[] = [];
  for (let at = parent.contentStart; at < parent.end; ) {
    const e = element(der, at);
    out.push(e);
    at = e.end;
  }
  return out;
}

function oidText(der: Uint8Array, e: Element): string {
  const bytes = der.subarray(e.contentStart, e.end);
  const parts = [Math.floor(bytes[0]! / 40), bytes[0]! % 40];
  let value = 0;
  for (const b of bytes.subarray(1)) {
    value = value * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

function text(der: Uint8Array, e: Element): string {
  return new TextDecoder().decode(der.subarray(e.contentStart, e.end));
}

/** UTCTime or GeneralizedTime as milliseconds since the epoch. */
function timeOf(der: Uint8Array, e: Element): number {
  const t = text(der, e);
  const full = e.tag === 0x17 ? `${Number(t.slice(0, 2)) >= 50 ? '19' : '20'}${t}` : t;
  return Date.UTC(Number(full.slice(0, 4)), Number(full.slice(4, 6)) - 1, Number(full.slice(6, 8)), Number(full.slice(8, 10)), Number(full.slice(10, 12)), Number(full.slice(12, 14)));
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export interface Certificate {
  readonly raw: Uint8Array;
  readonly tbs: Uint8Array;
  readonly signatureAlgorithm: string;
  readonly signature: Uint8Array;
  readonly serialNumber: bigint;
  readonly issuer: Uint8Array;
  readonly subject: Uint8Array;
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly notBefore: number;
  readonly notAfter: number;
  readonly spki: Uint8Array;
  readonly keyAlgorithm: string;
  readonly curve?: string;
  readonly isCA: boolean;
  /** Extended key usages; undefined when the extension is absent (any usage). */
  readonly extKeyUsage?: readonly string[];
}

export function parseCertificate(raw: Uint8Array): Certificate {
  const cert = element(raw, 0);
  const [tbsEl, algEl, sigEl] = children(raw, cert);
  if (!tbsEl || !algEl || !sigEl) throw new Error('x509: malformed certificate');
  const fields = children(raw, tbsEl);
  let i = fields[0]?.tag === 0xa0 ? 1 : 0;
  const serialEl = fields[i++]!;
  i++; // signature algorithm inside tbs
  const issuerEl = fields[i++]!;
  const validityEl = fields[i++]!;
  const subjectEl = fields[i++]!;
  const spkiEl = fields[i++]!;
  const [nb, na] = children(raw, validityEl);
  let serial = 0n;
  for (const b of raw.subarray(serialEl.contentStart, serialEl.end)) serial = serial * 256n + BigInt(b);

  let commonName = '';
  const organizations: string[] = [];
  for (const rdn of children(raw, subjectEl)) {
    for (const atv of children(raw, rdn)) {
      const [type, value] = children(raw, atv);
      if (!type || !value) continue;
      const oid = oidText(raw, type);
      if (oid === OID.commonName) commonName = text(raw, value);
      else if (oid === OID.organization) organizations.push(text(raw, value));
    }
  }
  const [keyAlgEl] = children(raw, spkiEl);
  const keyAlgParts = children(raw, keyAlgEl!);
  const keyAlgorithm = oidText(raw, keyAlgParts[0]!);
  const curve = keyAlgParts[1]?.tag === 0x06 ? oidText(raw, keyAlgParts[1]) : undefined;

  let isCA = false;
  let extKeyUsage: string[] | undefined;
  const extensions = fields.find((f) => f.tag === 0xa3);
  if (extensions) {
    const [list] = children(raw, extensions);
    for (const ext of children(raw, list!)) {
      const parts = children(raw, ext);
      const oid = oidText(raw, parts[0]!);
      const value = parts[parts.length - 1]!;
      const inner = element(raw, value.contentStart);
      if (oid === OID.basicConstraints) {
        const first = children(raw, inner)[0];
        isCA = first?.tag === 0x01 && raw[first.contentStart] !== 0;
      } else if (oid === OID.extKeyUsage) {
        extKeyUsage = children(raw, inner).map((u) => oidText(raw, u));
      }
    }
  }
  return {
    raw,
    tbs: raw.slice(tbsEl.start, tbsEl.end),
    signatureAlgorithm: oidText(raw, children(raw, algEl)[0]!),
    // BIT STRING: the first content byte counts unused bits.
    signature: raw.slice(sigEl.contentStart + 1, sigEl.end),
    serialNumber: serial,
    issuer: raw.slice(issuerEl.start, issuerEl.end),
    subject: raw.slice(subjectEl.start, subjectEl.end),
    commonName,
    organizations,
    notBefore: timeOf(raw, nb!),
    notAfter: timeOf(raw, na!),
    spki: raw.slice(spkiEl.start, spkiEl.end),
    keyAlgorithm,
    ...(curve ? { curve } : {}),
    isCA,
    ...(extKeyUsage ? { extKeyUsage } : {}),
  };
}

/** The CERTIFICATE blocks of a PEM bundle, parsed. */
export function parsePemCertificates(pem: string): Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => parseCertificate(base64ToBytes(b.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''))));
}

/** An ECDSA signature as X.509 writes it (DER SEQUENCE of r, s) → WebCrypto's r‖s. */
function ecdsaRaw(der: Uint8Array, size: number): Uint8Array {
  const seq = element(der, 0);
  const [r, s] = children(der, seq);
  const out = new Uint8Array(size * 2);
  const put = (e: Element, at: number) => {
    let bytes = der.subarray(e.contentStart, e.end);
    while (bytes.length > size && bytes[0] === 0) bytes = bytes.subarray(1);
    out.set(bytes, at + size - bytes.length);
  };
  put(r!, 0);
  put(s!, size);
  return out;
}

/** WebCrypto's BufferSource (the DOM typings want an ArrayBuffer-backed view). */
const bytes = (b: Uint8Array): Uint8Array<ArrayBuffer> => b as Uint8Array<ArrayBuffer>;

async function signedBy(child: Certificate, parent: Certificate): Promise<boolean> {
  if (!equalBytes(child.issuer, parent.subject)) return false;
  const alg = SIGNATURES[child.signatureAlgorithm];
  if (!alg) return false;
  try {
    if (alg.kind === 'ECDSA') {
      if (parent.keyAlgorithm !== OID.ecPublicKey) return false;
      const namedCurve = parent.curve === OID.p384 ? 'P-384' : parent.curve === OID.p256 ? 'P-256' : undefined;
      if (!namedCurve) return false;
      const key = await crypto.subtle.importKey('spki', bytes(parent.spki), { name: 'ECDSA', namedCurve }, false, ['verify']);
      return await crypto.subtle.verify({ name: 'ECDSA', hash: alg.hash }, key, bytes(ecdsaRaw(child.signature, namedCurve === 'P-384' ? 48 : 32)), bytes(child.tbs));
    }
    if (parent.keyAlgorithm !== OID.rsaEncryption) return false;
    const key = await crypto.subtle.importKey('spki', bytes(parent.spki), { name: 'RSASSA-PKCS1-v1_5', hash: alg.hash }, false, ['verify']);
    return await crypto.subtle.verify({ name: 'RSASSA-PKCS1-v1_5' }, key, bytes(child.signature), bytes(child.tbs));
  } catch {
    return false;
  }
}

/** Go's RFC 3339 time in its error texts. */
function goTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function validityError(cert: Certificate, now: number): string | undefined {
  if (now < cert.notBefore) return `x509: certificate has expired or is not yet valid: current time ${goTime(now)} is before ${goTime(cert.notBefore)}`;
  if (now > cert.notAfter) return `x509: certificate has expired or is not yet valid: current time ${goTime(now)} is after ${goTime(cert.notAfter)}`;
  return undefined;
}

/** Verifies a presented chain (leaf first) for client authentication; Go's error text, or undefined. */
export async function verifyClientCertificateChain(chain: readonly Certificate[], roots: readonly Certificate[], now: number): Promise<string | undefined> {
  const leaf = chain[0];
  if (!leaf) return 'x509: no certificate presented';
  const leafError = validityError(leaf, now);
  if (leafError) return leafError;
  const eku = leaf.extKeyUsage;
  if (eku && !eku.includes(OID.clientAuth) && !eku.includes(OID.anyExtendedKeyUsage)) return 'x509: certificate specifies an incompatible key usage';
  if (roots.some((r) => equalBytes(r.raw, leaf.raw))) return undefined;
  const intermediates = chain.slice(1).filter((c) => c.isCA);
  let current = leaf;
  for (let depth = 0; depth <= MAX_CHAIN; depth++) {
    for (const root of roots) if (await signedBy(current, root)) return validityError(root, now);
    let next: Certificate | undefined;
    for (const i of intermediates) {
      if (i !== current && (await signedBy(current, i))) {
        next = i;
        break;
      }
    }
    if (!next) break;
    const error = validityError(next, now);
    if (error) return error;
    current = next;
  }
  return 'x509: certificate signed by unknown authority';
}
