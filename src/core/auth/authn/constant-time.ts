// Constant-time comparison for secrets (subtle.ConstantTimeCompare): the time
// taken does not depend on where two equal-length values first differ.

const encoder = new TextEncoder();

export function constantTimeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const x = typeof a === 'string' ? encoder.encode(a) : a;
  const y = typeof b === 'string' ? encoder.encode(b) : b;
  // Like Go, a length difference returns at once: lengths are not secret.
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}
