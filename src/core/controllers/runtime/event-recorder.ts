// The core/v1 Events that kube-controller-manager's controllers and the
// kubelet record (client-go's legacy record.EventRecorder, which both still
// use in 1.32): `kubectl describe` and `kubectl events` read them, with
// their source ("deployment-controller", "kubelet" on a host), first and
// last timestamps and counts.
//
// As client-go's EventCorrelator, an event identical to one already
// recorded (same source, object, type, reason and message) is not created
// again: the existing Event's count goes up and its lastTimestamp moves, by
// a strategic merge patch, so a CrashLoopBackOff shows "x5 over 3m" rather
// than five lines. Recording never fails its caller: a lost event is
// logged, as client-go drops events it cannot write.

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import { errorMessage, isNotFound } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import type { Clock } from '../../clock';

export const CORE_EVENTS: GroupVersionResource = { group: '', version: 'v1', resource: 'events' };

/** client-go's maxLruCacheEntries: how many distinct events the correlator remembers. */
const CACHE_LIMIT = 4096;
/** Messages are cut as the recorder's validation limits them. */
const MESSAGE_LIMIT = 1024;

export interface EventSource {
  /** e.g. 'kubelet', 'deployment-controller', 'job-controller'. */
  readonly component: string;
  /** The node, for the kubelet. */
  readonly host?: string;
}

export interface RecordedEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
  /** For a container's events: spec.containers{name}, spec.initContainers{name}. */
  readonly fieldPath?: string;
}

interface Remembered {
  name: string;
  namespace: string;
  count: number;
  first: string;
}

/** Strictly increasing nanosecond stamps for event names (the Clock may stand still). */
let lastStamp = 0n;
function nameStamp(nowMs: number): string {
  const stamp = BigInt(Math.floor(nowMs)) * 1_000_000n;
  lastStamp = stamp > lastStamp ? stamp : lastStamp + 1n;
  return lastStamp.toString(16);
}

function apiVersionOf(obj: KubeObject): string {
  return obj.apiVersion ?? 'v1';
}

export class EventRecorder {
  private readonly seen = new Map<string, Remembered>();

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    readonly source: EventSource,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  /** Records an event about `regarding` (a Pod, a Deployment, …) and resolves once written or dropped. */
  async record(regarding: KubeObject, e: RecordedEvent): Promise<void> {
    const meta = regarding.metadata ?? {};
    // Events of cluster-scoped objects live in `default`, as client-go's recorder puts them.
    const namespace = meta.namespace || 'default';
    const message = e.message.length > MESSAGE_LIMIT ? e.message.slice(0, MESSAGE_LIMIT) : e.message;
    const key = [this.source.component, this.source.host ?? '', regarding.kind, meta.namespace ?? '', meta.name, meta.uid, apiVersionOf(regarding), e.fieldPath ?? '', e.type, e.reason, message].join('\u0000');
    const now = rfc3339(this.clock.now());
    const before = this.seen.get(key);
    try {
      if (before) {
        before.count++;
        const patch = { count: before.count, lastTimestamp: now, message };
        try {
          await this.client.patch(CORE_EVENTS, before.namespace, before.name, patch, 'application/strategic-merge-patch+json');
          this.remember(key, before);
          return;
        } catch (err) {
          // Gone (expired or deleted): a new Event takes its place, as client-go creates one.
          if (!isNotFound(err)) throw err;
          this.seen.delete(key);
        }
      }
      const name = `${meta.name ?? ''}.${nameStamp(this.clock.now())}`;
      const count = before?.count ?? 1;
      const event: KubeObject = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace },
        involvedObject: {
          kind: regarding.kind,
          namespace: meta.namespace,
          name: meta.name,
          uid: meta.uid,
          apiVersion: apiVersionOf(regarding),
          resourceVersion: meta.resourceVersion,
          ...(e.fieldPath ? { fieldPath: e.fieldPath } : {}),
        },
        reason: e.reason,
        message,
        source: { component: this.source.component, ...(this.source.host ? { host: this.source.host } : {}) },
        firstTimestamp: before?.first ?? now,
        lastTimestamp: now,
        count,
        type: e.type,
        eventTime: null,
        reportingComponent: this.source.component,
        reportingInstance: this.source.host ?? '',
      };
      await this.client.create(CORE_EVENTS, namespace, event);
      this.remember(key, { name, namespace, count, first: before?.first ?? now });
    } catch (err) {
      this.log(`could not record event ${e.reason} for ${regarding.kind} ${meta.namespace ? `${meta.namespace}/` : ''}${meta.name}: ${errorMessage(err)}`);
    }
  }

  /** Records without waiting (the caller goes on; the write completes in the background). */
  emit(regarding: KubeObject, e: RecordedEvent): void {
    void this.record(regarding, e);
  }

  private remember(key: string, value: Remembered): void {
    this.seen.delete(key);
    this.seen.set(key, value);
    if (this.seen.size > CACHE_LIMIT) this.seen.delete(this.seen.keys().next().value as string);
  }
}
