// The events.k8s.io/v1 Events kube-scheduler records on a pod, so that
// `kubectl describe pod` shows "Scheduled" or "FailedScheduling" from
// default-scheduler. Named as client-go's event recorder names them:
// <pod name>.<event time in nanoseconds, hex>.

import { rfc3339Micro } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import type { GroupVersionResource } from '../client/resource-path';
import type { ControllerContext } from '../runtime/controller';

export const EVENTS: GroupVersionResource = { group: 'events.k8s.io', version: 'v1', resource: 'events' };
export const SCHEDULER_NAME = 'default-scheduler';
const REPORTING_INSTANCE = `${SCHEDULER_NAME}-kubetab`;
/** Event notes are cut to 1 KiB, as the scheduler's truncateMessage does. */
const NOTE_LIMIT = 1024;

export interface SchedulerEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly action: string;
  readonly note: string;
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
    regarding: { kind: 'Pod', namespace: pod.metadata?.namespace, name, uid: pod.metadata?.uid, apiVersion: 'v1', resourceVersion: pod.metadata?.resourceVersion },
    note,
    type: e.type,
  };
}

/** Records an event; a failure only loses the event, as with client-go's recorder. */
export async function recordEvent(ctx: ControllerContext, pod: KubeObject, e: SchedulerEvent): Promise<void> {
  try {
    await ctx.client.create(EVENTS, pod.metadata?.namespace ?? '', schedulerEvent(pod, e, ctx.clock.now()));
  } catch (err) {
    ctx.log(`could not record event ${e.reason} for pod ${pod.metadata?.namespace}/${pod.metadata?.name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
