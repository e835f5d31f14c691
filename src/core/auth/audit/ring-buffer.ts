// A bounded log: the newest `capacity` entries, each with a sequence number
// so a reader can ask for what came after the last one it saw (the UI polls
// the audit log this way). Old entries are overwritten, never reallocated.

export interface RingEntry<T> {
  readonly seq: number;
  readonly value: T;
}

export class RingBuffer<T> {
  private readonly items: (RingEntry<T> | undefined)[];
  private nextSeq = 1;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error('capacity must be a positive integer');
    this.items = new Array(capacity);
  }

  push(value: T): number {
    const seq = this.nextSeq++;
    this.items[(seq - 1) % this.capacity] = { seq, value };
    return seq;
  }

  get size(): number {
    return Math.min(this.nextSeq - 1, this.capacity);
  }

  /** The sequence number the next entry will get. */
  get next(): number {
    return this.nextSeq;
  }

  /** Entries oldest first; only those after `afterSeq` when given, at most `limit` (the newest ones). */
  list(afterSeq = 0, limit = Infinity): RingEntry<T>[] {
    const first = Math.max(this.nextSeq - this.capacity, afterSeq + 1, 1);
    const out: RingEntry<T>[] = [];
    for (let seq = first; seq < this.nextSeq; seq++) {
      const e = this.items[(seq - 1) % this.capacity];
      if (e && e.seq === seq) out.push(e);
    }
    return out.length > limit ? out.slice(out.length - limit) : out;
  }

  clear(): void {
    this.items.fill(undefined);
  }
}
