// What kube's CSR signer puts in a certificate besides the request's subject,
// key and names (certificates/authority PermissiveSigningPolicy): the key
// usages the CSR asked for, not a CA, valid from five minutes ago (clock
// skew) for the requested duration — spec.expirationSeconds, no less than 10
// minutes and no more than --cluster-signing-duration (one year by default)
// — the five minutes taken back off the end unless the certificate is short
// lived (under 8 hours), and never past the signing CA's own expiry.

export const DEFAULT_CLUSTER_SIGNING_DURATION_MS = 365 * 24 * 3600 * 1000;
const MIN_DURATION_MS = 10 * 60 * 1000;
const BACKDATE_MS = 5 * 60 * 1000;
const SHORT_MS = 8 * 3600 * 1000;

/** The key usages of x509.KeyUsage, as bit numbers. */
const KEY_USAGE_BITS: Record<string, number> = {
  signing: 0,
  'digital signature': 0,
  'content commitment': 1,
  'key encipherment': 2,
  'data encipherment': 3,
  'key agreement': 4,
  'cert sign': 5,
  'crl sign': 6,
  'encipher only': 7,
  'decipher only': 8,
};

/** Extended key usages, in x509.ExtKeyUsage's order (the signer sorts them by it). */
const EXT_KEY_USAGES: readonly (readonly [string, string])[] = [
  ['any', '2.5.29.37.0'],
  ['server auth', '1.3.6.1.5.5.7.3.1'],
  ['client auth', '1.3.6.1.5.5.7.3.2'],
  ['code signing', '1.3.6.1.5.5.7.3.3'],
  ['email protection', '1.3.6.1.5.5.7.3.4'],
  ['s/mime', '1.3.6.1.5.5.7.3.4'],
  ['ipsec end system', '1.3.6.1.5.5.7.3.5'],
  ['ipsec tunnel', '1.3.6.1.5.5.7.3.6'],
  ['ipsec user', '1.3.6.1.5.5.7.3.7'],
  ['timestamping', '1.3.6.1.5.5.7.3.8'],
  ['ocsp signing', '1.3.6.1.5.5.7.3.9'],
  ['microsoft sgc', '1.3.6.1.4.1.311.10.3.3'],
  ['netscape sgc', '2.16.840.1.113730.4.1'],
];

export interface KeyUsages {
  /** The x509.KeyUsage bit set (bit n = 1 << n). */
  readonly keyUsage: number;
  /** Extended key usage OIDs, in Go's order, without repeats. */
  readonly extKeyUsages: readonly string[];
}

/** keyUsagesFromStrings. */
export function keyUsagesFromStrings(usages: readonly string[]): KeyUsages {
  let keyUsage = 0;
  const ext = new Set<string>();
  for (const usage of usages) {
    const bit = KEY_USAGE_BITS[usage];
    if (bit !== undefined) {
      keyUsage |= 1 << bit;
      continue;
    }
    const extUsage = EXT_KEY_USAGES.find(([name]) => name === usage);
    if (!extUsage) throw new Error(`unrecognized usage: ${usage}`);
    ext.add(extUsage[1]);
  }
  const order = EXT_KEY_USAGES.map(([, oid]) => oid);
  return { keyUsage, extKeyUsages: [...ext].sort((a, b) => order.indexOf(a) - order.indexOf(b)) };
}

/** The signer's duration: the requested expirationSeconds within [10 min, the signing duration]. */
export function certificateDuration(expirationSeconds: number | undefined, signingDurationMs = DEFAULT_CLUSTER_SIGNING_DURATION_MS): number {
  if (expirationSeconds === undefined) return signingDurationMs;
  const requested = expirationSeconds * 1000;
  if (requested > signingDurationMs) return signingDurationMs;
  if (requested < MIN_DURATION_MS) return MIN_DURATION_MS;
  return requested;
}

export interface Validity {
  readonly notBefore: number;
  readonly notAfter: number;
}

/** PermissiveSigningPolicy.apply's validity; throws when the CA has expired. */
export function validity(now: number, durationMs: number, signerNotAfter: number): Validity {
  const notBefore = now - BACKDATE_MS;
  let notAfter = durationMs < SHORT_MS ? now + durationMs : now + durationMs - BACKDATE_MS;
  if (notAfter >= signerNotAfter) notAfter = signerNotAfter;
  if (notBefore >= signerNotAfter) throw new Error(`the signer has expired: NotAfter=${new Date(signerNotAfter).toISOString()}`);
  if (now >= signerNotAfter) throw new Error(`refusing to sign a certificate that expired in the past: NotAfter=${new Date(signerNotAfter).toISOString()}`);
  return { notBefore, notAfter };
}
