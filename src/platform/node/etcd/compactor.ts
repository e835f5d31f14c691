// kube-apiserver's etcd compactor (k8s.io/apiserver/pkg/storage/etcd3/compact.go),
// as KubeTab runs it: every --etcd-compaction-interval, a transaction on the
// key `compact_rev_key` (at etcd's root, shared by every API server of the
// cluster, KubeTab's or kube's) elects one server per interval to compact;
// that server compacts etcd to the revision it saw at the previous interval,
// so history is kept for one to two intervals. The version of
// `compact_rev_key` counts the intervals; its value is the last compacted
// revision, which the other servers read to trim their watch caches.

import { ClockTimers, type TimerHandle } from '../../../core/util/clock-timers';
import type { Clock } from '../../../core/clock';
import type { EtcdClient } from './etcd-client';

export const COMPACT_REV_KEY = Buffer.from('compact_rev_key');

export interface CompactorOptions {
  readonly client: EtcdClient;
  readonly clock: Clock;
  readonly intervalMs: number;
  /** etcd was compacted to `revision` (by this server or another): the watch cache lets go of older history. */
  readonly onCompacted: (revision: number) => void;
  readonly onError?: (err: unknown) => void;
}

export class Compactor {
  /** The version of compact_rev_key this server last saw (kube's compactTime). */
  private seenVersion = 0;
  /** The revision seen at the previous interval, to be compacted at the next (kube's rev). */
  private previousRevision = 0;
  private readonly timers: ClockTimers;
  private timer: TimerHandle | undefined;
  private stopped = false;

  constructor(private readonly options: CompactorOptions) {
    this.timers = new ClockTimers(options.clock, options.onError);
  }

  start(): void {
    if (!(this.options.intervalMs > 0) || !Number.isFinite(this.options.intervalMs)) return;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.timers.cancel(this.timer);
    this.timers.stop();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.timers.after(this.options.intervalMs, () => {
      this.tick().then(
        () => this.schedule(),
        (err) => {
          this.options.onError?.(err);
          this.schedule();
        },
      );
    });
  }

  /** One interval: try to take this interval's compaction; compact to the previous interval's revision if taken. */
  async tick(): Promise<void> {
    const { client } = this.options;
    const response = await client.txn({
      compare: [{ result: 'EQUAL', target: 'VERSION', key: COMPACT_REV_KEY, version: this.seenVersion }],
      success: [{ requestPut: { key: COMPACT_REV_KEY, value: Buffer.from(String(this.previousRevision)) } }],
      failure: [{ requestRange: { key: COMPACT_REV_KEY } }],
    });
    const currentRevision = response.header.revision;
    if (!response.succeeded) {
      // Another server took this interval: follow its count, and its compaction.
      const kv = response.responses[0]?.responseRange?.kvs[0];
      this.seenVersion = kv?.version ?? 0;
      const compacted = Number(kv?.value.toString('utf8') ?? '0');
      if (compacted > 0) this.options.onCompacted(compacted);
    } else {
      this.seenVersion++;
      // As kube: nothing is compacted on the first interval (there is no previous revision yet).
      if (this.previousRevision > 0) {
        try {
          await client.compact(this.previousRevision);
        } catch (err) {
          if (!/compacted/.test(String((err as Error).message))) throw err;
        }
        this.options.onCompacted(this.previousRevision);
      }
    }
    this.previousRevision = currentRevision;
  }
}
