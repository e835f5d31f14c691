// DER encoding facts (X.690) the CA certificate relies on.

import { describe, expect, it } from 'vitest';
import { bitString, objectIdentifier, pem, time, unsignedInteger } from './der';

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');

describe('DER', () => {
  it.each([
    ['1.2.840.10045.4.3.2', '06 08 2a 86 48 ce 3d 04 03 02'],
    ['2.5.4.3', '06 03 55 04 03'],
    ['2.5.29.19', '06 03 55 1d 13'],
  ])('OID %s', (oid, expected) => expect(hex(objectIdentifier(oid))).toBe(expected));

  it.each([
    [[0x00, 0x00, 0x05], '02 01 05'],
    [[0x80], '02 02 00 80'],
    [[0x00], '02 01 00'],
  ])('unsigned INTEGER %j', (bytes, expected) => expect(hex(unsignedInteger(Uint8Array.from(bytes)))).toBe(expected));

  it('keyUsage digitalSignature|keyEncipherment|keyCertSign is BIT STRING 03 02 02 a4', () => {
    expect(hex(bitString(Uint8Array.of(0xa4), 2))).toBe('03 02 02 a4');
  });

  it('UTCTime before 2050, GeneralizedTime from 2050', () => {
    expect(new TextDecoder().decode(time(Date.UTC(2024, 11, 11, 12, 0, 0)).slice(2))).toBe('241211120000Z');
    expect(time(Date.UTC(2024, 0, 1))[0]).toBe(0x17);
    expect(new TextDecoder().decode(time(Date.UTC(2051, 0, 2, 3, 4, 5)).slice(2))).toBe('20510102030405Z');
    expect(time(Date.UTC(2051, 0, 1))[0]).toBe(0x18);
  });

  it('long lengths use the long form', () => {
    const big = bitString(new Uint8Array(300));
    expect(hex(big.slice(0, 4))).toBe('03 82 01 2d');
  });

  it('PEM wraps base64 at 64 columns', () => {
    const text = pem('CERTIFICATE', new Uint8Array(100));
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('-----BEGIN CERTIFICATE-----');
    expect(lines[1]).toHaveLength(64);
    expect(lines.at(-1)).toBe('-----END CERTIFICATE-----');
  });
});
