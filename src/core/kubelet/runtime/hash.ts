// Deterministic identifiers for the simulated runtime: container IDs,
// sandbox IDs and image digests are 64 hex digits as containerd's are, but
// derived from what they name (a pod's uid, a container's name and attempt,
// an image's reference) so that a replayed cluster shows the same IDs. Not
// a cryptographic hash: nothing here is secret or checked.

/** 32-bit FNV-1a of a string. */
function fnv1a(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** `length` hex digits derived from `text` (eight lanes of FNV-1a, each seeded differently). */
export function hexDigest(text: string, length = 64): string {
  let out = '';
  for (let lane = 0; out.length < length; lane++) out += fnv1a(text, Math.imul(lane + 1, 0x9e3779b1)).toString(16).padStart(8, '0');
  return out.slice(0, length);
}

/** A number in [0, 1) derived from `text`, for deterministic jitter (pull times, sizes). */
export function unitFraction(text: string): number {
  return fnv1a(text, 0x5bd1e995) / 0x1_0000_0000;
}
