// The retained versions of one key.
//
// Invariant kept by the store: `versions` holds, in ascending revision order,
// every version written after the compacted revision C, preceded by the
// newest version at or below C when that one is a live value (a key deleted
// at or below C needs nothing: it is simply absent at C). The last entry is
// the key's current state; `kv: undefined` marks a deletion.

import type { KeyValue, Revision } from './types';

export interface Version {
  readonly revision: Revision;
  /** The value written at `revision`, or undefined when the key was deleted then. */
  readonly kv: KeyValue | undefined;
}

export interface KeyHistory {
  versions: Version[];
}

export function currentOf(history: KeyHistory): KeyValue | undefined {
  return history.versions[history.versions.length - 1]?.kv;
}

/** The key's value as of `revision` (undefined: absent then, or unknown below the oldest version). */
export function valueAt(history: KeyHistory, revision: Revision): KeyValue | undefined {
  const versions = history.versions;
  // Most keys have one or two versions and reads are mostly recent: scan from
  // the end, switch to binary search for long histories.
  if (versions.length <= 8) {
    for (let i = versions.length - 1; i >= 0; i--) {
      if (versions[i]!.revision <= revision) return versions[i]!.kv;
    }
    return undefined;
  }
  let lo = 0;
  let hi = versions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (versions[mid]!.revision <= revision) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? undefined : versions[lo - 1]!.kv;
}

/**
 * Drops what a compaction to `compacted` makes unreadable. Returns true when
 * nothing is left (the key was deleted at or below `compacted`).
 */
export function trimHistory(history: KeyHistory, compacted: Revision): boolean {
  const versions = history.versions;
  let keep = -1;
  for (let i = versions.length - 1; i >= 0; i--) {
    if (versions[i]!.revision <= compacted) {
      keep = i;
      break;
    }
  }
  if (keep >= 0) {
    const base = versions[keep]!;
    const from = base.kv === undefined ? keep + 1 : keep;
    if (from > 0) history.versions = versions.slice(from);
  }
  return history.versions.length === 0;
}
