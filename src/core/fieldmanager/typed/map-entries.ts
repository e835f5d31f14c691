// The members of a map as smd's typed walkers see them: own keys whose value
// is present (a key holding undefined is no member, as after a JSON round
// trip). Comparing and merging two maps visit the same key pairs.

/** Whether the map has no present member. */
export function isEmptyMap(o: Record<string, unknown>): boolean {
  for (const k in o) if (Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined) return false;
  return true;
}

function member(o: Record<string, unknown> | undefined, key: string): unknown {
  return o && Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/**
 * Calls visit once per key either map has, with both sides' values
 * (undefined where a side lacks it): lhs's keys in their order first, then
 * the keys only rhs has.
 */
export function zipMaps(
  lhs: Record<string, unknown> | undefined,
  rhs: Record<string, unknown> | undefined,
  visit: (key: string, lv: unknown, rv: unknown) => void,
): void {
  if (lhs) {
    for (const key in lhs) {
      if (!Object.prototype.hasOwnProperty.call(lhs, key) || lhs[key] === undefined) continue;
      visit(key, lhs[key], member(rhs, key));
    }
  }
  if (rhs) {
    for (const key in rhs) {
      if (!Object.prototype.hasOwnProperty.call(rhs, key) || rhs[key] === undefined) continue;
      if (member(lhs, key) !== undefined) continue;
      visit(key, undefined, rhs[key]);
    }
  }
}
