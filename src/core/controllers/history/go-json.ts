// JSON as Go's encoding/json writes a map[string]interface{}: object keys in
// sorted order at every level, and <, >, & (and U+2028/U+2029) escaped as
// \u003c, \u003e, \u0026. kube-controller-manager stores a workload's
// revision data this way (it unmarshals the object into a map and marshals it
// again), and kubectl compares those bytes with its own encoding of the live
// object to decide that a rollback is a no-op, so the bytes matter, not only
// their meaning.

/** A JSON value with its object keys sorted (arrays keep their order). */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(byCodeUnits)) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeysDeep(v);
    }
    return out;
  }
  return value;
}

// Go sorts map keys by their bytes; for the ASCII keys of API objects code-unit order is the same.
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Go's json.Marshal of a decoded JSON value. */
export function goJson(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
