// Watch fan-out for the etcd-backed store. Like src/core/storage/watch-hub.ts,
// except that several events may share one revision: etcd gives every write of
// one transaction the same revision (a batch is one Txn). A watcher receives
// each revision's events together and is "past" a revision only once it has
// received all of them.

import type { Revision, StoreEvent, Watcher, WatchHandle } from '../../../core/storage/types';

export interface HubWatch {
  readonly prefix: string;
  /** Every event with revision <= seen has been delivered (or predates the watch). */
  seen: Revision;
  live: boolean;
  closed: boolean;
  readonly watcher: Watcher;
}

export class RevisionHub {
  private readonly watches = new Set<HubWatch>();

  get size(): number {
    return this.watches.size;
  }

  register(prefix: string, afterRevision: Revision, watcher: Watcher): { state: HubWatch; handle: WatchHandle } {
    const state: HubWatch = { prefix, seen: afterRevision, live: false, closed: false, watcher };
    this.watches.add(state);
    return {
      state,
      handle: {
        cancel: () => {
          state.closed = true;
          this.watches.delete(state);
        },
      },
    };
  }

  /** Replays retained events (ascending revisions), then turns the watch live. */
  catchUp(state: HubWatch, events: readonly StoreEvent[]): void {
    if (state.closed) return;
    this.deliverAll(state, events);
    state.live = true;
  }

  /** Fans out newly applied events (ascending revisions, whole revisions) to live watches. */
  dispatch(events: readonly StoreEvent[]): void {
    if (this.watches.size === 0 || events.length === 0) return;
    for (const state of [...this.watches]) if (state.live) this.deliverAll(state, events);
  }

  close(state: HubWatch, reason: Error): void {
    if (state.closed) return;
    state.closed = true;
    this.watches.delete(state);
    try {
      state.watcher.onClose?.(reason);
    } catch {
      // One watcher's close handler failing must not affect the others.
    }
  }

  closeAll(reason: Error): void {
    for (const state of [...this.watches]) this.close(state, reason);
  }

  private deliverAll(state: HubWatch, events: readonly StoreEvent[]): void {
    const floor = state.seen;
    for (const event of events) {
      if (state.closed) return;
      if (event.revision <= floor) continue;
      state.seen = event.revision;
      if (!event.kv.key.startsWith(state.prefix)) continue;
      try {
        state.watcher.onEvent(event);
      } catch (err) {
        // The contract forbids throwing; if one does, only that watch ends.
        this.close(state, err instanceof Error ? err : new Error(String(err)));
      }
    }
  }
}
