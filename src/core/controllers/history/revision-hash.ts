// The hashes kube-controller-manager names revisions with. A StatefulSet's
// ControllerRevision is named `<set>-<hash>` where the hash is FNV-1 (32 bit)
// of the revision's data bytes followed by the collision count in decimal
// (history.HashControllerRevision); a DaemonSet's revision and its pods'
// controller-revision-hash label come from an FNV-1a hash of the pod template
// with the collision count (controller.ComputeHash). Both are printed in
// decimal and passed through rand.SafeEncodeString, which maps every
// character onto an alphabet without vowels (so no words appear in names).

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** FNV-1, 32 bit (Go's hash/fnv New32): multiply, then xor. */
export function fnv1(bytes: Uint8Array, seed = FNV_OFFSET): number {
  let h = seed >>> 0;
  for (const b of bytes) h = (Math.imul(h, FNV_PRIME) ^ b) >>> 0;
  return h;
}

/** FNV-1a, 32 bit (Go's hash/fnv New32a): xor, then multiply. */
export function fnv1a(bytes: Uint8Array, seed = FNV_OFFSET): number {
  let h = seed >>> 0;
  for (const b of bytes) h = Math.imul(h ^ b, FNV_PRIME) >>> 0;
  return h;
}

/** k8s.io/apimachinery/pkg/util/rand's alphanums: no vowels, no 0, 1, 3 (they look like letters). */
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** rand.SafeEncodeString: each character replaced by the alphabet letter at its code modulo 27. */
export function safeEncodeString(text: string): string {
  let out = '';
  for (const b of utf8(text)) out += SAFE_ALPHABET[b % SAFE_ALPHABET.length];
  return out;
}

/** history.HashControllerRevision over a revision's raw data, with the probe (collision count) if any. */
export function hashControllerRevision(rawData: string, probe: number | undefined): string {
  let h = fnv1(utf8(rawData));
  if (probe !== undefined) h = fnv1(utf8(String(probe)), h);
  return safeEncodeString(String(h));
}

/**
 * controller.ComputeHash of a pod template. kube hashes Go's printed form of
 * the struct; KubeTab hashes the template's Go-ordered JSON instead (so the
 * values differ from kube's, their shape and stability do not), then the
 * collision count as 8 little-endian bytes, as kube appends it.
 */
export function computeTemplateHash(templateJson: string, collisionCount: number | undefined): string {
  let h = fnv1a(utf8(templateJson));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv1a(bytes, h);
  }
  return safeEncodeString(String(h));
}

/** history.ControllerRevisionName: `<prefix>-<hash>`, the prefix cut to 223 characters so the name fits 253. */
export function controllerRevisionName(prefix: string, hash: string): string {
  return `${prefix.length > 223 ? prefix.slice(0, 223) : prefix}-${hash}`;
}
