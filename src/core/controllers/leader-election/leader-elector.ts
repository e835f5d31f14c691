// Leader election on a Lease, as client-go's leaderelection package runs it
// for kube-controller-manager and kube-scheduler: every candidate tries to
// acquire the Lease every retry period (with jitter); the one that holds it
// renews it every retry period and runs the work; the others wait until the
// record has gone unchanged for leaseDurationSeconds and then take it over
// (leaseTransitions + 1). A leader that cannot renew for the renew deadline
// stops its work. On a clean stop the leader releases the Lease (holder ''
// and leaseDurationSeconds 1), so another takes over within a few seconds
// instead of after the full duration.
//
// Where KubeTab differs, and why:
// - Time is the cluster Clock (ClockTimers), and lease ages are measured by
//   SteadyTime, which does not count the Clock's jumps: moving the Clock
//   forward neither expires a healthy leader's lease nor makes the leader
//   give up.
// - A leader whose renewal finds another holder stops at once (kube would
//   keep believing until its renew deadline; both are safe, this is sooner).
// - `soleCandidate`: when no other server can contend (the store is this
//   server's alone), a Lease held by someone else is left from an earlier run
//   of this server and is taken over at once, so a restarted KubeTab does not
//   sit 15 s without controllers. With a shared store (etcd) kube's rules hold.
// - The work starts and stops through callbacks that return promises; the
//   loop goes on renewing while the work starts, and stops it completely
//   before trying to acquire again (kube's controller manager exits instead).

import type { Clock } from '../../clock';
import type { ClockTimers, TimerHandle } from '../../util/clock-timers';
import { errorMessage } from '../client/api-error';
import type { LeaderElectionRecord, LeaseLock } from './lease-lock';
import { SteadyTime } from './steady-time';

/** client-go's JitterFactor for the acquire loop: each wait is the retry period plus up to 1.2 times it. */
export const JITTER_FACTOR = 1.2;

export interface LeaderElectionConfig {
  readonly lock: LeaseLock;
  readonly clock: Clock;
  readonly timers: ClockTimers;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  /** No other candidate can exist: another holder is an earlier run of this one (see above). */
  readonly soleCandidate?: boolean;
  /** Release the Lease on stop (default true). */
  readonly releaseOnStop?: boolean;
  /** A number in [0, 1) for the acquire loop's jitter (default Math.random; tests fix it). */
  readonly jitter?: () => number;
  /** Starts the work; the elector keeps renewing meanwhile. */
  readonly onStartedLeading: () => Promise<void> | void;
  /** Stops the work; awaited before the Lease is released or contended for again. */
  readonly onStoppedLeading: () => Promise<void> | void;
  readonly log?: (message: string) => void;
}

export class LeaderElector {
  private readonly steady: SteadyTime;
  private observed: LeaderElectionRecord | undefined;
  private observedRaw: string | undefined;
  /** SteadyTime when the record was last seen to change. */
  private observedAt = 0;
  private leading = false;
  private work: Promise<void> | undefined;
  private stopped = false;
  private sleeping: { handle: TimerHandle; wake: () => void } | undefined;
  private loop: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private readonly log: (message: string) => void;
  /** The events recorded so far, in order (stop waits for them: the server closes after). */
  private events: Promise<void> = Promise.resolve();
  private loopDone = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly config: LeaderElectionConfig) {
    if (!(config.leaseDurationMs > config.renewDeadlineMs)) throw new Error('leaseDuration must be greater than renewDeadline');
    if (!(config.renewDeadlineMs > JITTER_FACTOR * config.retryPeriodMs)) throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
    // The longest planned gap between two readings: an acquire wait with full jitter, plus a retry period for the attempt itself.
    this.steady = new SteadyTime(config.clock, config.retryPeriodMs * (2 + JITTER_FACTOR));
    this.log = config.log ?? (() => undefined);
  }

  get identity(): string {
    return this.config.lock.identity;
  }

  /** Whether this candidate holds the Lease and runs the work. */
  isLeader(): boolean {
    return this.leading;
  }

  /** The holder of the Lease as last read or written ('' when released, undefined before the first reading). */
  observedLeader(): string | undefined {
    return this.observed?.holderIdentity;
  }

  /** Resolves when the election waits for its next attempt (or has stopped): for tests on a manual Clock. */
  idle(): Promise<void> {
    if (this.sleeping || this.loopDone) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private flushIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((w) => w());
  }

  /**
   * Starts contending. Resolves after the first attempt: when it won, once
   * the work has started (a lone server starts its controllers at once).
   */
  start(): Promise<void> {
    let firstDone!: () => void;
    const first = new Promise<void>((resolve) => (firstDone = resolve));
    this.loop ??= this.run(firstDone)
      .catch((err) => this.log(`leader election ${this.config.lock.describe()} stopped: ${errorMessage(err)}`))
      .finally(() => {
        this.loopDone = true;
        this.flushIdle();
      });
    return Promise.race([first, this.loop]);
  }

  /** Stops contending: stops the work, then releases the Lease when held. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopped = true;
      if (this.sleeping) {
        this.config.timers.cancel(this.sleeping.handle);
        this.sleeping.wake();
      }
      await this.loop;
      if (this.leading) {
        await this.stopWork();
        if (this.config.releaseOnStop ?? true) await this.release();
        this.leading = false;
        this.recordEvent('stopped leading');
      }
      await this.events;
    })();
    return this.stopping;
  }

  private async run(firstDone: () => void): Promise<void> {
    let first = true;
    let lastRenew = 0;
    while (!this.stopped) {
      if (!this.leading) {
        this.log(`attempting to acquire leader lease ${this.config.lock.describe()}...`);
        if ((await this.tryAcquireOrRenew()) && !this.stopped) {
          lastRenew = this.steady.now();
          this.leading = true;
          this.log(`successfully acquired lease ${this.config.lock.describe()}`);
          this.recordEvent('became leader');
          this.work = Promise.resolve()
            .then(() => this.config.onStartedLeading())
            .catch((err) => this.log(`starting the work of ${this.config.lock.describe()} failed: ${errorMessage(err)}`));
          if (first) await this.work;
        }
        if (first) {
          first = false;
          firstDone();
        }
        if (!this.leading) await this.sleep(this.config.retryPeriodMs * (1 + JITTER_FACTOR * (this.config.jitter ?? Math.random)()));
        continue;
      }
      await this.sleep(this.config.retryPeriodMs);
      if (this.stopped) break;
      const renewed = await this.tryAcquireOrRenew();
      const now = this.steady.now();
      if (renewed) {
        lastRenew = now;
        continue;
      }
      const lostToAnother = this.observed !== undefined && this.observed.holderIdentity !== this.identity;
      if (lostToAnother || now - lastRenew >= this.config.renewDeadlineMs) {
        this.log(`failed to renew lease ${this.config.lock.describe()}: ${lostToAnother ? `held by ${this.observed!.holderIdentity}` : 'timed out waiting for the condition'}`);
        this.leading = false;
        await this.stopWork();
        this.recordEvent('stopped leading');
      }
    }
  }

  private recordEvent(what: string): void {
    this.events = this.events.then(() => this.config.lock.recordEvent(what));
  }

  private async stopWork(): Promise<void> {
    await this.work;
    this.work = undefined;
    try {
      await this.config.onStoppedLeading();
    } catch (err) {
      this.log(`stopping the work of ${this.config.lock.describe()} failed: ${errorMessage(err)}`);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        this.sleeping = undefined;
        resolve();
      };
      this.sleeping = { handle: this.config.timers.after(ms, wake), wake };
      this.flushIdle();
    });
  }

  private holdsObservedRecord(): boolean {
    return this.observed?.holderIdentity === this.identity;
  }

  private leaseValid(): boolean {
    return this.observed !== undefined && this.steady.now() - this.observedAt < this.observed.leaseDurationSeconds * 1000;
  }

  private observe(record: LeaderElectionRecord, raw?: string): void {
    if (record.holderIdentity !== this.observed?.holderIdentity && record.holderIdentity) this.log(`new leader elected for ${this.config.lock.describe()}: ${record.holderIdentity}`);
    this.observed = record;
    if (raw !== undefined) this.observedRaw = raw;
    this.observedAt = this.steady.now();
  }

  /** One attempt, as client-go's tryAcquireOrRenew: true when this candidate holds the Lease afterwards. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const { lock } = this.config;
    const now = this.config.clock.now();
    const fresh: LeaderElectionRecord = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.round(this.config.leaseDurationMs / 1000),
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    };
    // The leader's fast path: an update over the Lease it last wrote, without reading it again.
    if (this.holdsObservedRecord() && this.leaseValid()) {
      const record = { ...fresh, acquireTime: this.observed!.acquireTime ?? now, leaseTransitions: this.observed!.leaseTransitions };
      try {
        await lock.update(record);
        this.observe(record);
        return true;
      } catch (err) {
        this.log(`failed to update lock ${lock.describe()} optimistically: ${errorMessage(err)}, falling back to slow path`);
      }
    }
    let read;
    try {
      read = await lock.get();
    } catch (err) {
      this.log(`error retrieving resource lock ${lock.describe()}: ${errorMessage(err)}`);
      return false;
    }
    if (!read) {
      try {
        await lock.create(fresh);
      } catch (err) {
        this.log(`error initially creating leader election record for ${lock.describe()}: ${errorMessage(err)}`);
        return false;
      }
      this.observe(fresh);
      return true;
    }
    if (read.raw !== this.observedRaw) this.observe(read.record, read.raw);
    const heldByAnother = read.record.holderIdentity !== '' && read.record.holderIdentity !== this.identity;
    if (heldByAnother && this.leaseValid() && !this.config.soleCandidate) return false;
    const record: LeaderElectionRecord =
      read.record.holderIdentity === this.identity
        ? { ...fresh, acquireTime: read.record.acquireTime ?? now, leaseTransitions: read.record.leaseTransitions }
        : { ...fresh, leaseTransitions: read.record.leaseTransitions + 1 };
    try {
      await lock.update(record);
    } catch (err) {
      this.log(`failed to update lock ${lock.describe()}: ${errorMessage(err)}`);
      return false;
    }
    this.observe(record);
    return true;
  }

  /** Gives the Lease up (client-go's release): no holder, a one-second duration, the transitions kept. */
  private async release(): Promise<void> {
    if (!this.holdsObservedRecord()) return;
    const now = this.config.clock.now();
    const record: LeaderElectionRecord = { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: this.observed!.leaseTransitions };
    try {
      await this.config.lock.update(record);
      this.observe(record);
    } catch (err) {
      this.log(`failed to release lock ${this.config.lock.describe()}: ${errorMessage(err)}`);
    }
  }
}
