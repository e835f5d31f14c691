// controller.ControllerExpectations and the Job controller's finalizer
// expectations: what a controller has asked the API for and not yet seen
// through its informers. A sync waits for its creations and deletions to be
// observed (or 5 minutes to pass) before it counts pods again, so a burst of
// events never makes it create or delete twice; and pods whose tracking
// finalizer removal is under way are not counted twice.

export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

interface Expectation {
  add: number;
  del: number;
  at: number;
}

export class ControllerExpectations {
  private readonly map = new Map<string, Expectation>();

  constructor(private readonly now: () => number) {}

  satisfied(key: string): boolean {
    const e = this.map.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.now() - e.at > EXPECTATIONS_TIMEOUT_MS;
  }

  expectCreations(key: string, n: number): void {
    this.map.set(key, { add: n, del: 0, at: this.now() });
  }

  expectDeletions(key: string, n: number): void {
    this.map.set(key, { add: 0, del: n, at: this.now() });
  }

  creationObserved(key: string): void {
    const e = this.map.get(key);
    if (e) e.add--;
  }

  deletionObserved(key: string): void {
    const e = this.map.get(key);
    if (e) e.del--;
  }

  delete(key: string): void {
    this.map.delete(key);
  }
}

export class FinalizerExpectations {
  private readonly map = new Map<string, Set<string>>();

  expectRemoved(key: string, uids: readonly string[]): void {
    let set = this.map.get(key);
    if (!set) this.map.set(key, (set = new Set()));
    for (const u of uids) set.add(u);
  }

  observed(key: string, uid: string): void {
    const set = this.map.get(key);
    if (!set) return;
    set.delete(uid);
    if (set.size === 0) this.map.delete(key);
  }

  expected(key: string): ReadonlySet<string> {
    return this.map.get(key) ?? new Set();
  }

  delete(key: string): void {
    this.map.delete(key);
  }
}
