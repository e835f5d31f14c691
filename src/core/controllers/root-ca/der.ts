// The few DER (ASN.1 Distinguished Encoding Rules) encoders an X.509
// certificate needs: tag-length-value with definite lengths.

export type Bytes = Uint8Array;

export function concat(...parts: Bytes[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function length(n: number): Bytes {
  if (n < 0x80) return Uint8Array.of(n);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

export function tlv(tag: number, ...content: Bytes[]): Bytes {
  const body = concat(...content);
  return concat(Uint8Array.of(tag), length(body.length), body);
}

export const sequence = (...items: Bytes[]): Bytes => tlv(0x30, ...items);
export const set = (...items: Bytes[]): Bytes => tlv(0x31, ...items);
export const explicit = (n: number, inner: Bytes): Bytes => tlv(0xa0 + n, inner);
export const octetString = (b: Bytes): Bytes => tlv(0x04, b);
export const utf8String = (s: string): Bytes => tlv(0x0c, new TextEncoder().encode(s));
export const booleanTrue = (): Bytes => Uint8Array.of(0x01, 0x01, 0xff);

/** A non-negative INTEGER from big-endian magnitude bytes (leading zeros stripped, a 0x00 added when the top bit is set). */
export function unsignedInteger(magnitude: Bytes): Bytes {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.slice(start);
  return tlv(0x02, trimmed[0]! & 0x80 ? concat(Uint8Array.of(0), trimmed) : trimmed);
}

export const smallInteger = (n: number): Bytes => unsignedInteger(Uint8Array.of(n));

export function bitString(bytes: Bytes, unusedBits = 0): Bytes {
  return tlv(0x03, Uint8Array.of(unusedBits), bytes);
}

export function objectIdentifier(oid: string): Bytes {
  const parts = oid.split('.').map(Number);
  const out: number[] = [parts[0]! * 40 + parts[1]!];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Uint8Array.from(out));
}

/** UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5). */
export function time(ms: number): Bytes {
  const iso = new Date(ms).toISOString(); // 2024-12-11T12:00:00.000Z
  const year = Number(iso.slice(0, 4));
  const rest = iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16) + iso.slice(17, 19) + 'Z';
  const enc = new TextEncoder();
  return year < 2050 ? tlv(0x17, enc.encode(iso.slice(2, 4) + rest)) : tlv(0x18, enc.encode(iso.slice(0, 4) + rest));
}

export function base64(bytes: Bytes): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export function pem(label: string, der: Bytes): string {
  const lines = base64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
