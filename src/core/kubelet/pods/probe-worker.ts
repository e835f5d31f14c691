// One probe of one container instance, as the kubelet's prober worker runs
// it: the first try once initialDelaySeconds have passed since the
// container started, then every periodSeconds; a result changes only after
// failureThreshold failures or successThreshold successes in a row.
// Readiness starts as failed, liveness as passed, startup as unknown;
// liveness and readiness wait for the startup probe. Each failure is an
// Unhealthy event ("Liveness probe failed: …").

import type { ClockTimers, TimerHandle } from '../../util/clock-timers';
import { rec } from '../../kinds/builtin/common/table';

export type ProbeKind = 'startup' | 'liveness' | 'readiness';

export interface ProbeOutcome {
  readonly ok: boolean;
  /** The failure's output (kube's wording), for the Unhealthy event. */
  readonly output: string;
}

export interface ProbeWorkerOptions {
  readonly kind: ProbeKind;
  readonly spec: Record<string, unknown>;
  readonly timers: ClockTimers;
  readonly startedAt: number;
  /** Performs one try (exec, httpGet, tcpSocket, grpc) with the probe's timeout. */
  readonly probe: (spec: Record<string, unknown>, timeoutMs: number) => Promise<ProbeOutcome>;
  /** Whether the probe may run now (liveness and readiness wait for startup). */
  readonly enabled: () => boolean;
  readonly onFailureOutput: (output: string) => void;
  /** The result has changed (after its threshold). */
  readonly onResult: (ok: boolean) => void;
}

const num = (v: unknown, d: number) => (typeof v === 'number' && v >= 0 ? v : d);

export class ProbeWorker {
  private handle: TimerHandle | undefined;
  private stopped = false;
  private successes = 0;
  private failures = 0;
  result: boolean | undefined;
  private readonly periodMs: number;
  private readonly timeoutMs: number;
  private readonly failureThreshold: number;
  private readonly successThreshold: number;

  constructor(private readonly o: ProbeWorkerOptions) {
    const s = rec(o.spec);
    this.periodMs = Math.max(1, num(s.periodSeconds, 10)) * 1000;
    this.timeoutMs = Math.max(1, num(s.timeoutSeconds, 1)) * 1000;
    this.failureThreshold = Math.max(1, num(s.failureThreshold, 3));
    this.successThreshold = o.kind === 'readiness' ? Math.max(1, num(s.successThreshold, 1)) : 1;
    this.result = o.kind === 'readiness' ? false : o.kind === 'liveness' ? true : undefined;
    const first = o.startedAt + num(s.initialDelaySeconds, 0) * 1000;
    this.handle = o.timers.at(Math.max(first, o.timers.clock.now()), () => void this.tick());
  }

  get kind(): ProbeKind {
    return this.o.kind;
  }

  stop(): void {
    this.stopped = true;
    this.o.timers.cancel(this.handle);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    if (this.o.enabled()) {
      let outcome: ProbeOutcome;
      try {
        outcome = await this.o.probe(this.o.spec, this.timeoutMs);
      } catch (err) {
        outcome = { ok: false, output: err instanceof Error ? err.message : String(err) };
      }
      if (this.stopped) return;
      this.record(outcome);
      // The startup probe is done once it has succeeded.
      if (this.o.kind === 'startup' && this.result === true) return;
    }
    if (!this.stopped) this.handle = this.o.timers.after(this.periodMs, () => void this.tick());
  }

  private record(outcome: ProbeOutcome): void {
    if (outcome.ok) {
      this.failures = 0;
      this.successes++;
      if (this.successes >= this.successThreshold && this.result !== true) {
        this.result = true;
        this.o.onResult(true);
      }
      return;
    }
    this.successes = 0;
    this.failures++;
    this.o.onFailureOutput(outcome.output);
    if (this.failures >= this.failureThreshold && this.result !== false) {
      this.result = false;
      // A liveness or startup failure acts once; the container restarts and a new worker begins.
      this.o.onResult(false);
    } else if (this.failures >= this.failureThreshold && this.o.kind !== 'readiness') {
      this.o.onResult(false);
    }
  }
}
