// The Job controller's finalizer expectations (kube's uidTrackingExpectations
// in the job package): the pods whose batch.kubernetes.io/job-tracking
// finalizer removal is under way, so they are not counted twice. Kept here:
// only the Job controller tracks finalizers. Its pod create/delete
// expectations are the shared CountingExpectations of ../workloads.

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
