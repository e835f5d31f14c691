// Audit IDs: random (version 4) UUIDs, as kube-apiserver gives every request.
// crypto.randomUUID costs a few microseconds per call on some hosts; the
// request path takes its randomness from a pool refilled 256 IDs at a time.

const POOL_IDS = 256;
let pool = new Uint8Array(0);
let at = 0;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function newAuditId(): string {
  if (at >= pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(16 * POOL_IDS));
    at = 0;
  }
  const b = pool.subarray(at, at + 16);
  at += 16;
  const h = (i: number): string => HEX[b[i]!]!;
  // Version 4, variant 10xx (RFC 4122).
  const v = HEX[(b[6]! & 0x0f) | 0x40]!;
  const r = HEX[(b[8]! & 0x3f) | 0x80]!;
  return `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${v}${h(7)}-${r}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`;
}
