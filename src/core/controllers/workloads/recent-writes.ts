// A controller's own writes, remembered until its informer has caught up
// with them. A work queue here runs a key again as soon as a related event
// arrives, often before the watch has delivered the controller's own last
// write; acting on the older cached copy would only earn a 409 Conflict and
// a retry. So each write is remembered with the resourceVersions it
// replaced: while the cache still shows one of those, the written object is
// the fresher one; once the cache shows anything else, the cache wins and
// the entry goes.

import type { KubeObject } from '../../kinds/types';

interface Written {
  /** resourceVersions this controller's writes replaced (the cache showing one of them is behind). */
  readonly replaced: Set<string>;
  object: KubeObject;
}

export class RecentWrites {
  private readonly byUid = new Map<string, Written>();

  /** Records that `before` (as the controller had it) was written and became `after`. */
  record(before: KubeObject, after: KubeObject): void {
    const uid = after.metadata?.uid;
    const from = before.metadata?.resourceVersion;
    if (!uid || !from) return;
    const entry = this.byUid.get(uid);
    if (entry) {
      entry.replaced.add(from);
      entry.object = after;
    } else this.byUid.set(uid, { replaced: new Set([from]), object: after });
  }

  /** The fresher of the cached object and this controller's last write of it. */
  fresh<T extends KubeObject | undefined>(cached: T): T {
    const uid = cached?.metadata?.uid;
    if (!uid) return cached;
    const entry = this.byUid.get(uid);
    if (!entry) return cached;
    const rv = cached.metadata?.resourceVersion ?? '';
    if (entry.replaced.has(rv)) return entry.object as T;
    this.byUid.delete(uid);
    return cached;
  }

  /** Forgets an object (deleted). */
  forget(obj: KubeObject): void {
    const uid = obj.metadata?.uid;
    if (uid) this.byUid.delete(uid);
  }
}
