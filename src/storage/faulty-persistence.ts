// A Persistence wrapper for tests: counts commits, fails chosen ones, and can
// hold the background load back (to observe a cold start).

import { PersistenceError, type Persistence } from '../core/storage/types';

export class PersistenceFaults {
  /** Successful commit calls (one per group commit). */
  commits = 0;
  /** Commit calls that were made to fail. */
  failedCommits = 0;
  private failing = 0;
  private loadGate: Promise<void> | undefined;
  private releaseLoad: (() => void) | undefined;

  /** Makes the next `n` commits (or replaces) fail with PersistenceError (before anything reaches the real backend). */
  failNextCommits(n = 1): void {
    this.failing += n;
  }

  /** Holds loadCurrent/loadHistory until the returned function is called. */
  holdLoad(): () => void {
    this.loadGate = new Promise<void>((resolve) => (this.releaseLoad = resolve));
    return () => this.releaseLoad?.();
  }

  /** @internal */
  takeFailure(): boolean {
    if (this.failing === 0) return false;
    this.failing--;
    this.failedCommits++;
    return true;
  }

  /** @internal */
  async gate(): Promise<void> {
    if (this.loadGate) await this.loadGate;
  }
}

export function withFaults(inner: Persistence, faults: PersistenceFaults): Persistence {
  return {
    open: (initialRevision) => inner.open(initialRevision),
    getCurrent: (key) => inner.getCurrent(key),
    ...(inner.rangeCurrent ? { rangeCurrent: (prefix: string, after?: string) => inner.rangeCurrent!(prefix, after) } : {}),
    async loadCurrent() {
      await faults.gate();
      return inner.loadCurrent();
    },
    async loadHistory() {
      await faults.gate();
      return inner.loadHistory();
    },
    async commit(changes, meta) {
      if (faults.takeFailure()) throw new PersistenceError('injected failure: QuotaExceededError');
      await inner.commit(changes, meta);
      faults.commits++;
    },
    ...(inner.replace
      ? {
          async replace(changes: Parameters<NonNullable<Persistence['replace']>>[0], meta: Parameters<NonNullable<Persistence['replace']>>[1]) {
            if (faults.takeFailure()) throw new PersistenceError('injected failure: QuotaExceededError');
            await inner.replace!(changes, meta);
            faults.commits++;
          },
        }
      : {}),
    compact: (meta) => inner.compact(meta),
    wipe: (meta) => inner.wipe(meta),
    close: () => inner.close(),
  };
}
