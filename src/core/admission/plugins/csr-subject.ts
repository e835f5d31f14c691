// Just enough DER to read the subject organizations (O, 2.5.4.10) of a
// PKCS#10 certificate request, for CertificateSubjectRestriction.

interface Tlv {
  tag: number;
  start: number;
  end: number;
}

function readTlv(der: Uint8Array, at: number): Tlv {
  const tag = der[at]!;
  let len = der[at + 1]!;
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new Error('unsupported length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[start + i]!;
    start += n;
  }
  if (start + len > der.length) throw new Error('truncated');
  return { tag, start, end: start + len };
}

function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.start; at < parent.end; ) {
    const t = readTlv(der, at);
    out.push(t);
    at = t.end;
  }
  return out;
}

const ORGANIZATION_OID = Uint8Array.of(0x55, 0x04, 0x0a);

/** The PEM-encoded CSR's DER bytes; throws kube's complaint when there is no CERTIFICATE REQUEST block. */
export function csrDer(pemText: string): Uint8Array {
  const m = /-----BEGIN (NEW )?CERTIFICATE REQUEST-----([\s\S]*?)-----END (NEW )?CERTIFICATE REQUEST-----/.exec(pemText);
  if (!m) throw new Error('PEM block type must be CERTIFICATE REQUEST');
  const binary = atob(m[2]!.replace(/\s+/g, ''));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export function subjectOrganizations(der: Uint8Array): string[] {
  const root = readTlv(der, 0);
  const info = children(der, root)[0];
  if (!info) throw new Error('malformed certificate request');
  const subject = children(der, info)[1];
  if (!subject) throw new Error('malformed certificate request');
  const orgs: string[] = [];
  for (const rdn of children(der, subject)) {
    for (const atv of children(der, rdn)) {
      const [oid, value] = children(der, atv);
      if (!oid || !value) continue;
      const bytes = der.subarray(oid.start, oid.end);
      if (bytes.length === 3 && bytes.every((b, i) => b === ORGANIZATION_OID[i])) {
        orgs.push(new TextDecoder().decode(der.subarray(value.start, value.end)));
      }
    }
  }
  return orgs;
}
