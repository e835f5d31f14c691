// The pod-template-hash of a Deployment's ReplicaSets (controller.ComputeHash):
// FNV-32a over the pod template, then over collisionCount when the status
// has one (as 8 little-endian bytes), the 32-bit sum printed in decimal and
// each digit mapped through rand.SafeEncodeString's alphabet — so a hash
// reads like kube's ("7c5ddbdf54": only the letters and digits that alphabet
// gives decimal digits).
//
// kube hashes Go's deep printing of the PodTemplateSpec struct, which cannot
// be reproduced byte for byte outside Go; KubeTab hashes a canonical JSON of
// the template instead (keys sorted; null, empty objects and empty arrays
// left out, as semantic equality ignores them). The hash is therefore stable
// and changes exactly when the template does, but a given template does not
// get the same hash as on a real cluster.

/** rand.SafeEncodeString's alphabet (no vowels, no confusable characters). */
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** apps.DefaultDeploymentUniqueLabelKey. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** A JSON value without nulls and empty collections, for semantic comparison and hashing. */
export function semanticValue(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    return value.map((v) => semanticValue(v) ?? null);
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Record<string, unknown>).sort()) {
      const v = semanticValue((value as Record<string, unknown>)[key]);
      if (v !== undefined) out[key] = v;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value;
}

/** Canonical JSON text of a value (sorted keys, semantic emptiness dropped). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(semanticValue(value) ?? null);
}

/** FNV-1a, 32 bits, over bytes. */
export function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (const b of bytes) {
    hash ^= b;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** rand.SafeEncodeString. */
export function safeEncodeString(text: string): string {
  let out = '';
  for (const ch of text) out += SAFE_ALPHABET[ch.codePointAt(0)! % SAFE_ALPHABET.length];
  return out;
}

/** controller.ComputeHash of a pod template with the Deployment's collisionCount. */
export function computeTemplateHash(template: unknown, collisionCount?: number): string {
  let hash = fnv32a(new TextEncoder().encode(canonicalJson(template)));
  if (collisionCount !== undefined && collisionCount !== null) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv32a(bytes, hash);
  }
  return safeEncodeString(String(hash));
}

/** The template without the pod-template-hash label. */
function withoutHashLabel(template: unknown): unknown {
  const t = structuredClone((template ?? {}) as Record<string, unknown>);
  const labels = (t.metadata as { labels?: Record<string, string> } | undefined)?.labels;
  if (labels) delete labels[POD_TEMPLATE_HASH_LABEL];
  return t;
}

/** EqualIgnoreHash: two pod templates semantically equal once pod-template-hash is left out of their labels. */
export function equalIgnoreHash(a: unknown, b: unknown): boolean {
  return canonicalJson(withoutHashLabel(a)) === canonicalJson(withoutHashLabel(b));
}
