// The retained changes in revision order: what watches replay and what
// time-based compaction measures. Old entries leave from the front, so the
// array is trimmed through a head index and only occasionally copied.

import type { Revision, StoreEvent } from './types';

export interface LogEntry {
  readonly event: StoreEvent;
  /** Commit time (clock ms); never decreases along the log. */
  readonly time: number;
}

export class ChangeLog {
  private entries: LogEntry[] = [];
  private head = 0;

  get length(): number {
    return this.entries.length - this.head;
  }

  append(entry: LogEntry): void {
    this.entries.push(entry);
  }

  clear(): void {
    this.entries = [];
    this.head = 0;
  }

  oldest(): LogEntry | undefined {
    return this.entries[this.head];
  }

  /** Absolute index of the first entry with revision > `revision`. */
  private indexAfter(revision: Revision): number {
    let lo = this.head;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.event.revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Entries with revision > `revision`, ascending. */
  *after(revision: Revision): IterableIterator<LogEntry> {
    for (let i = this.indexAfter(revision); i < this.entries.length; i++) yield this.entries[i]!;
  }

  /** Entries with revision in (from, to], ascending. */
  *between(from: Revision, to: Revision): IterableIterator<LogEntry> {
    for (let i = this.indexAfter(from); i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      if (entry.event.revision > to) return;
      yield entry;
    }
  }

  /** Revision of the newest entry committed at or before `time`, if any. */
  lastRevisionAtOrBefore(time: number): Revision | undefined {
    let lo = this.head;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.time <= time) lo = mid + 1;
      else hi = mid;
    }
    return lo === this.head ? undefined : this.entries[lo - 1]!.event.revision;
  }

  /** Removes and returns the entries with revision <= `revision`. */
  dropThrough(revision: Revision): LogEntry[] {
    const end = this.indexAfter(revision);
    const dropped = this.entries.slice(this.head, end);
    this.head = end;
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    return dropped;
  }
}
