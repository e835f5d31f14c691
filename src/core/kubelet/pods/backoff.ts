// The kubelet's restart and image-pull back-off (client-go's
// flowcontrol.Backoff as the kubelet configures it): 10 s doubling to 5
// minutes, per pod and container. An entry is forgotten when nothing has
// touched it for twice the maximum (10 minutes): a container that ran that
// long restarts at once and starts again from 10 s.

export const INITIAL_BACKOFF_MS = 10_000;
export const MAX_BACKOFF_MS = 300_000;

interface Entry {
  backoffMs: number;
  lastUpdate: number;
}

export class Backoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly initialMs = INITIAL_BACKOFF_MS,
    private readonly maxMs = MAX_BACKOFF_MS,
  ) {}

  private expired(entry: Entry, eventTime: number): boolean {
    return eventTime - entry.lastUpdate > 2 * this.maxMs;
  }

  /** Records a restart for the event at `eventTime` (the container's finish): the next back-off grows. */
  next(key: string, eventTime: number): void {
    const entry = this.entries.get(key);
    if (!entry || this.expired(entry, eventTime)) this.entries.set(key, { backoffMs: this.initialMs, lastUpdate: eventTime });
    else {
      entry.backoffMs = Math.min(entry.backoffMs * 2, this.maxMs);
      entry.lastUpdate = eventTime;
    }
  }

  /** Whether, at `now`, the event at `eventTime` is still within its back-off; with the back-off and its end. */
  inBackoffSince(key: string, eventTime: number, now: number): { backoffMs: number; untilMs: number } | undefined {
    const entry = this.entries.get(key);
    if (!entry || this.expired(entry, now)) return undefined;
    if (now - eventTime < entry.backoffMs) return { backoffMs: entry.backoffMs, untilMs: eventTime + entry.backoffMs };
    return undefined;
  }

  /** Whether `now` is within the back-off counted from the entry's last update (the image puller's check). */
  inBackoffSinceUpdate(key: string, now: number): { backoffMs: number; untilMs: number } | undefined {
    const entry = this.entries.get(key);
    if (!entry || this.expired(entry, now)) return undefined;
    if (now - entry.lastUpdate < entry.backoffMs) return { backoffMs: entry.backoffMs, untilMs: entry.lastUpdate + entry.backoffMs };
    return undefined;
  }

  /** Restores an entry (a restarted kubelet resuming from the pod's status). */
  restore(key: string, backoffMs: number, lastUpdate: number): void {
    this.entries.set(key, { backoffMs: Math.min(Math.max(backoffMs, this.initialMs), this.maxMs), lastUpdate });
  }

  forget(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
