// kube's ControllerExpectations for the DaemonSet controller: after asking
// for N pod creations and M deletions, a set is not managed again until the
// pod informer has shown them all (or five minutes passed on the cluster
// Clock), so a burst of events can never create a node's pod twice. Failed
// requests lower the expectations at once.

const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

interface Expected {
  add: number;
  del: number;
  at: number;
}

export class Expectations {
  private readonly byKey = new Map<string, Expected>();

  constructor(private readonly now: () => number) {}

  set(key: string, add: number, del: number): void {
    this.byKey.set(key, { add, del, at: this.now() });
  }

  creationObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.add--;
  }

  deletionObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.del--;
  }

  lower(key: string, add: number, del: number): void {
    const e = this.byKey.get(key);
    if (!e) return;
    e.add -= add;
    e.del -= del;
  }

  /** SatisfiedExpectations: nothing awaited, or what was awaited has been seen, or it has expired. */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (!e) return true;
    return (e.add <= 0 && e.del <= 0) || this.now() - e.at > EXPECTATIONS_TIMEOUT_MS;
  }

  delete(key: string): void {
    this.byKey.delete(key);
  }
}
