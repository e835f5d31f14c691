// Knows whether the controllers have work in hand, so that `idle()` can
// resolve once everything seen so far has been processed (tests and
// tutorials wait on it instead of sleeping).
//
// Work is counted while it is in hand: an informer's initial list, a watch
// event being delivered, a queued or running reconcile, a short retry after
// an error. Waiting for the world to change (a requeue after an estimate, a
// watch with nothing to say) is not work. Because a write answered by the
// server reaches the watch streams synchronously but the informers read them
// through promise callbacks, `idle()` lets a macrotask pass and checks that
// nothing new started meanwhile before it resolves.

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export class Activity {
  private busy = 0;
  private epoch = 0;
  private waiters: (() => void)[] = [];

  /** Marks one piece of work as started; call the returned function (once) when it is done. */
  begin(): () => void {
    this.busy++;
    this.epoch++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.busy--;
      this.epoch++;
      if (this.busy === 0) for (const w of this.waiters.splice(0)) w();
    };
  }

  /** Records that something happened (an event arrived) without holding work open. */
  touch(): void {
    this.epoch++;
  }

  get pending(): number {
    return this.busy;
  }

  private quiet(): Promise<void> {
    if (this.busy === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Resolves when no work is in hand and none started across two macrotasks. */
  async idle(): Promise<void> {
    for (;;) {
      await this.quiet();
      const seen = this.epoch;
      await macrotask();
      await macrotask();
      if (this.busy === 0 && this.epoch === seen) return;
    }
  }
}
