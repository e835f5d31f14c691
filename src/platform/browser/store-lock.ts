// One writer per database. When a new version of the service worker takes
// over (skipWaiting), the old one may still be running its core — its
// controllers write, its watches are open — for a moment. Two cores on one
// IndexedDB database would each count revisions from what they loaded and
// hand out the same resourceVersion twice. A Web Lock named after the
// database makes the new core wait until the old one has closed its store
// (or its worker has ended, which releases the lock too).

interface LockManagerLike {
  request(name: string, callback: () => Promise<void>): Promise<void>;
}

/** Resolves with the release once this context holds the lock; without Web Locks, at once. */
export function acquireStoreLock(dbName: string): Promise<() => void> {
  const locks = (navigator as unknown as { locks?: LockManagerLike }).locks;
  if (!locks) return Promise.resolve(() => {});
  return new Promise((resolveAcquired, rejectAcquired) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    locks
      .request(`kubetab-store:${dbName}`, () => {
        resolveAcquired(release);
        return held;
      })
      .catch(rejectAcquired);
  });
}
