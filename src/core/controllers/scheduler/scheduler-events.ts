// The events.k8s.io/v1 Events kube-scheduler records on a pod, so that
// `kubectl describe pod` shows "Scheduled" or "FailedScheduling" (and
// "Preempted" on a victim) from default-scheduler. Named as client-go's event
// recorder names them: <object name>.<event time in nanoseconds, hex>.
// Repeats are folded as client-go's new event broadcaster folds them: an
// event isomorphic to one seen before (same action, reason, controller,
// regarding and related object) becomes a series (count 2 is written at
// once; later counts are written when the series goes quiet for 6 minutes
// or every 30 minutes while it lasts).

import { rfc3339Micro } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import type { GroupVersionResource } from '../client/resource-path';
import { resourcePath } from '../client/resource-path';
import type { ControllerContext } from '../runtime/controller';
import type { TimerHandle } from '../../util/clock-timers';

export const EVENTS: GroupVersionResource = { group: 'events.k8s.io', version: 'v1', resource: 'events' };
export const SCHEDULER_NAME = 'default-scheduler';
const REPORTING_INSTANCE = `${SCHEDULER_NAME}-kubetab`;
/** Event notes are cut to 1 KiB, as the scheduler's truncateMessage does. */
const NOTE_LIMIT = 1024;
const FINISH_MS = 6 * 60_000;
const REFRESH_MS = 30 * 60_000;

export interface SchedulerEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly action: string;
  readonly note: string;
  /** The other object involved (the preemptor, for Preempted). */
  readonly related?: KubeObject;
}

/**
 * The nanosecond stamp in event names, kept strictly increasing: the server
 * clock may stand still (tests, a paused tutorial) and two events of one pod
 * must not collide.
 */
let lastStamp = 0n;
function nameStamp(nowMs: number): string {
  const stamp = BigInt(Math.floor(nowMs)) * 1_000_000n;
  lastStamp = stamp > lastStamp ? stamp : lastStamp + 1n;
  return lastStamp.toString(16);
}

const reference = (o: KubeObject) => ({
  kind: 'Pod',
  namespace: o.metadata?.namespace,
  name: o.metadata?.name,
  uid: o.metadata?.uid,
  apiVersion: 'v1',
  resourceVersion: o.metadata?.resourceVersion,
});

export function schedulerEvent(pod: KubeObject, e: SchedulerEvent, nowMs: number): KubeObject {
  const name = pod.metadata?.name ?? '';
  const note = e.note.length > NOTE_LIMIT ? `${e.note.slice(0, NOTE_LIMIT - 3)}...` : e.note;
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: `${name}.${nameStamp(nowMs)}`, namespace: pod.metadata?.namespace },
    eventTime: rfc3339Micro(nowMs),
    reportingController: SCHEDULER_NAME,
    reportingInstance: REPORTING_INSTANCE,
    action: e.action,
    reason: e.reason,
    regarding: reference(pod),
    ...(e.related ? { related: reference(e.related) } : {}),
    note,
    type: e.type,
  };
}

interface Cached {
  readonly event: KubeObject;
  count: number;
  lastObserved: number;
  lastWritten: number;
  timer?: TimerHandle;
}

/** Records the scheduler's events, folding repeats into series. */
export class SchedulerEventRecorder {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly ctx: ControllerContext) {}

  private key(pod: KubeObject, e: SchedulerEvent): string {
    const ref = (o: KubeObject | undefined) => (o ? `${o.metadata?.uid}@${o.metadata?.resourceVersion}` : '');
    return [e.action, e.reason, ref(pod), ref(e.related)].join('\u0000');
  }

  /** Records an event; a failure only loses the event, as with client-go's recorder. */
  async record(pod: KubeObject, e: SchedulerEvent): Promise<void> {
    const now = this.ctx.clock.now();
    const key = this.key(pod, e);
    const cached = this.cache.get(key);
    if (cached) {
      cached.count++;
      cached.lastObserved = now;
      this.arm(key, cached);
      if (cached.count === 2) await this.writeSeries(cached);
      return;
    }
    const event = schedulerEvent(pod, e, now);
    const entry: Cached = { event, count: 1, lastObserved: now, lastWritten: now };
    this.cache.set(key, entry);
    this.arm(key, entry);
    try {
      await this.ctx.client.create(EVENTS, pod.metadata?.namespace ?? '', event);
    } catch (err) {
      this.cache.delete(key);
      this.ctx.log(`could not record event ${e.reason} for pod ${pod.metadata?.namespace}/${pod.metadata?.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private arm(key: string, entry: Cached): void {
    this.ctx.timers.cancel(entry.timer);
    const due = Math.min(entry.lastObserved + FINISH_MS, entry.lastWritten + REFRESH_MS);
    entry.timer = this.ctx.timers.at(due, () => {
      const now = this.ctx.clock.now();
      const quiet = now >= entry.lastObserved + FINISH_MS;
      if (entry.count > 1 && (quiet || now >= entry.lastWritten + REFRESH_MS)) void this.writeSeries(entry);
      if (quiet) this.cache.delete(key);
      else this.arm(key, entry);
    });
  }

  private async writeSeries(entry: Cached): Promise<void> {
    entry.lastWritten = this.ctx.clock.now();
    const meta = entry.event.metadata ?? {};
    const series = { count: entry.count, lastObservedTime: rfc3339Micro(entry.lastObserved) };
    try {
      await this.ctx.client.call('PATCH', resourcePath(EVENTS, { namespace: meta.namespace ?? '', name: meta.name ?? '' }), { series }, { 'Content-Type': 'application/merge-patch+json' });
    } catch (err) {
      this.ctx.log(`could not update event series ${meta.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  stop(): void {
    for (const e of this.cache.values()) this.ctx.timers.cancel(e.timer);
    this.cache.clear();
  }
}
