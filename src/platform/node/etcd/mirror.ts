// The watch cache in front of etcd: every key under --etcd-prefix, by its
// KubeTab key, with the history etcd still retains, kept current by one etcd
// watch. It answers gets and ranges at any retained revision, replays history
// to new watches and fans out changes, as KubeTab's in-memory engine does for
// its own writes (src/core/storage/mvcc-store.ts) — here every change comes
// from etcd, with etcd's revisions. It never writes; the store does.

import { ChangeLog } from '../../../core/storage/change-log';
import { currentOf, trimHistory, valueAt, type KeyHistory } from '../../../core/storage/key-history';
import { SortedKeys, prefixSlice } from '../../../core/storage/sorted-keys';
import type { KeyValue, RangeOptions, RangeResult, Revision, StoreEvent } from '../../../core/storage/types';
import { RevisionHub } from './revision-hub';

export class Mirror {
  private readonly records = new Map<string, KeyHistory>();
  private readonly live = new SortedKeys();
  private readonly all = new SortedKeys();
  readonly log = new ChangeLog();
  readonly hub = new RevisionHub();
  /** The etcd revision the mirror reflects (all events up to it applied). */
  revision: Revision;
  /** Reads below this revision are not answered (etcd's compaction, or before the mirror's start). */
  compacted: Revision;
  private readonly waiters: { revision: Revision; resolve: () => void }[] = [];

  constructor(base: readonly KeyValue[], baseRevision: Revision) {
    this.revision = baseRevision;
    this.compacted = baseRevision;
    for (const kv of base) {
      this.records.set(kv.key, { versions: [{ revision: kv.modRevision, kv }] });
      this.live.add(kv.key);
      this.all.add(kv.key);
    }
  }

  current(key: string): KeyValue | undefined {
    const record = this.records.get(key);
    return record && currentOf(record);
  }

  at(key: string, revision: Revision): KeyValue | undefined {
    const record = this.records.get(key);
    return record && (revision >= this.revision ? currentOf(record) : valueAt(record, revision));
  }

  /** Applies the events of one or more whole revisions (ascending), then wakes watches and waiters. */
  apply(events: readonly StoreEvent[], time: number, upTo: Revision): void {
    for (const event of events) {
      const key = event.kv.key;
      let record = this.records.get(key);
      if (!record) {
        record = { versions: [] };
        this.records.set(key, record);
        this.all.add(key);
      }
      const wasLive = currentOf(record) !== undefined;
      if (event.type === 'put') {
        record.versions.push({ revision: event.revision, kv: event.kv });
        if (!wasLive) this.live.add(key);
      } else {
        record.versions.push({ revision: event.revision, kv: undefined });
        if (wasLive) this.live.delete(key);
      }
      this.log.append({ event, time });
    }
    this.advance(upTo);
    this.hub.dispatch(events);
    this.wake();
  }

  /** Moves the revision forward without events (a progress notification). */
  advance(revision: Revision): void {
    if (revision > this.revision) this.revision = revision;
    this.wake();
  }

  /** Resolves once the mirror has reached `revision`. */
  reached(revision: Revision): Promise<void> {
    if (this.revision >= revision) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ revision, resolve }));
  }

  private wake(): void {
    if (this.waiters.length === 0) return;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i]!;
      if (waiter.revision <= this.revision) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }

  /** Events after `revision` under `prefix`, ascending (copied: a watcher may trigger a compaction). */
  eventsAfter(revision: Revision, prefix: string): StoreEvent[] {
    const out: StoreEvent[] = [];
    for (const entry of this.log.after(revision)) if (entry.event.kv.key.startsWith(prefix)) out.push(entry.event);
    return out;
  }

  /** Drops history below `revision` (reads at `revision` keep working). */
  compactTo(revision: Revision): void {
    if (revision <= this.compacted) return;
    const target = Math.min(revision, this.revision);
    const dropped = this.log.dropThrough(target);
    this.compacted = target;
    const keys = new Set<string>();
    for (const entry of dropped) keys.add(entry.event.kv.key);
    for (const key of keys) {
      const record = this.records.get(key);
      if (record && trimHistory(record, target)) {
        this.records.delete(key);
        this.all.delete(key);
      }
    }
  }

  range(options: RangeOptions, revision: Revision): RangeResult {
    const limit = options.limit !== undefined && options.limit > 0 ? options.limit : Infinity;
    const currentRead = revision >= this.revision || this.unchangedSince(revision, options.prefix);
    const keys = currentRead ? this.live.keys() : this.all.keys();
    const valueOf = currentRead ? (key: string) => currentOf(this.records.get(key)!) : (key: string) => valueAt(this.records.get(key)!, revision);
    const filter = options.filter;
    const [start, end] = prefixSlice(keys, options.prefix, options.after);
    const kvs: KeyValue[] = [];
    let i = start;
    for (; i < end; i++) {
      const kv = valueOf(keys[i]!);
      if (kv === undefined) continue;
      if (kvs.length >= limit) break;
      if (!filter || filter(kv)) kvs.push(kv);
    }
    if (i >= end) return { kvs, revision, more: false, remaining: 0 };
    // Page full at keys[i], which exists at `revision`: count what follows (as etcd's count) and whether any of it matches.
    let remaining = 0;
    let more = false;
    for (let j = i; j < end; j++) {
      const kv = valueOf(keys[j]!);
      if (kv === undefined) continue;
      remaining++;
      if (!more && (!filter || filter(kv))) more = true;
    }
    return { kvs, revision, more, remaining: more ? remaining : 0 };
  }

  private unchangedSince(revision: Revision, prefix: string): boolean {
    for (const entry of this.log.after(revision)) if (entry.event.kv.key.startsWith(prefix)) return false;
    return true;
  }

  clear(revision: Revision): void {
    this.records.clear();
    this.live.clear();
    this.all.clear();
    this.log.clear();
    this.revision = Math.max(this.revision, revision);
    this.compacted = revision;
    this.wake();
  }
}
