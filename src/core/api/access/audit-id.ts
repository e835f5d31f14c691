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
  const b = pool;
  const i = at;
  at += 16;
  // Version 4, variant 10xx (RFC 4122).
  return (
    HEX[b[i]!]! + HEX[b[i + 1]!]! + HEX[b[i + 2]!]! + HEX[b[i + 3]!]! + '-' +
    HEX[b[i + 4]!]! + HEX[b[i + 5]!]! + '-' +
    HEX[(b[i + 6]! & 0x0f) | 0x40]! + HEX[b[i + 7]!]! + '-' +
    HEX[(b[i + 8]! & 0x3f) | 0x80]! + HEX[b[i + 9]!]! + '-' +
    HEX[b[i + 10]!]! + HEX[b[i + 11]!]! + HEX[b[i + 12]!]! + HEX[b[i + 13]!]! + HEX[b[i + 14]!]! + HEX[b[i + 15]!]!
  );
}
