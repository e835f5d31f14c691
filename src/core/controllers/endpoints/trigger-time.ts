// The endpoints.kubernetes.io/last-change-trigger-time annotation, as kube's
// TriggerTimeTracker computes it for Endpoints and EndpointSlices: for a
// Service seen for the first time, its creation time; afterwards the
// earliest of the trigger times that moved since the last sync (each pod's
// Ready condition's lastTransitionTime, the Service's creation time), or
// none. The time is written in RFC 3339 with Go's trimmed fraction.

import type { KubeObject } from '../../kinds/types';
import { podReadyCondition, timeMs } from '../workloads';

export const LAST_CHANGE_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';

interface ServiceState {
  lastPodTriggerTimes: Map<string, number>;
  lastServiceTriggerTime: number;
}

/** Go's time.RFC3339Nano of a UTC time: fractional seconds without trailing zeros. */
export function formatRFC3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.replace(/\.(\d{3})Z$/, (_m, frac: string) => {
    const trimmed = frac.replace(/0+$/, '');
    return trimmed ? `.${trimmed}Z` : 'Z';
  });
}

function podTriggerTime(pod: KubeObject): number {
  const t = timeMs(podReadyCondition(pod)?.lastTransitionTime);
  return Number.isFinite(t) ? t : 0;
}

export class TriggerTimeTracker {
  private readonly states = new Map<string, ServiceState>();

  /** The trigger time to write (ms since the epoch), or undefined to clear the annotation. */
  compute(svc: KubeObject, pods: readonly KubeObject[]): number | undefined {
    const key = `${svc.metadata?.namespace ?? ''}/${svc.metadata?.name ?? ''}`;
    const known = this.states.get(key);
    const state: ServiceState = known ?? { lastPodTriggerTimes: new Map(), lastServiceTriggerTime: 0 };
    let min: number | undefined;
    const podTimes = new Map<string, number>();
    for (const pod of pods) {
      const t = podTriggerTime(pod);
      if (!t) continue;
      const name = pod.metadata?.name ?? '';
      podTimes.set(name, t);
      if (t > (state.lastPodTriggerTimes.get(name) ?? 0)) min = min === undefined ? t : Math.min(min, t);
    }
    const created = timeMs(svc.metadata?.creationTimestamp);
    const serviceTime = Number.isFinite(created) ? created : 0;
    if (serviceTime > state.lastServiceTriggerTime) min = min === undefined ? serviceTime : Math.min(min, serviceTime);
    this.states.set(key, { lastPodTriggerTimes: podTimes, lastServiceTriggerTime: serviceTime });
    if (!known) return serviceTime || undefined;
    return min;
  }

  deleteService(namespace: string, name: string): void {
    this.states.delete(`${namespace}/${name}`);
  }
}
