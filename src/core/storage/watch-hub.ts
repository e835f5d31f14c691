// Watch fan-out: every committed change goes, in revision order, to each
// watcher whose prefix matches and who has not seen it yet.
//
// A new watcher first catches up from the change log (its "replay"), then
// receives live changes. The replay runs in a microtask rather than inside
// watch() itself so that a watcher can use its handle (e.g. cancel) from its
// first event; since JavaScript runs one thing at a time, every change
// committed before the replay runs is in the log by then, and the watcher's
// high-water mark keeps it from seeing a change twice.

import type { Revision, StoreEvent, Watcher, WatchHandle } from './types';

export interface WatchState {
  readonly prefix: string;
  /** Highest revision delivered (or the revision the watch started after). */
  seen: Revision;
  /** False until the catch-up replay has run. */
  live: boolean;
  closed: boolean;
  readonly watcher: Watcher;
}

export class WatchHub {
  private readonly watchers = new Set<WatchState>();

  get size(): number {
    return this.watchers.size;
  }

  /**
   * Registers a watcher. `catchUp` runs later (when `startCatchUp` is called)
   * and must return the retained changes after `state.seen`, or throw to
   * close the watch (e.g. compacted meanwhile).
   */
  register(prefix: string, afterRevision: Revision, watcher: Watcher): { state: WatchState; handle: WatchHandle } {
    const state: WatchState = { prefix, seen: afterRevision, live: false, closed: false, watcher };
    this.watchers.add(state);
    const handle: WatchHandle = {
      cancel: () => {
        state.closed = true;
        this.watchers.delete(state);
      },
    };
    return { state, handle };
  }

  /** Delivers the replayed changes, then turns the watcher live. */
  catchUp(state: WatchState, changes: Iterable<StoreEvent>): void {
    if (state.closed) return;
    for (const event of changes) {
      if (state.closed) return;
      this.deliver(state, event);
    }
    state.live = true;
  }

  /** Fans committed changes (ascending revisions) out to the live watchers. */
  dispatch(events: readonly StoreEvent[]): void {
    if (this.watchers.size === 0) return;
    for (const event of events) {
      for (const state of this.watchers) {
        if (state.live) this.deliver(state, event);
      }
    }
  }

  /** Ends one watcher with a reason (its onClose is called once). */
  close(state: WatchState, reason: Error): void {
    if (state.closed) return;
    state.closed = true;
    this.watchers.delete(state);
    try {
      state.watcher.onClose?.(reason);
    } catch {
      // A watcher's close handler failing must not affect the others.
    }
  }

  closeAll(reason: Error): void {
    for (const state of [...this.watchers]) this.close(state, reason);
  }

  private deliver(state: WatchState, event: StoreEvent): void {
    if (state.closed || event.revision <= state.seen || !event.kv.key.startsWith(state.prefix)) return;
    state.seen = event.revision;
    try {
      state.watcher.onEvent(event);
    } catch (err) {
      // The contract forbids throwing; if one does, only that watch ends.
      this.close(state, err instanceof Error ? err : new Error(String(err)));
    }
  }
}
