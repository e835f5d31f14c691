// The signer's policy on its own: usages to X.509 bits and OIDs, the
// duration it grants, the validity window, and Go's key-usage encoding.

import { describe, expect, it } from 'vitest';
import { certificateDuration, keyUsagesFromStrings, validity } from './signing-policy';
import { keyUsageBitString } from './issue-certificate';
import { decodeOid } from './der-reader';
import { objectIdentifier } from '../root-ca/der';

const YEAR = 365 * 24 * 3600_000;

describe('signing policy', () => {
  it('maps usages to key usage bits and extended key usages in Go order', () => {
    expect(keyUsagesFromStrings(['client auth', 'digital signature', 'key encipherment', 'server auth'])).toEqual({
      keyUsage: 0b101,
      extKeyUsages: ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2'],
    });
    expect(keyUsagesFromStrings(['signing', 'digital signature']).keyUsage).toBe(1);
    expect(() => keyUsagesFromStrings(['flying'])).toThrow('unrecognized usage: flying');
  });

  it('grants the requested duration between ten minutes and --cluster-signing-duration', () => {
    expect(certificateDuration(undefined)).toBe(YEAR);
    expect(certificateDuration(60)).toBe(600_000);
    expect(certificateDuration(7200)).toBe(7_200_000);
    expect(certificateDuration(10 * 365 * 24 * 3600)).toBe(YEAR);
    expect(certificateDuration(7200, 3600_000)).toBe(3600_000);
  });

  it('backdates five minutes, and the end too unless short-lived; never past the CA', () => {
    const now = Date.UTC(2024, 11, 11, 12);
    expect(validity(now, YEAR, now + 10 * YEAR)).toEqual({ notBefore: now - 300_000, notAfter: now + YEAR - 300_000 });
    expect(validity(now, 3600_000, now + YEAR)).toEqual({ notBefore: now - 300_000, notAfter: now + 3600_000 });
    expect(validity(now, YEAR, now + 1000).notAfter).toBe(now + 1000);
    expect(() => validity(now, YEAR, now - 1000)).toThrow(/expired/);
  });

  it('encodes key usage as Go does (reversed bits, trailing zeros unused)', () => {
    expect(Array.from(keyUsageBitString(0b101))).toEqual([0x03, 0x02, 0x05, 0xa0]);
    expect(Array.from(keyUsageBitString(1))).toEqual([0x03, 0x02, 0x07, 0x80]);
    expect(Array.from(keyUsageBitString(1 << 8))).toEqual([0x03, 0x03, 0x07, 0x00, 0x80]);
  });

  it('reads object identifiers back', () => {
    for (const oid of ['1.2.840.10045.4.3.2', '2.5.29.37.0', '1.3.6.1.4.1.311.10.3.3', '2.16.840.1.113730.4.1']) {
      expect(decodeOid(objectIdentifier(oid).slice(2))).toBe(oid);
    }
  });
});
