// A set of keys that can hand out its members in ascending order.
//
// Range reads need the keys under a prefix in order; writes add and remove
// single keys. Keeping one array sorted on every write would cost O(n) per
// create (a splice), which a bulk import of thousands of objects pays
// thousands of times. Instead additions and removals are buffered and merged
// into the sorted array the next time someone reads it: one O(n + k log k)
// merge for k buffered changes, and nothing at all while nobody lists.
//
// Order is JavaScript's string order (UTF-16 code units). etcd orders bytes
// of UTF-8; the two agree on everything below U+D800, which covers every
// Kubernetes key (names are ASCII).

export class SortedKeys {
  private sorted: string[] = [];
  /** Added since the last merge and not in `sorted`. */
  private readonly added = new Set<string>();
  /** In `sorted` but removed since the last merge. */
  private readonly removed = new Set<string>();

  /** Adds a key the set does not hold (the caller knows). */
  add(key: string): void {
    if (this.removed.has(key)) this.removed.delete(key);
    else this.added.add(key);
  }

  /** Removes a key the set holds (the caller knows). */
  delete(key: string): void {
    if (this.added.has(key)) this.added.delete(key);
    else this.removed.add(key);
  }

  clear(): void {
    this.sorted = [];
    this.added.clear();
    this.removed.clear();
  }

  get size(): number {
    return this.sorted.length + this.added.size - this.removed.size;
  }

  /**
   * All keys, ascending. The array is shared and changes with the set: callers
   * must not modify it, and must use it at once (the engine's range reads do,
   * synchronously), not keep it across a write.
   */
  keys(): readonly string[] {
    if (this.added.size === 0 && this.removed.size === 0) return this.sorted;
    const merged = this.added.size + this.removed.size <= FEW ? this.spliced() : this.merged();
    this.sorted = merged;
    this.added.clear();
    this.removed.clear();
    return merged;
  }

  /**
   * The few buffered changes spliced in place: a write between two reads
   * (every write request reads some ranges: admission's configurations) then
   * costs a binary search and a native move per change, not a walk of every
   * key in JavaScript (about 1 ms per create with 11,000 keys).
   */
  private spliced(): string[] {
    const keys = this.sorted;
    for (const key of this.removed) {
      const at = lowerBound(keys, key);
      if (keys[at] === key) keys.splice(at, 1);
    }
    for (const key of this.added) keys.splice(lowerBound(keys, key), 0, key);
    return keys;
  }

  /** One merge of the sorted keys with the sorted buffered additions, leaving the removed ones out. */
  private merged(): string[] {
    const fresh = [...this.added].sort();
    const old = this.sorted;
    const removed = this.removed.size > 0 ? this.removed : undefined;
    const merged: string[] = new Array(old.length - this.removed.size + fresh.length);
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < old.length || j < fresh.length) {
      if (i < old.length && removed?.has(old[i]!)) {
        i++;
        continue;
      }
      if (j >= fresh.length || (i < old.length && old[i]! < fresh[j]!)) merged[n++] = old[i++]!;
      else merged[n++] = fresh[j++]!;
    }
    merged.length = n;
    return merged;
  }
}

/** Up to this many buffered changes are spliced in; more are merged in one pass. */
const FEW = 32;

/** Index of the first element >= target in an ascending array. */
export function lowerBound(keys: readonly string[], target: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The smallest string greater than every string that starts with `prefix`,
 * or undefined when there is none (empty prefix: every key matches).
 */
export function prefixEnd(prefix: string): string | undefined {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const code = prefix.charCodeAt(i);
    if (code < 0xffff) return prefix.slice(0, i) + String.fromCharCode(code + 1);
  }
  return undefined;
}

/** [start, end) of the keys that start with `prefix` and are strictly greater than `after`. */
export function prefixSlice(keys: readonly string[], prefix: string, after?: string): [number, number] {
  const endKey = prefixEnd(prefix);
  const end = endKey === undefined ? keys.length : lowerBound(keys, endKey);
  let start = lowerBound(keys, prefix);
  if (after !== undefined && after >= prefix) {
    start = lowerBound(keys, after);
    if (start < keys.length && keys[start] === after) start++;
  }
  return [Math.min(start, end), end];
}
